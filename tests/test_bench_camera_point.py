"""bench/bench_camera_point.py's report, on made-up counts: the two readings side by side, how far
the learned points lie from the truth, and the errors by tilt (a camera at 10 degrees is the
table's too). The readings themselves are the tool's to measure."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from bench_camera_point import point_error, report  # noqa: E402


def _counts(fp, fn):
    return {
        "fp": fp,
        "fn": fn,
        "cocked": 10,
        "cocked_flagged": 9,
        "sure_total": 100,
        "sure_right": 98,
        "cocked_unasked": 1,
    }


def test_the_report_sets_the_learned_point_against_the_centre_by_tilt():
    rows = [
        {"tilt": 2.0, "point_error": 0.01, "centre": 1, "learned": 2},
        {"tilt": 7.0, "point_error": 0.03, "centre": 3, "learned": 1},
        {"tilt": 10.0, "point_error": None, "centre": 2, "learned": 2},
    ]
    lines = report(
        "pips", {"counts": {"centre": _counts(4, 2), "learned": _counts(3, 2)}, "rows": rows}
    )
    assert lines[0].startswith("pips centre: errors 6, cocked 9 / 10, sure faces wrong 2 of 100")
    assert lines[1].startswith("pips learned: errors 5,")
    assert "a point learned for 2 of 3 cameras, off the truth by 0.020" in lines[2]
    assert lines[3].endswith("1 scenes, errors centre 1, learned 2")
    assert lines[4].endswith("2 scenes, errors centre 5, learned 3")


def test_the_point_error_is_in_frame_lengths():
    scene = SimpleNamespace(image=np.zeros((960, 1280, 3), np.uint8), below=(700.0, 480.0))
    assert point_error((700.0 + 96.0, 480.0 + 72.0), scene) == 0.09375
    assert point_error(None, scene) is None
