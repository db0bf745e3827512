"""bench/scoring.py's Tally: face F1 over issue 5's dice sizes alone, beside F1 over all."""

import sys
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from scoring import Tally, f1_in_range  # noqa: E402


def _truth(x, size, face="circle", cocked=False):
    return SimpleNamespace(
        x=x, y=100.0, size=size, face=face, cocked=cocked, tip=40.0, in_arena=None
    )


def _read(x, size, face, cocked=False):
    return SimpleNamespace(x=x, y=100.0, size=size, face=face, cocked=cocked, confidence=0.95)


def test_dice_under_18_px_are_left_out_of_the_in_range_f1_only():
    truth = [_truth(100, 40), _truth(300, 40), _truth(500, 14), _truth(700, 12, cocked=True)]
    dice = [
        _read(100, 40, "circle"),  # right
        _read(300, 40, "slash"),  # misread: fp + fn
        _read(700, 12, "hash"),  # a face on a tiny cocked die: fp, outside
    ]  # the 14 px die is missed: fn, outside
    t = Tally()
    t.scene(SimpleNamespace(dice=truth, conditions={}), SimpleNamespace(dice=dice))
    c = t.c
    assert (c["tp"], c["fp"], c["fn"]) == (1, 2, 2)
    assert (c["tp outside"], c["fp outside"], c["fn outside"]) == (0, 1, 1)
    assert 2 * c["tp"] / (2 * c["tp"] + c["fp"] + c["fn"]) == 2 / 6
    assert f1_in_range(c) == 2 / 4  # tp 1, fp 1, fn 1 among the 40 px dice


def test_a_cocked_die_read_as_a_sure_face_is_counted_as_recorded_unasked():
    """A face read on a cocked die at 0.9 or more goes into the record without a question; one
    under 0.9 is asked, and one reported cocked is flagged: only the first is counted."""
    truth = [
        _truth(100, 40, cocked=True),
        _truth(300, 40, cocked=True),
        _truth(500, 40, cocked=True),
    ]
    asked = SimpleNamespace(**{**vars(_read(300, 40, "hash")), "confidence": 0.85})
    dice = [_read(100, 40, "hash"), asked, _read(500, 40, None, cocked=True)]
    t = Tally()
    assert t.c["cocked_unasked"] == 0 and "cocked_unasked" in t.c  # new counts say they count it
    t.scene(SimpleNamespace(dice=truth, conditions={}), SimpleNamespace(dice=dice))
    assert (t.c["cocked"], t.c["cocked_flagged"], t.c["cocked_unasked"]) == (3, 1, 1)
