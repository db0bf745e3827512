"""What a ring of crops around each face says of its die, on the synthetic benchmark (a tool for
choosing vision/ring_look.py's numbers, not a test: run it, read it).

    .venv/bin/python bench/ring_probe.py --kind pips --seeds 102,103,104 [--n 150] [--jobs 2]

Every face the reader is about to report (the finds and classifier rows the ring look is given)
is read again from ring_look.RING crops at each --radius around its find, and labelled by the
truth die it lies on: a cocked die, a flat die read right, or one misread. The table counts, for
each band of the classifier's odds of "cocked" and each line on the ring's second-highest
"cocked", the faces the ring would call cocked: session 52 chose the ring's numbers from it
(pips and Détrak 6 cocked dice and 1 flat die at 0.4 of a side, 0.02, 0.8; Strike 4 and 18).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from vision_errors import NEAR, listening  # noqa: E402

from vision import read, ring_look  # noqa: E402
from vision.find_report import report  # noqa: E402
from vision.learned import crop_die, probabilities  # noqa: E402
from vision.learned.classes import COCKED, kind_classes  # noqa: E402
from vision.ring_look import around  # noqa: E402
from vision.synth.scene import KINDS, benchmark_scene  # noqa: E402

BANDS = ((0.0, 0.02), (0.02, 0.05), (0.05, 1.01))  # the classifier's odds of "cocked"
LINES = (0.7, 0.8, 0.9, 0.95)  # the ring's second-highest "cocked"


def faces_of(job: tuple) -> list[tuple[str, float, list[float]]]:
    """(truth, odds of "cocked", the ring's second-highest "cocked" at each radius) of each face
    the reader would report in one scene."""
    kind, seed, index, radii = job
    cv2.setNumThreads(1)
    scene = benchmark_scene(kind, index, seed)
    with listening() as heard:
        read(scene.image, kind, None, "auto")
    names = kind_classes(kind)
    cocked = names.index(COCKED)
    found, p = heard["ringed"]
    out = []
    for f, row in zip(found, p, strict=True):
        die = report(f, row, names, kind)
        if die is None or die.cocked:
            continue
        near = [t for t in scene.dice if math.hypot(t.x - f.x, t.y - f.y) < NEAR * t.size]
        if not near:
            continue
        t = min(near, key=lambda t: math.hypot(t.x - f.x, t.y - f.y))
        truth = "cocked" if t.cocked else ("right" if t.face == die.face else "wrong")
        seconds = []
        for r in radii:
            ring = [crop_die(scene.image, m.x, m.y, m.size, heard["below"]) for m in around(f, r)]
            seconds.append(float(np.sort(probabilities(ring, kind)[:, cocked])[-2]))
        out.append((truth, float(row[cocked]), seconds))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kind", required=True, choices=KINDS)
    ap.add_argument("--seeds", required=True, help="comma-separated synthetic seeds")
    ap.add_argument("--n", type=int, default=150, help="scenes a seed (default 150)")
    ap.add_argument("--radius", type=float, nargs="+", default=[ring_look.RADIUS])
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        ap.error(f"--seeds: expected seeds separated by commas, got {args.seeds!r}")
    jobs = [(args.kind, s, i, args.radius) for s in seeds for i in range(args.n)]
    with Pool(args.jobs) as pool:
        faces = [f for fs in pool.imap(faces_of, jobs, chunksize=4) for f in fs]
    print(f"{len(faces)} faces:", dict(Counter(t for t, _, _ in faces)))
    for k, r in enumerate(args.radius):
        for lo, hi in BANDS:
            band = [(t, s[k]) for t, odds, s in faces if lo <= odds < hi]
            for line in LINES:
                called = Counter(t for t, s in band if s >= line)
                print(
                    f"radius {r:.2f}, odds {lo:.2f}-{min(hi, 1):.2f} ({len(band)} faces), "
                    f"second >= {line}: cocked {called['cocked']}, flat right {called['right']},"
                    f" misread {called['wrong']}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
