"""Dice seen on empty tables (a tool, not a test: run it, read it).

    .venv/bin/python bench/bench_empty.py [--n 150] [--seed 0] [--kinds pips,strike,detrak]

The table is empty most of the time: between throws, before a game, while the players talk, and
the watcher reads every still frame. A die reported there is a die the kiosk shows and a game
may score. bench_vision.py never asks this (its scenes hold 3-27 dice), and session 40 found an
empty printed tray read as two Détrak dice by the network then committed. This reads the
benchmark's scenes of a seed with every die taken away (the same backgrounds, frames, tilts,
lights, noise, blur and lens; Strike keeps its arena) and counts the dice reported, those at
>= 0.9 (recorded without asking), the frames holding any, by background, and the ms of a read.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scoring import SURE  # noqa: E402

from vision import read  # noqa: E402
from vision.synth.conditions import benchmark_conditions  # noqa: E402
from vision.synth.scene import KINDS, render_scene  # noqa: E402


class EmptyTally:
    """What a reader reports on frames that hold no die: every report is a false die."""

    def __init__(self) -> None:
        self.c = Counter()
        self.by_background = Counter()
        self.ms: list[float] = []

    def frame(self, background: str, dice, ms: float) -> None:
        c = self.c
        c["frames"] += 1
        c["frames_with_dice"] += bool(dice)
        c["dice"] += len(dice)
        c["faces"] += sum(d.face is not None for d in dice)
        c["sure"] += sum(d.face is not None and d.confidence >= SURE for d in dice)
        c["cocked"] += sum(bool(d.cocked) for d in dice)
        self.by_background[background] += len(dice)
        self.ms.append(ms)

    def lines(self, kind: str) -> list[str]:
        c = self.c
        ms = sorted(self.ms) or [0.0]
        worst = ", ".join(f"{b} {n}" for b, n in self.by_background.most_common() if n)
        return [
            f"== {kind}: {c['frames']} empty frames",
            f"   frames reporting a die     {c['frames_with_dice']}",
            f"   dice reported              {c['dice']} (faces {c['faces']}, at >= 0.9"
            f" {c['sure']}, cocked {c['cocked']}){'  by background: ' + worst if worst else ''}",
            f"   ms a read (all sizes)      median {statistics.median(ms):.1f},"
            f" slowest {ms[-1]:.1f}",
        ]


def empty_conditions(kind: str, n: int, seed: int):
    """The benchmark's scene conditions of `seed`, every die taken away."""
    for c in benchmark_conditions(kind, n, seed):
        yield dict(c, n_dice=0, cocked=0)


def _described(c: dict, dice, ms: float) -> str:
    w, h = c["frame"]
    seen = ", ".join(
        f"{'cocked' if d.cocked else d.face} at {d.confidence:.2f} ({d.size:.0f} px)" for d in dice
    )
    return (
        f"{w}x{h} {c['background']}, tilt {c['tilt']:.0f}, noise {c['noise']}, blur {c['blur']}:"
        f" {seen or 'no die'} ({ms:.0f} ms)"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=150, help="frames per kind (default 150)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--kinds", default=",".join(KINDS))
    a = p.parse_args()
    cv2.setNumThreads(1)
    for kind in a.kinds.split(","):
        tally, slowest = EmptyTally(), (0.0, "")
        for i, c in enumerate(empty_conditions(kind, a.n, a.seed)):
            scene = render_scene(kind, np.random.default_rng([a.seed, i, 77]), **c)
            t = time.perf_counter()
            readings = read(scene.image, kind)
            ms = (time.perf_counter() - t) * 1000
            tally.frame(c["background"], readings.dice, ms)
            line = f"frame {i}: {_described(c, readings.dice, ms)}"
            if readings.dice:
                print(f"   {line}")
            slowest = max(slowest, (ms, line))
        print("\n".join(tally.lines(kind)), f"   slowest {slowest[1]}", sep="\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
