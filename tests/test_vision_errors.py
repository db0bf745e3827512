"""bench/vision_errors.py: each die the reader gets wrong is put down to the step that lost it,
and listening to the reader's steps leaves the reader as it was."""

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from vision import read_learned  # noqa: E402
from vision.learned.classes import kind_classes  # noqa: E402
from vision.learned.detector import Found  # noqa: E402
from vision.readings import Die  # noqa: E402
from vision.synth.scene import TruthDie, benchmark_scene  # noqa: E402

vision_errors = pytest.importorskip("vision_errors")
NAMES = kind_classes("pips")


def _row(face=None, cocked=0.0):
    row = np.zeros(len(NAMES), np.float32)
    row[NAMES.index("cocked")] = cocked
    if face is not None:
        row[NAMES.index(face)] = 1.0 - cocked
    return row


def _heard(finds=(), read=((), ()), reports=()):
    return {
        "finds": list(finds),
        "read": (list(read[0]), np.array(read[1])),
        "reports": list(reports),
    }


def test_each_error_is_put_down_to_its_step():
    flat = TruthDie(3, 100.0, 100.0, 40.0, True, False)
    cocked = TruthDie(None, 100.0, 100.0, 40.0, True, True, tip=30.0)
    find = Found(102.0, 99.0, 40.0, 0.7, 0.2)
    why = vision_errors.why
    assert why(flat, Die(3, 101, 100, 40, confidence=0.95), _heard(), NAMES) is None
    assert why(flat, None, _heard(), NAMES)[0] == "flat die never found"
    far = Found(160.0, 100.0, 40.0, 0.7, 0.2)  # 1.5 sides off: another die's find
    assert why(flat, None, _heard([far]), NAMES)[0] == "flat die never found"
    merged = _heard([find], ([find], [_row(3)]), [Die(3, 102, 99, 40, confidence=0.9)])
    assert why(flat, None, merged, NAMES)[0] == "flat die merged into a neighbour's report"
    dropped = why(flat, None, _heard([find], ([find], [_row("none")])), NAMES)
    assert dropped == ("flat die found, dropped", "classifier none 1.00")
    asked = Die(None, 102, 99, 40, cocked=True, confidence=0.6)
    step, details = why(flat, asked, _heard([find], ([find], [_row(3, 0.6)])), NAMES)
    assert step == "flat die reported cocked" and "cocked odds 0.60" in details
    assert (
        why(flat, Die(5, 101, 100, 40, confidence=0.95), _heard(), NAMES)[0] == "flat die misread"
    )
    assert why(cocked, asked, _heard(), NAMES) is None
    assert why(cocked, None, _heard(), NAMES)[0] == "cocked die missed"
    read_flat = _heard([find], ([find], [_row(4, 0.02)]))
    step, details = why(cocked, Die(4, 102, 99, 40, confidence=0.95), read_flat, NAMES)
    assert step == "cocked die read as a face" and "cocked odds 0.02" in details


def test_listening_hears_the_readers_steps_and_leaves_it_as_it_was():
    if not read_learned.enabled("pips"):
        pytest.skip("the learned reader's networks are not there")
    before = (
        read_learned.find_dice,
        read_learned.look_outward,
        read_learned.ring_look,
        read_learned.one_per_die,
    )
    scene = benchmark_scene("pips", 3, seed=0)
    dice, heard, errors = vision_errors.errors_of(scene, "pips")
    assert (
        read_learned.find_dice,
        read_learned.look_outward,
        read_learned.ring_look,
        read_learned.one_per_die,
    ) == before
    assert len(heard["finds"]) >= len(dice) > 0
    assert len(heard["read"][0]) == len(heard["read"][1]) >= len(dice)
    assert "below" in heard  # the point the crops were turned about (None: the frame's centre)
    right = len(scene.dice) - sum(1 for at, *_ in errors if isinstance(at, TruthDie))
    assert right >= len(scene.dice) - 3  # scene 3 is read nearly all right (its errors: 1)


def test_the_verdict_of_a_perfect_find_names_what_the_rules_report():
    flat = TruthDie(3, 100.0, 100.0, 40.0, True, False)
    cocked = TruthDie(None, 100.0, 100.0, 40.0, True, True, tip=30.0)
    verdict = vision_errors.verdict
    assert verdict(flat, Die(3, 100, 100, 40, confidence=0.9)) == "right"
    assert verdict(flat, Die(5, 100, 100, 40, confidence=0.9)) == "misread"
    assert verdict(flat, Die(None, 100, 100, 40, cocked=True)) == "cocked"
    assert verdict(flat, None) == "no die"
    assert verdict(cocked, Die(4, 100, 100, 40, confidence=0.9)) == "a face"
    assert verdict(cocked, Die(None, 100, 100, 40, cocked=True)) == "cocked"


def test_a_die_read_right_is_read_right_from_its_truth_too():
    if not read_learned.enabled("pips"):
        pytest.skip("the learned reader's networks are not there")
    scene = benchmark_scene("pips", 3, seed=0)
    dice, heard, errors = vision_errors.errors_of(scene, "pips")
    lost = {id(at) for at, *_ in errors}
    right = [t for t in scene.dice if id(t) not in lost and not t.cocked]
    got = [vision_errors.at_truth(scene.image, t, "pips", heard.get("below")) for t in right]
    assert len(right) >= 5 and got.count("right") >= len(right) - 1
    other_face = replace(right[0], face=right[0].face % 6 + 1)  # the truth says another face
    assert vision_errors.at_truth(scene.image, other_face, "pips") != "right"


def test_reports_on_dice_the_truth_leaves_out_are_not_errors():
    """As bench_photoreal scores renders: a die cut by the frame or covered is left out of the
    truth, and what the reader says of it is neither right nor wrong."""
    if not read_learned.enabled("pips"):
        pytest.skip("the learned reader's networks are not there")
    scene = benchmark_scene("pips", 3, seed=0)
    _, _, errors = vision_errors.errors_of(scene, "pips")
    lost = {id(at) for at, *_ in errors}
    t = next(d for d in scene.dice if not d.cocked and id(d) not in lost)  # a die read right
    rest = replace(scene, dice=[d for d in scene.dice if d is not t])
    _, _, errors = vision_errors.errors_of(rest, "pips")
    assert any(
        step == "a face where no die lies" and abs(at.x - t.x) < t.size for at, step, _ in errors
    )
    left = [{"x": t.x, "y": t.y, "size": t.size, "why": "out of frame"}]
    _, _, errors = vision_errors.errors_of(rest, "pips", left)
    assert not any(
        abs(at.x - t.x) < 0.6 * t.size and abs(at.y - t.y) < 0.6 * t.size for at, *_ in errors
    )
