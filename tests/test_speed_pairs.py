"""bench/speed_pairs.py's arithmetic, on made-up runs: the order the trees run in and the
verdict. The times themselves are the tool's to measure, not a test's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from speed_pairs import order, report, verdict  # noqa: E402


def _run(committed: float, candidate: float) -> dict:
    rows = {"faces": 20.0, "dice": 1.0}
    kpx = {"faces": 20.48, "dice": 110.592}
    return {
        t: {"mean": ms, "slowest": 2 * ms, "over": 0.5, "rows": rows, "kpx": kpx}
        for t, ms in (("committed", committed), ("candidate", candidate))
    }


def test_the_trees_take_turns_going_first():
    assert [order(i)[0] for i in range(4)] == ["committed", "candidate"] * 2
    assert all(sorted(order(i)) == ["candidate", "committed"] for i in range(4))


def test_the_verdict_counts_the_pairs_won_and_takes_the_median_ratio():
    runs = [_run(40.0, 30.0), _run(30.0, 33.0), _run(50.0, 40.0)]
    v = verdict(runs)
    assert (v["faster"], v["pairs"]) == (2, 3)
    assert v["ratio"] == pytest.approx(0.8)  # of 0.75, 1.1 and 0.8


def test_the_report_gives_each_pair_the_verdict_and_the_crops_a_frame():
    lines = report("strike", "photo", [_run(40.0, 30.0), _run(30.0, 33.0)])
    assert "| 1 | 40.0 (80) | 30.0 (60) |" in lines
    assert "| 2 | 30.0 (60) | 33.0 (66) |" in lines
    assert any(line.startswith("candidate faster in 1 of 2 pairs") for line in lines)
    assert "committed: crops (input rows) a frame: dice 1.0, faces 20.0" in lines
    assert "candidate: input kilopixels a frame: dice 111, faces 20" in lines
