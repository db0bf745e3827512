"""vision.second_opinion: how the network's reading of a face is weighed against the reader's."""

from __future__ import annotations

import pytest

from vision.readings import Die
from vision.second_opinion import enabled, weigh


def _die(face, conf=0.8, cocked=False):
    return Die(face, 10.0, 10.0, 40.0, True, cocked, conf)


def test_agreeing_readings_keep_the_surer_confidence():
    assert weigh(_die(3, 0.8), 3, 0.97).confidence == pytest.approx(0.97)
    assert weigh(_die(3, 0.95), 3, 0.6).confidence == pytest.approx(0.95)


def test_disagreeing_readings_keep_the_surer_face_with_the_lesser_confidence():
    d = weigh(_die(3, 0.8), 5, 0.97)
    assert d.face == 5 and d.confidence == pytest.approx(0.8)
    d = weigh(_die(3, 0.92), 5, 0.7)
    assert d.face == 3 and d.confidence == pytest.approx(0.7)


def test_an_unread_face_stays_unread_and_no_die_lowers_a_read_one():
    assert weigh(_die(None, 0.0), 4, 0.93).face is None
    d = weigh(_die(2, 0.95), None, 0.9)
    assert d.face == 2 and d.confidence == pytest.approx(0.1)


def test_the_switch_turns_it_off(monkeypatch):
    monkeypatch.setenv("ARBITRE_LEARNED", "0")
    assert not enabled("pips")
