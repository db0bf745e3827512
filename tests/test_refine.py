"""The refiner's geometry (vision/learned/refine_data.py, refine.py): the target it is taught
points at the die in the crop it sees, and the reader turns that target back onto the frame."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.learned import refine
from vision.learned.crops import INPUT
from vision.learned.detector import Found
from vision.learned.refine_data import (
    FAR_SHIFT,
    REFINE_FACTOR,
    crop_and_target,
    drawn_finds,
    matched,
)

DIE = {"x": 470.0, "y": 130.0, "size": 40.0}  # far up right of a 640 x 480 frame: turned a lot


def _frame_with_die():
    frame = np.full((480, 640, 3), 30, np.uint8)
    half = DIE["size"] / 2
    x0, y0 = round(DIE["x"] - half), round(DIE["y"] - half)
    frame[y0 : y0 + round(DIE["size"]), x0 : x0 + round(DIE["size"])] = 230
    return frame


def _bright_centre(crop) -> tuple[float, float]:
    m = cv2.moments((crop[..., :3].mean(axis=2) > 130).astype(np.uint8))
    return m["m10"] / m["m00"], m["m01"] / m["m00"]


@pytest.mark.parametrize("off", [(12.0, -9.0), (-15.0, 4.0), (0.0, 18.0)])
def test_the_target_points_at_the_die_in_the_crop(off):
    frame = _frame_with_die()
    find = (DIE["x"] + off[0], DIE["y"] + off[1], 36.0)
    crop, target = crop_and_target(frame, find, DIE, np.random.default_rng(3))
    px = INPUT / (REFINE_FACTOR * find[2])  # crop pixels a frame pixel
    centre = (INPUT - 1) / 2
    want = (centre + target[0] * find[2] * px, centre + target[1] * find[2] * px)
    assert math.dist(_bright_centre(crop), want) < 0.6  # crop pixels
    assert math.isclose(math.exp(target[2]) * find[2], DIE["size"], rel_tol=1e-5)


class _Answers:
    """A stand-in network that answers each crop with a given (dx, dy, log size)."""

    def __init__(self, rows):
        self.rows = np.asarray(rows, np.float32)

    def setInput(self, blob):  # noqa: N802 (OpenCV's name)
        assert blob.shape[0] == len(self.rows)

    def forward(self):
        return self.rows


def test_the_reader_turns_the_target_back_onto_the_frame(monkeypatch):
    """What the refiner was taught for a find, read back, lands the find on its die."""
    frame = _frame_with_die()
    finds = [(DIE["x"] + 14, DIE["y"] - 6, 35.0), (DIE["x"] - 9, DIE["y"] + 16, 46.0)]
    rows = [crop_and_target(frame, f, DIE, _NoTurn())[1] for f in finds]
    monkeypatch.setattr(refine, "_net", lambda path: _Answers(rows))
    moved = refine.refined(frame, [Found(x, y, s, 0.2, 0.6) for x, y, s in finds])
    for m in moved:
        assert math.dist((m.x, m.y), (DIE["x"], DIE["y"])) < 1e-3
        assert math.isclose(m.size, DIE["size"], rel_tol=1e-5)
        assert (m.flat_score, m.cocked_score) == (0.2, 0.6)  # the detector's heat kept


class _NoTurn:
    """A generator whose draws are all the middle of their range: no extra turn."""

    def uniform(self, lo, hi, size=None):
        return (lo + hi) / 2


def test_matched_finds_pair_with_the_nearest_die_within_reach():
    dice = [{"x": 100.0, "y": 100.0, "size": 30.0}, {"x": 131.0, "y": 100.0, "size": 30.0}]
    finds = [(112.0, 100.0, 30.0), (118.0, 101.0, 30.0), (100.0, 130.0, 30.0)]
    pairs = matched(finds, dice)
    assert [(p[0], p[3]["x"]) for p in pairs] == [(112.0, 100.0), (118.0, 131.0)]


def test_drawn_finds_stay_within_their_reach():
    dice = [{"x": 200.0, "y": 150.0, "size": 40.0}]
    out = drawn_finds(dice, np.random.default_rng(0), 400)
    offs = [math.dist((x, y), (200.0, 150.0)) / 40.0 for x, y, _, _ in out]
    assert max(offs) <= FAR_SHIFT and min(offs) < 0.1 and np.median(offs) > 0.25


def test_rendered_scenes_give_the_refiner_crops_of_each_die_in_view():
    """The renders' crops are cut as the synthetic photos' are: every die well in view drawn
    about twice (drawn=2) and every detector find near a die, each target pointing at its die
    within a find's reach; the dice the truth leaves out give none."""
    import json
    from pathlib import Path

    from vision.learned.data import MIN_VISIBLE
    from vision.learned.refine_data import SCALE, rendered_refine_crops

    here = Path(__file__).parent / "photoreal"
    records = [json.loads(p.read_text()) for p in sorted(here.glob("*_[0-9][0-9][0-9].json"))]
    in_view = sum(d.get("visible", 1.0) >= MIN_VISIBLE for r in records for d in r["dice"])
    crops, targets = rendered_refine_crops([here], seed=5, drawn=2)
    assert len(crops) == len(targets) and len(crops) >= 2 * in_view
    assert crops.shape[1:] == (INPUT, INPUT, 4)
    assert np.linalg.norm(targets[:, :2], axis=1).max() <= FAR_SHIFT / SCALE[0] + 1e-6
    again, _ = rendered_refine_crops([here], seed=5, drawn=2)
    assert np.array_equal(crops, again)
