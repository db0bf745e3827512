"""How fast this OpenCV runs the networks alone, one thread (not a test: run it, read it).

    .venv/bin/python bench/bench_networks.py
    PYTHONPATH=. OTHER_VENV/bin/python bench/bench_networks.py     # another OpenCV, same networks

The median of 30 forward passes, after one: the face classifier on a batch of 20 crops, the
detector on a 384 x 288 look, and each kind's screen (runtime.screen_for) on the 20 crops. A Pi
takes its OpenCV from Raspberry Pi OS (4.6 on Bookworm, 4.10 on Trixie): this says what that
choice costs before a Pi is at hand (docs/hardware.md).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.learned import detector, runtime  # noqa: E402
from vision.learned.classes import KINDS  # noqa: E402
from vision.learned.crops import CHANNELS, INPUT  # noqa: E402
from vision.learned.onnx_net import read_onnx  # noqa: E402

RUNS = 30


def median_ms(net, blob: np.ndarray) -> float:
    net.setInput(blob)
    net.forward()
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        net.setInput(blob)
        net.forward()
        times.append(time.perf_counter() - t)
    return 1000 * float(np.median(times))


def main() -> int:
    cv2.setNumThreads(1)
    rng = np.random.default_rng(0)
    crops = rng.standard_normal((20, CHANNELS, INPUT, INPUT)).astype(np.float32)
    look = rng.random((1, 3, 288, 384), dtype=np.float32)
    faces = median_ms(read_onnx(runtime.ONNX_PATH), crops)
    dice = median_ms(read_onnx(detector.ONNX_PATH), look)
    print(
        f"OpenCV {cv2.__version__}, one thread: classifier, 20 crops {faces:.1f} ms;"
        f" detector, 384 x 288 {dice:.1f} ms"
    )
    for stem in sorted({runtime.screen_for(k) for k in KINDS} - {None}):
        screen = median_ms(read_onnx(runtime.MODELS / f"{stem}.onnx"), crops)
        kinds = ", ".join(k for k in KINDS if runtime.screen_for(k) == stem)
        print(f"  screen {stem} ({kinds}), 20 crops {screen:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
