"""Faces whose die shows its sides against the frame's law are asked (vision/learned/off_law.py)."""

import math
from dataclasses import replace

import numpy as np
import pytest

from vision import read
from vision.learned import axis, off_law
from vision.learned.off_law import ASKED, DOUBT, OFF, ask_off_law
from vision.readings import Die
from vision.synth.scene import benchmark_scene

BELOW, G = np.array([640.0, 480.0]), 1 / 1500  # the law of the fake frame's offsets
FRAME = np.zeros((960, 1280, 3), np.uint8)


def _dice() -> list[Die]:
    """Six flat faces read sure around the frame, and one more (index 6)."""
    places = [(100, 100), (1100, 150), (200, 800), (1150, 850), (640, 120), (300, 450), (900, 500)]
    return [Die(3, x, y, 40.0, confidence=0.97) for x, y in places]


def _lawful_offsets(frame, dice, kind=None):
    return np.array([G * (BELOW - (x, y)) for x, y, _ in dice], np.float32)


def test_a_doubted_face_off_the_law_is_asked_and_the_others_keep_their_confidence(monkeypatch):
    def offsets(frame, dice, kind=None):
        out = _lawful_offsets(frame, dice)
        out[6] += (0.0, OFF + 0.2)  # a side face where the law has none
        out[5] += (0.0, OFF + 0.2)  # ...and one the classifier does not doubt
        return out

    monkeypatch.setattr(axis, "offsets", offsets)
    odds = [0.01] * 5 + [DOUBT / 2, DOUBT + 0.05]
    out = ask_off_law(FRAME, _dice(), odds, "pips")
    assert [d.confidence for d in out] == [0.97] * 6 + [ASKED]
    assert [d.face for d in out] == [3] * 7  # asked, not called cocked
    assert not any(d.cocked for d in out)


def _one_off(by: float, others_off: float = 0.0):
    """Offsets on the law, die 6 `by` sides off it and dice 0-4 `others_off` off it."""

    def offsets(frame, dice, kind=None):
        out = _lawful_offsets(frame, dice)
        out[6] += (0.0, by)
        for i in range(5):
            out[i] += (others_off * (-1) ** i, 0.0)
        return out

    return offsets


def test_a_doubted_strike_face_far_off_a_close_law_is_reported_cocked(monkeypatch):
    monkeypatch.setattr(axis, "offsets", _one_off(OFF + 0.2))
    odds = [0.01] * 6 + [DOUBT + 0.05]
    out = ask_off_law(FRAME, _dice(), odds, "strike")
    assert out[6].cocked and out[6].face is None and out[6].confidence == ASKED
    assert not any(d.cocked for d in out[:6])
    assert [d.confidence for d in out[:6]] == [0.97] * 6
    # the same face, in a kind not in TYPICAL, is asked
    asked = ask_off_law(FRAME, _dice(), odds, "pips")[6]
    assert (asked.face, asked.cocked, asked.confidence) == (3, False, ASKED)


def test_a_face_no_further_off_than_typical_of_its_frame_is_asked_not_called_cocked(monkeypatch):
    # the frame's flat faces lie 0.25 sides off the law: 0.55 is not TYPICAL times that
    monkeypatch.setattr(axis, "offsets", _one_off(OFF + 0.2, others_off=0.25))
    out = ask_off_law(FRAME, _dice(), [0.01] * 6 + [DOUBT + 0.05], "strike")
    assert off_law.TYPICAL["strike"] * 0.25 > OFF + 0.2
    assert (out[6].face, out[6].cocked, out[6].confidence) == (3, False, ASKED)


def test_with_too_few_other_flat_faces_a_far_face_is_asked_not_called_cocked(monkeypatch):
    def offsets(frame, dice, kind=None):
        out = _lawful_offsets(frame, dice)
        out[-1] += (0.0, OFF + 0.2)
        return out

    monkeypatch.setattr(axis, "offsets", offsets)
    few = _dice()[4:]  # two flat faces besides the doubted one
    assert len(few) - 1 < off_law.MIN_OTHERS
    out = ask_off_law(FRAME, few, [0.01, 0.01, DOUBT + 0.05], "strike")
    assert (out[2].face, out[2].cocked, out[2].confidence) == (3, False, ASKED)


def _with_a_cocked_report(flat: int = 6) -> list[Die]:
    """`flat` flat faces read sure, then a die reported cocked (the last one)."""
    dice = _dice()
    return dice[:flat] + [replace(dice[6], face=None, cocked=True, confidence=0.3)]


def test_a_pips_die_reported_cocked_on_a_close_law_is_given_back_its_face_asked(monkeypatch):
    monkeypatch.setattr(axis, "offsets", _lawful_offsets)
    low, high = off_law.GIVE_BACK["pips"]
    odds, best = [0.01] * 6 + [low + 0.05], [3] * 6 + [5]
    out = ask_off_law(FRAME, _with_a_cocked_report(), odds, "pips", best)
    assert (out[6].face, out[6].cocked, out[6].confidence) == (5, False, ASKED)
    assert out[:6] == _dice()[:6]
    # the classifier sure enough of "cocked", another kind, or too few flat faces: still cocked
    surer = ask_off_law(FRAME, _with_a_cocked_report(), [0.01] * 6 + [high], "pips", best)
    strike = ask_off_law(FRAME, _with_a_cocked_report(), odds, "strike", best)
    few = off_law.ON_LAW_FLAT - 1
    fewer = ask_off_law(FRAME, _with_a_cocked_report(few), odds[-few - 1 :], "pips", best)
    assert surer[6].cocked and strike[6].cocked and fewer[-1].cocked


def test_a_pips_die_reported_cocked_off_the_law_stays_cocked(monkeypatch):
    monkeypatch.setattr(axis, "offsets", _one_off(off_law.ON_LAW + 0.1))
    odds = [0.01] * 6 + [off_law.GIVE_BACK["pips"][0] + 0.05]
    out = ask_off_law(FRAME, _with_a_cocked_report(), odds, "pips", [3] * 7)
    assert out[6].cocked and out[6].face is None


def test_a_doubted_face_on_the_law_keeps_its_confidence(monkeypatch):
    monkeypatch.setattr(axis, "offsets", _lawful_offsets)
    out = ask_off_law(FRAME, _dice(), [0.01] * 6 + [0.3], "pips")
    assert out[6].confidence == 0.97


def test_with_too_few_flat_dice_for_a_law_the_offset_itself_is_measured(monkeypatch):
    def offsets(frame, dice, kind=None):
        return np.array([(0.05, 0.0), (0.0, OFF + 0.1)], np.float32)[: len(dice)]

    monkeypatch.setattr(axis, "offsets", offsets)
    dice = _dice()[:2]
    assert np.allclose(off_law.off_law(FRAME, dice, "pips"), [0.05, OFF + 0.1])
    out = ask_off_law(FRAME, dice, [0.2, 0.2], "pips")
    assert [d.confidence for d in out] == [0.97, ASKED]


def test_a_frame_with_no_doubted_face_does_not_run_the_axis_network(monkeypatch):
    def offsets(*_):
        raise AssertionError("the axis network ran")

    monkeypatch.setattr(axis, "offsets", offsets)
    dice = _dice() + [Die(None, 50.0, 50.0, 40.0, cocked=True, confidence=0.8)]
    assert ask_off_law(FRAME, dice, [0.05] * 7 + [0.9], "strike") == dice


@pytest.mark.skipif(not axis.available("strike"), reason="the axis network is not in models/")
def test_a_cocked_strike_die_the_classifier_reads_as_a_sure_face_is_reported_cocked_instead():
    # Seed 3's Strike scene 8 (OpenCV 5.0, constraints.txt; faces-strike of session 64, c187): a
    # die tipped 60 degrees read as a 4 at 0.91 without the check, reported cocked with it: the
    # frame's other flat faces fit the law far closer than it does. (Scene 8 was this test's scene
    # before session 45's network too; from session 45 to 63 it was scene 2, whose die tipped 64
    # degrees c187 reads as a 2 at 0.96 with its odds of "cocked" under DOUBT, so that the check
    # does not look at it; docs/vision-history.md, "Session 45" and "Session 64".)
    scene = benchmark_scene("strike", 8, seed=3)
    cocked = [t for t in scene.dice if t.cocked]
    dice = read(scene.image, "strike").dice
    on_cocked = [d for d in dice for t in cocked if math.hypot(d.x - t.x, d.y - t.y) < 0.6 * t.size]
    assert on_cocked, "the scene no longer shows the die this test is about"
    assert all(d.cocked for d in on_cocked)
    flat_sure = [d for d in dice if d.face is not None and d.confidence >= 0.9]
    assert len(flat_sure) >= 5  # the frame's flat dice are still read sure
