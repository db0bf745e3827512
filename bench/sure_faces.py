"""The faces read at 0.9 or more, right and wrong, by face and by the detector's cocked heat at
their find (a tool, not a test: run it, read it).

    .venv/bin/python bench/sure_faces.py --kind detrak [--seed 0] [--n 150] [--blender DIR...]

A face at 0.9 or more is recorded without asking the players, so a rule that lowers some sure
faces' confidence trades the wrong ones it takes back against the right ones it turns into
questions. vision_errors.py lists the wrong ones only; this counts both sides, by the face read
and by the detector's heat of "cocked" at the find it was read from, the two things such a rule
can look at. Session 43 wrote it to look at cocked Détrak dice read as a sure "slash" in oblique
photos (the edge between the top face and a side face is one straight line): 9 of 20 wrong sure
faces over three render sets, for 390 right ones.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scoring import SURE, match  # noqa: E402
from vision_errors import errors_of, near, scenes  # noqa: E402

from vision.synth.scene import KINDS  # noqa: E402

HEATS = (0.0, 0.2, 0.3, 0.4)  # lower edges of the cocked-heat bands


def outcome(die, truth) -> str:
    """What lies under a face read: its own face (right), another (misread), a cocked die, or
    no die at all."""
    if truth is None:
        return "nothing"
    if truth.cocked:
        return "cocked"
    return "right" if str(truth.face) == str(die.face) else "misread"


def heat_band(heat: float | None) -> str:
    """The band of HEATS a cocked heat falls in ("no find": none near enough to say)."""
    if heat is None:
        return "no find"
    lower = max(h for h in HEATS if heat >= h)
    upper = [h for h in HEATS if h > lower]
    return f"{lower:.1f}-{upper[0]:.1f}" if upper else f">= {lower:.1f}"


def sure_faces(dice, truth, finds) -> list[tuple[str, str, str]]:
    """(face, heat band, outcome) of each face of a scene read at SURE or more; `finds`: the
    detector's finds the reading came from, the nearest within vision_errors.NEAR sides giving
    the heat."""
    pairs = match(dice, truth)
    under = {j: truth[i] for i, j in pairs.items()}
    out = []
    for j, d in enumerate(dice):
        if d.cocked or d.face is None or d.confidence < SURE:
            continue
        close = near(finds, d)
        nearest = min(close, key=lambda f: math.hypot(f.x - d.x, f.y - d.y)) if close else None
        heat = nearest.cocked_score if nearest else None
        out.append((str(d.face), heat_band(heat), outcome(d, under.get(j))))
    return out


def table(rows: list[tuple[str, str, str]]) -> list[str]:
    """Right / wrong (and what the wrong ones were) per face and heat band, then per band."""
    lines = []
    for key, name in ((lambda r: (r[0], r[1]), "face, heat"), (lambda r: (r[1],), "heat")):
        counts: dict[tuple, Counter] = {}
        for r in rows:
            counts.setdefault(key(r), Counter())[r[2]] += 1
        lines.append(f"by {name}: right / wrong (wrong: what lay there)")
        for k in sorted(counts):
            c = counts[k]
            wrong = {o: n for o, n in c.items() if o != "right"}
            lines.append(
                f"  {' '.join(k):<22} {c['right']:5d} / {sum(wrong.values()):3d}  {wrong or ''}"
            )
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kind", required=True, choices=KINDS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n", type=int, default=150, help="scenes (default 150, as bench_vision)")
    ap.add_argument(
        "--blender", type=Path, nargs="+", default=None, help="read these rendered scenes instead"
    )
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rows = []
    for _, scene, left in scenes(args, range(args.n)):
        dice, heard, _ = errors_of(scene, args.kind, left)
        finds = heard.get("read", ([], []))[0]
        rows += sure_faces(dice, scene.dice, finds)
    print(f"{len(rows)} faces read at {SURE} or more")
    print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
