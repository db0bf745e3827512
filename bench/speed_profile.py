"""Where a speed frame's time goes: each network's forward passes, by network and batch, and the
rest (a tool, not a test: run it, read it).

    .venv/bin/python bench/speed_profile.py [--kinds pips,strike,detrak] [--rounds 10] [--frames 4]
        [--table]

bench_vision.py's speed figure is one number, and this machine's minutes move it by a third
(docs/vision.md, "Where it stands"); deciding what to make faster needs its parts, on the same
1280 x 960 frames of 20 dice (the first four, or --frames N of the bench's 24), one thread. Every network the reader loads is wrapped so that
each forward pass is timed (the readings are read()'s own); what is not a forward pass (crops,
resizing, the detector's looks' bookkeeping, Strike's arena) is the rest. On a Pi this says
which part its OpenCV runs slowest. Sessions 32-38 each wrote this in /tmp and lost it.
--table reads each frame as the table does, its arena and dice size known (bench_vision.speed's
calibrated frames): no arena to find, no point below the camera to search.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_vision import SPEED_FRAMES, speed_frames, table_calibration  # noqa: E402

from vision import read  # noqa: E402
from vision.learned import axis, detector, onnx_net, refine, runtime  # noqa: E402

LOADERS = (axis, detector, refine, runtime)  # the modules that load networks (read_onnx)


class _Timed:
    """A network whose forward passes are timed into `spent[(name, batch shape)]`."""

    def __init__(self, net, name: str, spent: dict) -> None:
        self._net, self._name, self._spent, self._shape = net, name, spent, None

    def setInput(self, blob, *args, **kwargs):  # noqa: N802 (cv2.dnn.Net's name)
        self._shape = tuple(np.shape(blob))
        return self._net.setInput(blob, *args, **kwargs)

    def forward(self, *args, **kwargs):
        t = time.perf_counter()
        out = self._net.forward(*args, **kwargs)
        self._spent[(self._name, self._shape)].append(time.perf_counter() - t)
        return out

    def __getattr__(self, name):
        return getattr(self._net, name)


def timing_networks(spent: dict) -> None:
    """Every network loaded from now on is timed (the loaders' caches must still be empty)."""

    def load(path):
        return _Timed(onnx_net.read_onnx(path), Path(path).stem, spent)

    for module in LOADERS:
        module.read_onnx = load


def profile(kind: str, rounds: int, spent: dict, n: int = 4, table: bool = False) -> float:
    """Mean ms a speed frame over `rounds` rounds of the first `n` frames; `spent` holds the
    passes. `table`: each frame read with its table_calibration (bench_vision's)."""
    frames = speed_frames(kind, n)
    cals = [table_calibration(image, read(image, kind)) if table else None for image in frames]
    for image, cal in zip(frames, cals, strict=True):
        read(image, kind, calibration=cal)  # (loads the networks, warms the caches)
    spent.clear()
    t = time.perf_counter()
    for _ in range(rounds):
        for image, cal in zip(frames, cals, strict=True):
            read(image, kind, calibration=cal)
    return (time.perf_counter() - t) * 1000 / (len(frames) * rounds)


def report(kind: str, total: float, spent: dict, frames: int) -> None:
    nets = sum(sum(v) for v in spent.values()) * 1000 / frames
    print(
        f"{kind}: {total:.1f} ms a frame (mean), networks {nets:.1f}, the rest {total - nets:.1f}"
    )
    for (name, shape), times in sorted(spent.items(), key=lambda kv: -sum(kv[1])):
        print(
            f"  {name:18s} batch {str(shape):18s} {len(times) / frames:5.2f} a frame,"
            f" {1000 * float(np.median(times)):6.2f} ms each, {1000 * sum(times) / frames:6.2f}"
            " ms a frame"
        )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kinds", default="pips,strike,detrak")
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument(
        "--frames", type=int, default=4, help=f"speed frames (the bench's figure: {SPEED_FRAMES})"
    )
    p.add_argument("--table", action="store_true", help="read as the table: arena, dice size known")
    a = p.parse_args()
    cv2.setNumThreads(1)
    spent: dict = defaultdict(list)
    timing_networks(spent)
    mode = "the table's reads" if a.table else "photos"
    print(
        f"OpenCV {cv2.__version__}, one thread, bench_vision's first {a.frames} speed frames,"
        f" {mode}"
    )
    for kind in a.kinds.split(","):
        total = profile(kind, a.rounds, spent, a.frames, a.table)
        report(kind, total, spent, a.frames * a.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
