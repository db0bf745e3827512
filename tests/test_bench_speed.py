"""The speed figure's arithmetic (bench/bench_vision.py: speed), on a made-up clock: which
frames it averages, and how a slow read or a dear frame moves it. The times themselves are the
benchmark's to measure, not a test's."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import bench_vision  # noqa: E402

# ms each of six frames takes to read; the third is read slowly once (a busy second)
COSTS = [20.0, 22.0, 45.0, 35.0, 21.0, 150.0]


@pytest.fixture
def clocked(monkeypatch):
    """bench_vision.speed reading COSTS[i] ms for frame i on a clock that read() moves."""
    now, reads = [0.0], []

    def read(image, kind, calibration=None):
        i = int(image[0, 0, 0])
        slow = 100.0 if i == 2 and reads.count(i) == 3 else 0.0
        reads.append(i)
        now[0] += (COSTS[i] + slow) / 1000
        return SimpleNamespace(dice=[object()] * (18 + i % 3), arena=None)

    frames = [np.full((4, 4, 3), i, np.uint8) for i in range(len(COSTS))]
    monkeypatch.setattr(bench_vision, "read", read)
    monkeypatch.setattr(bench_vision, "speed_frames", lambda kind, n=4: frames[:n])
    monkeypatch.setattr(bench_vision, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    return reads


def test_the_speed_is_the_mean_over_every_frame_of_its_median_read(clocked):
    got = bench_vision.speed("pips", repeats=5, frames=len(COSTS))
    assert got.mean == pytest.approx(np.mean(COSTS))  # the slow read is one of five: not counted
    assert got.slowest == pytest.approx(150.0)
    assert got.over == pytest.approx(3 / 6)  # 45, 35 and 150 ms
    assert got.found == pytest.approx(np.mean([18 + i % 3 for i in range(6)]))
    assert got.frames == 6
    assert clocked.count(5) == 1 + 5  # a first reading, then one a round


def test_the_first_fours_median_falls_between_their_cheap_and_dear_frames(clocked):
    """Sessions 11-66's figure: the median of every read of the first four frames, two of them
    cheap and two dear, lands between them (here (22 + 35) / 2): it says neither."""
    got = bench_vision.speed("pips", repeats=5, frames=len(COSTS))
    assert got.four == pytest.approx((22.0 + 35.0) / 2)
    assert "6 frames" in got.line() and "50% over 30 ms" in got.line()
