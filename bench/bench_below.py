"""How near the axis network puts the point below the camera (vision/learned/axis.py).

    python bench/bench_below.py --kind strike --seed 1 --n 150

On the synthetic benchmark's scenes (whose truth knows the point: `Scene.below`), for each
frame: the detector's sure flat finds the classifier sees a die in, their offsets, the fit;
the distance from the point found to the true one, in frame lengths, against the distance of
the frame's centre (what the crops are turned about when nothing is found), by tilt band.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.learned import axis, crop_die, detector, probabilities  # noqa: E402
from vision.learned.classes import NONE, kind_classes  # noqa: E402
from vision.synth.scene import benchmark_set  # noqa: E402

BANDS = ((0, 2), (2, 10), (10, 90))


def frame_errors(scene, kind: str) -> tuple[float, float | None]:
    """(the centre's distance from the true point, the fit's or None), in frame lengths."""
    image = scene.image
    h, w = image.shape[:2]
    length = max(h, w)
    found = [f for f in detector.find_dice(image) if not f.cocked and f.score >= detector.SURE]
    centre = math.dist(((w - 1) / 2, (h - 1) / 2), scene.below) / length
    if not found:
        return centre, None
    p = probabilities([crop_die(image, f.x, f.y, f.size) for f in found], kind)
    names = kind_classes(kind)
    flat = [f for f, row in zip(found, p, strict=True) if names[int(row.argmax())] != NONE]
    offsets = axis.offsets(image, [(f.x, f.y, f.size) for f in flat], kind)
    below = axis.point_below([(f.x, f.y) for f in flat], offsets, image.shape)
    return centre, None if below is None else math.dist(below, scene.below) / length


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", default="strike", choices=("pips", "strike", "detrak"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--n", type=int, default=150)
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rows = [
        (s.conditions["tilt"], *frame_errors(s, a.kind)) for s in benchmark_set(a.kind, a.n, a.seed)
    ]
    print(f"{a.kind} seed {a.seed}: distance to the true point below the camera, frame lengths")
    for lo, hi in BANDS:
        band = [r for r in rows if lo <= r[0] < hi]
        got = [r for r in band if r[2] is not None]
        if not got:
            continue
        fit = np.array([r[2] for r in got])
        centre = np.array([r[1] for r in got])
        print(
            f"  tilt {lo}-{hi} deg: {len(got)}/{len(band)} frames placed;"
            f" fit median {np.median(fit):.3f}, 80 % {np.percentile(fit, 80):.3f};"
            f" centre median {np.median(centre):.3f}; fit nearer in {int((fit < centre).sum())}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
