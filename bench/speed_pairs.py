"""Two source trees' speed on the speed frames, measured in turn: the committed reader against a
candidate (a tool for deciding what to keep, not a test: run it, read it).

    git worktree add /tmp/cand HEAD        # then change the candidate
    .venv/bin/python bench/speed_pairs.py /tmp/cand [--committed .] [--kinds strike] \\
        [--modes photo,table] [--pairs 3] [--rounds 5]

This machine's cores run the same forward pass in 9 ms one hour and 14 ms the next (session 71;
sessions 32 and 67 saw the same), so one run of each tree says little: each pair runs both,
one after the other, the order swapped from pair to pair, and the verdict is how many pairs the
candidate won. Each run is bench_vision.py's speed (24 frames x `--rounds`, one thread) in its
own process, with the tree's own code. Beside the times, each network's crops a frame (rows of
its input batches, counted on one more reading of each frame): the work, which the machine's
minutes do not move, so a change that reads fewer crops shows it on any machine; and each
network's input pixels a frame (the detector reads one frame a look, so its work is its pixels:
a table frame's hinted look at 480 x 360 against a photo's 384 x 288, session 72).
Sessions 67-71 did this with a /tmp script each.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
TREES = ("committed", "candidate")

# run in a tree (its bench/ and code): its speed figure, and each network's rows a frame. It calls
# only what every tree since session 67 has (bench_vision.speed, speed_frames, speed_profile), so
# it builds the table's calibration as bench_vision.table_calibration does (session 73) rather
# than ask for a helper an older committed tree would lack
_MEASURE = """
import json, sys
from collections import defaultdict
sys.path[:0] = ["bench", "."]
import cv2
from speed_profile import timing_networks
spent = defaultdict(list)
timing_networks(spent)
cv2.setNumThreads(1)
import numpy as np
import bench_vision
from vision import read
from vision.calibration import Calibration
kind, mode, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = bench_vision.speed(kind, rounds, calibrated=mode == "table")
frames = bench_vision.speed_frames(kind, s.frames)
cals = []
for image in frames:
    first = read(image, kind)
    side = float(np.median([d.size for d in first.dice])) if first.dice else None
    cals.append(Calibration(image.shape[1::-1], first.arena, side) if mode == "table" else None)
spent.clear()
for image, cal in zip(frames, cals):
    read(image, kind, calibration=cal)
rows, kpx = defaultdict(float), defaultdict(float)
for (name, shape), times in spent.items():
    rows[name] += shape[0] * len(times) / len(frames)
    kpx[name] += float(np.prod(shape[:1] + shape[2:])) * len(times) / len(frames) / 1000
print(json.dumps(dict(mean=s.mean, slowest=s.slowest, over=s.over, rows=rows, kpx=kpx)))
"""


def order(pair: int) -> tuple[str, str]:
    """The trees in the order pair number `pair` runs them: swapped every pair, so that a machine
    slowing down over the minutes does not always favour the tree run first."""
    return TREES if pair % 2 == 0 else TREES[::-1]


def verdict(runs: list[dict[str, dict]]) -> dict:
    """Of a kind's pairs (each {tree: run}), how many the candidate read faster, and the median
    ratio of its mean to the committed tree's."""
    ratios = [r["candidate"]["mean"] / r["committed"]["mean"] for r in runs]
    return {
        "faster": sum(q < 1.0 for q in ratios),
        "pairs": len(runs),
        "ratio": statistics.median(ratios) if ratios else float("nan"),
    }


def measure(tree: Path, kind: str, mode: str, rounds: int, python: str) -> dict:
    done = subprocess.run(
        [python, "-c", _MEASURE, kind, mode, str(rounds)],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"speed of {kind} ({mode}) in {tree} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def report(kind: str, mode: str, runs: list[dict[str, dict]]) -> list[str]:
    """A markdown table of one kind's pairs, its verdict, and each network's crops a frame."""
    lines = [f"{kind} ({mode}): ms a frame, the slowest frame in brackets", ""]
    lines += ["| pair | committed | candidate |", "|---|---|---|"]
    for i, r in enumerate(runs, 1):
        cells = [f"{r[t]['mean']:.1f} ({r[t]['slowest']:.0f})" for t in TREES]
        lines.append(f"| {i} | " + " | ".join(cells) + " |")
    v = verdict(runs)
    lines += [
        "",
        f"candidate faster in {v['faster']} of {v['pairs']} pairs,"
        f" its mean {v['ratio']:.2f} times the committed tree's (median)",
    ]
    for t in TREES:
        rows = runs[0][t]["rows"]
        each = ", ".join(f"{name} {n:.1f}" for name, n in sorted(rows.items()))
        lines.append(f"{t}: crops (input rows) a frame: {each}")
    for t in TREES:
        kpx = runs[0][t].get("kpx", {})  # (not in runs of this tool before session 72)
        each = ", ".join(f"{name} {n:.0f}" for name, n in sorted(kpx.items()))
        lines.append(f"{t}: input kilopixels a frame: {each}")
    return lines + [""]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("candidate", type=Path, help="the candidate's source tree (a git worktree)")
    p.add_argument("--committed", type=Path, default=HERE, help="the tree to compare it with")
    p.add_argument("--kinds", default="pips,strike,detrak")
    p.add_argument("--modes", default="photo,table", help="photo (no calibration), table")
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--python", default=sys.executable, help="the interpreter of both trees")
    a = p.parse_args()
    trees = {"committed": a.committed.resolve(), "candidate": a.candidate.resolve()}
    for kind in a.kinds.split(","):
        for mode in a.modes.split(","):
            if mode not in ("photo", "table"):
                raise SystemExit(f"--modes: expected photo and/or table, got {mode!r}")
            runs = []
            for pair in range(a.pairs):
                run = {}
                for t in order(pair):
                    run[t] = measure(trees[t], kind, mode, a.rounds, a.python)
                runs.append(run)
            print("\n".join(report(kind, mode, runs)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
