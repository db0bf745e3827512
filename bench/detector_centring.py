"""Where the detector puts the flat dice of oblique photos: on their top face, or toward the side
face the photo shows (a tool for choosing a detector, not a test: run it, read it).

    .venv/bin/python bench/detector_centring.py [--model DICE.onnx] [--kinds pips,strike,detrak]
                                                [--seed 1] [--n 150] [--min-tilt 10]

In a photo tilted 10 degrees or more a flat die off the point below the camera shows a side face,
and a find between the two faces reads "cocked" (docs/vision-history.md, "Session 33"). Per kind,
over the flat dice of the benchmark scenes so tilted: the finds more than OFF of a side from the
top face's centre along the line from the point below (and those of them lying FAR frame lengths
or more from it, where the reader looks further out), the median of that offset (negative:
toward the point), the finds the detector itself calls cocked, the dice no find is near, and the
cocked dice it calls cocked. `--model` reads another detector (its .json beside it).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.find_report import worth_a_look  # noqa: E402
from vision.later_looks import OUTWARD_REACH as FAR  # noqa: E402  (where it looks further out)
from vision.learned import detector  # noqa: E402
from vision.read_learned import NEARER_KINDS, WHOLE_KINDS  # noqa: E402
from vision.synth.scene import benchmark_scene  # noqa: E402

OFF = 0.2  # of a side: a find this far off its top face reads its side face too
SAME = 0.6  # of a side: the nearest find this near is the die's


def centring(scene, found, c: Counter, along: list) -> None:
    """Count one scene's flat dice by where their nearest find lies, and its cocked dice."""
    bx, by = scene.below
    length = max(scene.image.shape[:2])
    for d in scene.dice:
        near = [f for f in found if math.hypot(f.x - d.x, f.y - d.y) < SAME * d.size]
        if d.cocked:
            c["cocked"] += 1
            c["cocked seen cocked"] += any(f.cocked for f in near)
            continue
        c["flat"] += 1
        if not near:
            c["missed"] += 1
            continue
        f = min(near, key=lambda f: math.hypot(f.x - d.x, f.y - d.y))
        reach = math.hypot(d.x - bx, d.y - by) or 1.0
        off = ((f.x - d.x) * (d.x - bx) + (f.y - d.y) * (d.y - by)) / reach / d.size
        along.append(off)
        c["seen cocked"] += f.cocked
        if abs(off) > OFF:
            c["off"] += 1
            c["off, far out"] += reach / length >= FAR


def measure(kind: str, seed: int, n: int, min_tilt: float) -> tuple[Counter, list]:
    c, along = Counter(), []
    for i in range(n):
        scene = benchmark_scene(kind, i, seed)
        if scene.conditions["tilt"] < min_tilt:
            continue
        c["scenes"] += 1
        found = detector.find_dice(
            scene.image, nearer=kind in NEARER_KINDS, whole=kind in WHOLE_KINDS
        )
        centring(scene, [f for f in found if worth_a_look(f)], c, along)
    return c, along


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", type=Path, default=None, help="a detector's .onnx (default: dice)")
    p.add_argument("--kinds", default="pips,strike,detrak")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--n", type=int, default=150)
    p.add_argument("--min-tilt", type=float, default=10.0)
    a = p.parse_args(argv)
    if a.model is not None:
        if not (a.model.is_file() and a.model.with_suffix(".json").is_file()):
            p.error(f"{a.model}: expected a detector's .onnx with its .json beside it")
        detector.ONNX_PATH, detector.META_PATH = a.model, a.model.with_suffix(".json")
    cv2.setNumThreads(1)
    for kind in a.kinds.split(","):
        c, along = measure(kind, a.seed, a.n, a.min_tilt)
        median = float(np.median(along)) if along else float("nan")
        print(
            f"{kind} seed {a.seed}, {c['scenes']} scenes tilted {a.min_tilt:g}+ degrees: "
            f"{c['off']} of {c['flat']} flat dice found over {OFF} side off "
            f"({c['off, far out']} of them {FAR}+ frame lengths out), median {median:+.3f}; "
            f"seen cocked {c['seen cocked']}, missed {c['missed']}; "
            f"cocked dice seen cocked {c['cocked seen cocked']} of {c['cocked']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
