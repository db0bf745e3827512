"""The truth of a photoreal scene, from where Blender's physics left each die (pure: tested
without Blender).

A die counts as flat when its top face is within FLAT_TIP of level, as cocked from COCKED_TIP
on (leaning on a die, a wall, or sitting on an edge), and is left out of the score in between
(a die whose face is tipped 5-15° sits on something small: a player would call it either way,
and the reader may too). A die whose top face leaves the frame, or whose top face is covered by
a die nearer the camera (under MIN_VISIBLE of it seen: Blender casts rays to it), is left out
as well: the score is about what a player can see.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.synth.scene import TruthDie

from .arena import inside
from .spec import FACES

FLAT_TIP = 5.0  # degrees
COCKED_TIP = 15.0
MARGIN = 2.0  # px: a top face this close to the frame's edge is cut
MIN_VISIBLE = 0.75  # share of the top face the camera must see (blender_scene.py's rays)


@dataclass(frozen=True)
class Left:
    """A die left out of the score, and why (readings near it are not counted either)."""

    x: float
    y: float
    size: float
    why: str


def truth(spec: dict, poses: list[dict]) -> tuple[list[TruthDie], list[Left]]:
    """The scored dice and the ones left out, in the order of the spec."""
    kind = spec["kind"]
    w, h = spec["frame"]
    scored, left = [], []
    for i, p in enumerate(poses):
        x, y = p["centre"][:2]
        size = _side(p["corners"])
        why = _left_out(p, poses, i, w, h, size)
        if why:
            left.append(Left(x, y, size, why))
            continue
        cocked = p["tip"] >= COCKED_TIP
        face = None if cocked else FACES[kind][p["top"]]
        arena = spec.get("arena")
        in_arena = inside(arena, *p["location"][:2]) if arena else None
        seen = p.get("visible", 1.0)
        scored.append(TruthDie(face, x, y, size, in_arena, cocked, seen, round(p["tip"], 1)))
    return scored, left


def _side(corners: list[list[float]]) -> float:
    """The top face's side in the image: the mean of its four projected edges."""
    edges = [
        math.hypot(corners[k][0] - corners[k - 1][0], corners[k][1] - corners[k - 1][1])
        for k in range(4)
    ]
    return sum(edges) / 4


def _left_out(p: dict, poses: list[dict], i: int, w: int, h: int, size: float) -> str | None:
    if p["centre"][2] <= 0 or any(
        not (MARGIN <= c[0] <= w - MARGIN and MARGIN <= c[1] <= h - MARGIN) for c in p["corners"]
    ):
        return "out of frame"
    if FLAT_TIP <= p["tip"] < COCKED_TIP:
        return f"tipped {p['tip']:.0f}°"
    if p.get("visible", 1.0) < MIN_VISIBLE:
        return f"top face {p['visible']:.0%} seen"
    x, y, depth = p["centre"]
    for k, q in enumerate(poses):
        if k != i and q["centre"][2] < depth - 0.5 and _covers(q, x, y, size):
            return "under another die"
    return None


def _covers(q: dict, x: float, y: float, size: float) -> bool:
    """Whether die q, nearer the camera, stands over the top face's centre (within half a side
    of its own top face's centre)."""
    return math.hypot(q["centre"][0] - x, q["centre"][1] - y) < 0.7 * size


def add_scenes_option(parser) -> None:
    """The training scripts' --photoreal: directories of rendered scenes to learn from too."""
    parser.add_argument(
        "--photoreal",
        type=Path,
        nargs="*",
        default=[],
        help="also Blender-rendered scenes from these directories (vision/photoreal; not seeds 0-1)",
    )


# render.py's KIND_NNN: the index three digits or more (a glob of three digits skipped index 1000
# on, and with them Strike's renders s4400 1000-1013, until session 55)
SCENE_STEM = re.compile(r"(?P<kind>.+)_(?P<index>[0-9]{3,})")


def scene_paths(dirs) -> list[Path]:
    """The truth files of rendered scenes (render.py's KIND_NNN.json), each directory's by kind
    and index."""
    keyed = []
    for d in dirs:
        for path in Path(d).glob("*_*.json"):
            if stem := SCENE_STEM.fullmatch(path.stem):
                keyed.append(((str(path.parent), stem["kind"], int(stem["index"])), path))
    return [path for _, path in sorted(keyed)]


def rendered_scenes(dirs) -> dict[str, dict[str, int]]:
    """How many rendered scenes of each kind each directory gave, for faces.json: with the
    render's seed (docs/vision-learned.md), what must be rendered again to train the same
    network."""
    counts = {str(d): Counter(p.stem.rsplit("_", 1)[0] for p in scene_paths([d])) for d in dirs}
    return {d: dict(c) for d, c in counts.items() if c}


def read_scene(path: Path) -> tuple[dict, np.ndarray]:
    """A scene's truth record and its image; a clear error when the image cannot be read."""
    record = json.loads(Path(path).read_text(encoding="utf-8"))
    image = cv2.imread(str(Path(path).with_name(record["image"])))
    if image is None:
        raise ValueError(f"{path}: its image {record['image']} cannot be read")
    return record, image
