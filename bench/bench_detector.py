"""Benchmark of the learned dice detector alone (vision/learned/detector.py): are the dice found?

    .venv/bin/python bench/bench_detector.py [--n 60] [--seed 0] [--kinds pips,strike,detrak]

On vision.synth's benchmark set (the same scenes as bench/bench_vision.py), per kind: the share of
dice found (a find within 0.35 of the die's side of its centre), of flat dice found flat and of
cocked dice found cocked, the finds that are no die, the median size error, and the median time of
find_dice on the 1280 x 960 frames (one thread).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.learned.detector import find_dice  # noqa: E402
from vision.synth.scene import benchmark_set  # noqa: E402


def tally(scene, found, c: Counter, size_err: list) -> None:
    used = set()
    for t in scene.dice:
        near = sorted(
            (math.hypot(f.x - t.x, f.y - t.y), j)
            for j, f in enumerate(found)
            if j not in used and math.hypot(f.x - t.x, f.y - t.y) < 0.35 * t.size
        )
        key = "cocked" if t.cocked else "flat"
        c[key] += 1
        if not near:
            continue
        j = near[0][1]
        used.add(j)
        c[key + "_found"] += 1
        c[key + "_right"] += found[j].cocked == t.cocked
        if not t.cocked:
            size_err.append(abs(found[j].size - t.size) / t.size)
    c["extra"] += len(found) - len(used)
    c["finds"] += len(found)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=60)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--kinds", default="pips,strike,detrak")
    args = p.parse_args()
    cv2.setNumThreads(1)
    for kind in args.kinds.split(","):
        c, size_err, times = Counter(), [], []
        for scene in benchmark_set(kind, args.n, args.seed):
            t0 = time.perf_counter()
            found = find_dice(scene.image)
            if scene.image.shape[:2] == (960, 1280):
                times.append((time.perf_counter() - t0) * 1000)
            tally(scene, found, c, size_err)
        print(
            f"{kind}: flat found {c['flat_found']}/{c['flat']} (as flat {c['flat_right']}), "
            f"cocked found {c['cocked_found']}/{c['cocked']} (as cocked {c['cocked_right']}), "
            f"extra {c['extra']}/{c['finds']} finds, size error median "
            f"{statistics.median(size_err) if size_err else float('nan'):.3f}, "
            f"1280x960 find_dice median {statistics.median(times) if times else float('nan'):.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
