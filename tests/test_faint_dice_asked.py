"""Rule 247: the face of a small die whose marks barely stand out is asked (vision/faint.py).

Such faces read at 0.9 or more were right 93 % of the time on the read seeds, where the table
trusts 0.9 to mean 99 %; the classifier sees every crop with its colours normalised, so only the
frame can tell a faint mark from a clear one.
"""

from __future__ import annotations

import numpy as np
from test_vision_draw import FACES, scatter, table

from vision import faint, read
from vision.calibration import Calibration
from vision.faint import FAINT_PX, FAINT_SPREAD, asked_when_faint, lightness_spread
from vision.find_report import SMALL_SURE
from vision.readings import Die


def _face_patch(ink: int, paper: int = 200, side: int = 60) -> np.ndarray:
    """A grey frame with a square die at (30, 30) holding one mark of lightness `ink`."""
    img = np.full((side, side, 3), paper, np.uint8)
    img[26:34, 26:34] = ink
    return img


def test_the_spread_is_the_distance_between_the_marks_and_the_face():
    assert lightness_spread(np.full((40, 40, 3), 128, np.uint8), 20, 20, 12) == 0.0
    bright = lightness_spread(_face_patch(0), 30, 30, 14)
    faint = lightness_spread(_face_patch(185), 30, 30, 14)
    assert bright > 150 and faint < FAINT_SPREAD
    # (a grey frame and a square that leaves the frame)
    assert lightness_spread(np.full((40, 40), 90, np.uint8), 38, 2, 12) == 0.0
    assert lightness_spread(np.zeros((40, 40, 3), np.uint8), 80, 80, 12) is None


def test_only_sure_faces_of_small_faint_dice_lose_their_sureness():
    frame = np.hstack([_face_patch(185), _face_patch(0)])  # faint at x=30, clear at x=90
    faint = Die("hash", 30, 30, FAINT_PX - 4, confidence=0.95)
    clear = Die("hash", 90, 30, FAINT_PX - 4, confidence=0.95)
    big = Die("hash", 30, 30, FAINT_PX + 1, confidence=0.95)
    unsure = Die("hash", 30, 30, FAINT_PX - 4, confidence=0.6)
    cocked = Die(None, 30, 30, FAINT_PX - 4, cocked=True, confidence=0.95)
    outside = Die("hash", 500, 30, FAINT_PX - 4, confidence=0.95)
    dice = [faint, clear, big, unsure, cocked, outside]
    assert asked_when_faint(frame, dice) == [
        Die("hash", 30, 30, FAINT_PX - 4, confidence=SMALL_SURE),
        clear,
        big,
        unsure,
        cocked,
        outside,
    ]


def _faces_read(die: str, marks: str) -> list[Die]:
    """Twelve drawn pips dice of 20 px, read with the table's calibration."""
    img = table(shape=(480, 640), seed=3)
    scatter(img, FACES["pips"] * 2, 20, die, marks, seed=3)
    dice = read(img, "pips", Calibration((640, 480), None, 20.0), arena="none").dice
    return [d for d in dice if d.face is not None]


def test_the_table_asks_for_small_ivory_dice_with_white_pips(monkeypatch):
    """The reader finds half of them and reads some at 0.9 or more; the rule asks them all."""
    asked = _faces_read("ivory", "white")
    assert len(asked) >= 5
    assert all(d.confidence <= SMALL_SURE for d in asked)
    monkeypatch.setattr(faint, "FAINT_SPREAD", -1.0)  # (no mark is that faint)
    assert sum(d.confidence >= 0.9 for d in _faces_read("ivory", "white")) >= 2


def test_the_table_keeps_small_ivory_dice_with_black_pips_sure():
    faces = _faces_read("ivory", "black")
    assert len(faces) == 12
    assert all(d.confidence >= 0.9 for d in faces)
