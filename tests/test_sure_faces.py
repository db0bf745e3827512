"""bench/sure_faces.py: each face read at 0.9 or more is counted right or wrong (and what lay
there), under the detector's cocked heat of the find nearest it."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from vision.learned.detector import Found  # noqa: E402
from vision.readings import Die  # noqa: E402
from vision.synth.scene import TruthDie  # noqa: E402

sure_faces = pytest.importorskip("sure_faces")


def test_what_lies_under_a_face():
    die = Die("slash", 100, 100, 40, confidence=0.95)
    assert sure_faces.outcome(die, None) == "nothing"
    assert sure_faces.outcome(die, TruthDie("slash", 100, 100, 40, True, False)) == "right"
    assert sure_faces.outcome(die, TruthDie("hash", 100, 100, 40, True, False)) == "misread"
    cocked = TruthDie(None, 100, 100, 40, True, True, tip=30.0)
    assert sure_faces.outcome(die, cocked) == "cocked"


def test_heat_bands_cover_every_heat():
    assert sure_faces.heat_band(None) == "no find"
    assert sure_faces.heat_band(0.05) == "0.0-0.2"
    assert sure_faces.heat_band(0.2) == "0.2-0.3"
    assert sure_faces.heat_band(0.39) == "0.3-0.4"
    assert sure_faces.heat_band(0.9) == ">= 0.4"


def test_only_sure_faces_count_each_under_its_nearest_find():
    truth = [
        TruthDie("slash", 100, 100, 40, True, False),
        TruthDie(None, 300, 100, 40, True, True, tip=30.0),
        TruthDie("circle", 500, 100, 40, True, False),
    ]
    dice = [
        Die("slash", 101, 100, 40, confidence=0.95),  # right, over a cool find
        Die("slash", 302, 101, 40, confidence=0.93),  # a cocked die's edge read as a slash
        Die("circle", 500, 100, 40, confidence=0.6),  # asked: not a sure face
        Die(None, 700, 100, 40, cocked=True, confidence=0.9),  # reported cocked: no face
        Die("hash", 900, 100, 40, confidence=0.91),  # where no die lies, no find near it
    ]
    finds = [
        Found(100, 100, 40, 0.9, 0.05),
        Found(310, 100, 40, 0.6, 0.35),
        Found(290, 100, 40, 0.6, 0.1),
    ]
    rows = sure_faces.sure_faces(dice, truth, finds)
    assert rows == [
        ("slash", "0.0-0.2", "right"),
        ("slash", "0.3-0.4", "cocked"),
        ("hash", "no find", "nothing"),
    ]
    lines = sure_faces.table(rows)
    assert any(line.split()[:5] == ["slash", "0.3-0.4", "0", "/", "1"] for line in lines)
    assert any(line.split()[:4] == ["0.0-0.2", "1", "/", "0"] for line in lines)
