"""Render a photoreal benchmark set with Blender (Debian's `blender`: Cycles on the CPU, Bullet
rigid bodies), for bench/bench_photoreal.py:

    .venv/bin/python -m vision.photoreal.render --kind pips --n 40 --seed 0 --out DIR

Each scene gives DIR/KIND_NNN.jpg (quality 92, as a phone saves it) and DIR/KIND_NNN.json (the
truth: scored dice, dice left out and why, the conditions, the camera). A scene already rendered
is kept, so an interrupted run goes on where it stopped. Textures are drawn in a scratch
directory and removed. About 10-40 s a scene on two cores. Beside benchmarks or training, add
`--background` (started with `nohup ... &`): the render then takes only the CPU they leave.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from .spec import draw_spec
from .truth import truth

SCRIPT = Path(__file__).with_name("blender_scene.py")
JPEG_QUALITY = 92


def render_one(
    kind: str,
    seed: int,
    index: int,
    out: Path,
    blender: str = "blender",
    leaning: bool = False,
    oblique: bool = False,
) -> Path:
    """Render scene `index` into `out`; returns the truth file's path."""
    name = out / f"{kind}_{index:03d}"
    if (name.with_suffix(".json")).exists():
        return name.with_suffix(".json")
    with tempfile.TemporaryDirectory(prefix="arbitre-photoreal-") as tmp:
        tmp = Path(tmp)
        spec = draw_spec(kind, seed, index, tmp, leaning, oblique)
        spec_path = tmp / "spec.json"
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        cmd = [
            blender,
            "-b",
            "--factory-startup",
            "-P",
            str(SCRIPT),
            "--",
            str(spec_path),
            str(tmp / "scene"),
        ]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode or not (tmp / "scene.poses.json").exists():
            raise RuntimeError(
                f"blender failed on {name.name}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            )
        rendered = json.loads((tmp / "scene.poses.json").read_text(encoding="utf-8"))
        image = _frame(tmp, spec["frame"], rendered.get("region"))
        cv2.imwrite(str(name.with_suffix(".jpg")), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        poses = rendered["dice"]
    scored, left = truth(spec, poses)
    record = {
        "image": name.with_suffix(".jpg").name,
        "kind": kind,
        "dice": [d.to_json() | {"tip": d.tip} for d in scored],
        "left": [vars(d) for d in left],
        "conditions": spec["conditions"]
        | {"background": spec["background"]["name"], "arena": spec["arena"] is not None},
        "camera": spec["camera"],  # (where a point of the scene lands: camera.py)
    }
    name.with_suffix(".json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    return name.with_suffix(".json")


def add_camera(kind: str, seed: int, index: int, out: Path) -> Path | None:
    """Give a scene rendered before its record kept the camera (session 28) the camera its spec
    drew, without rendering; None when the scene is not in `out`. ValueError when the spec
    drawn does not match the record (another seed than the scene's)."""
    path = out / f"{kind}_{index:03d}.json"
    if not path.exists():
        return None
    record = json.loads(path.read_text(encoding="utf-8"))
    if "camera" in record:
        return path
    with tempfile.TemporaryDirectory(prefix="arbitre-photoreal-") as tmp:
        spec = draw_spec(kind, seed, index, Path(tmp))
    drawn = {k: spec["conditions"][k] for k in ("frame", "die_size", "tilt", "n_dice")}
    kept = {k: record["conditions"][k] for k in drawn}
    if json.loads(json.dumps(drawn)) != kept:
        raise ValueError(f"{path.name}: seed {seed} draws {drawn}, the scene has {kept}")
    record["camera"] = spec["camera"]
    path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    return path


def _frame(tmp: Path, size, region) -> np.ndarray:
    """The rendered frame at its full size: a frame rendered small is enlarged, and the dice's
    region, rendered again at full size, pasted in."""
    image = cv2.imread(str(tmp / "scene.png"))
    if image.shape[1] != size[0]:
        image = cv2.resize(image, tuple(size), interpolation=cv2.INTER_CUBIC)
    if region:
        x0, y0, x1, y1 = region
        part = cv2.imread(str(tmp / "scene.region.png"))
        # (Blender may round the border to a pixel more or less than asked)
        rows, cols = min(part.shape[0], y1 - y0), min(part.shape[1], x1 - x0)
        image[y0 : y0 + rows, x0 : x0 + cols] = part[:rows, :cols]
    return image


def behind_other_work() -> bool:
    """Give the CPU to anything else first. Rendering runs for hours beside benchmarks and
    training; `nice` alone does not make it yield to another session's work, because Linux
    schedules each session (autogroup) as one whatever the nice values inside it (session 14:
    a training beside two render loops got a third of the CPU; session 51: 938 s an epoch
    against 97). So the process takes a session of its own and sets that session's autogroup
    to 19. A process-group leader (started by a shell with job control) cannot leave its
    session: its autogroup is the user's shell's, so only its own nice is set. Returns whether
    the autogroup was set (a kernel without autogroups has none to set)."""
    if os.getsid(0) != os.getpid():
        with contextlib.suppress(PermissionError):  # a process-group leader stays
            os.setsid()
    os.nice(19 - os.nice(0))
    if os.getsid(0) != os.getpid():
        return False
    try:
        Path("/proc/self/autogroup").write_text("19", encoding="ascii")
    except OSError:
        return False
    return True


def wanted(
    kind: str,
    seed: int,
    index: int,
    drawn: tuple[bool, bool],
    frame: str | None,
    max_die: float | None,
) -> bool:
    """Whether scene `index` is drawn with `frame` (WxH) and dice of `max_die` px or less, each
    when asked; `drawn`: (leaning, oblique), as the scene is drawn. A set of one kind of photo
    is rendered without rendering the rest: a 4032 px photo of small dice is about one scene in
    30, and the gates of rules 179 and 182 needed twenty of them (sessions 61-62). The spec is
    drawn to be judged, its textures thrown away."""
    if frame is None and max_die is None:
        return True
    with tempfile.TemporaryDirectory(prefix="arbitre-photoreal-") as tmp:
        cond = draw_spec(kind, seed, index, Path(tmp), *drawn)["conditions"]
    size = "x".join(str(v) for v in cond["frame"])
    return (frame is None or size == frame) and (max_die is None or cond["die_size"] <= max_die)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kind", choices=("pips", "strike", "detrak"), required=True)
    p.add_argument("--n", type=int, default=40)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--first", type=int, default=0, help="index of the first scene")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--blender", default="blender")
    p.add_argument(
        "--leaning",
        action="store_true",
        help="more dice set up to lean on a neighbour (spec.LEANING_PAIRS): for training sets",
    )
    p.add_argument(
        "--oblique",
        action="store_true",
        help="every camera 15-35° off vertical (spec._camera): training sets of oblique photos",
    )
    p.add_argument(
        "--frame",
        default=None,
        help="only the scenes drawn with this frame, WxH (4032x3024: the big photos)",
    )
    p.add_argument(
        "--max-die",
        type=float,
        default=None,
        help="only the scenes whose drawn die size is at most this many px (small dice)",
    )
    p.add_argument(
        "--cameras",
        action="store_true",
        help="render nothing: add the spec's camera to the records of scenes already rendered",
    )
    p.add_argument(
        "--background",
        action="store_true",
        help="yield the CPU to other work (benchmarks, training): behind_other_work",
    )
    args = p.parse_args(argv)
    if args.background:
        behind_other_work()
    if args.cameras:
        for i in range(args.first, args.first + args.n):
            print(add_camera(args.kind, args.seed, i, args.out) or f"{args.kind} {i}: not there")
        return 0
    if not shutil.which(args.blender):
        print(f"{args.blender}: not found (Debian: apt-get install blender)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.first, args.first + args.n):
        drawn = (args.leaning, args.oblique)
        if not wanted(args.kind, args.seed, i, drawn, args.frame, args.max_die):
            continue
        path = render_one(
            args.kind, args.seed, i, args.out, args.blender, args.leaning, args.oblique
        )
        print(path, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
