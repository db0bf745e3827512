"""vision.read's classical reader (the fallback when the learned models are absent, and with
ARBITRE_LEARNED=0) on drawn tables: every face of every kind, colours, sizes, frames, clusters,
cocked. The learned reader has its own tests (tests/test_read_learned.py)."""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_draw import FACES, cocked, match, scatter, table

from vision import Ellipse, read

COLOURS = {
    "pips": [("white", "black"), ("red", "white"), ("ivory", "black"), ("blue", "white")],
    "strike": [("black", "white")],
    "detrak": [("white", "black"), ("yellow", "black"), ("green", "white")],
}
CASES = [(k, d, m) for k, pairs in COLOURS.items() for d, m in pairs]


@pytest.fixture(autouse=True)
def classical(monkeypatch):
    monkeypatch.setenv("ARBITRE_LEARNED", "0")


@pytest.mark.parametrize("kind,die,marks", CASES)
@pytest.mark.parametrize("size", [24, 56])
def test_every_face_is_read(kind, die, marks, size):
    img = table(seed=size)
    faces = FACES[kind] * 2
    truth = scatter(img, faces, size, die, marks, seed=size)
    r = read(img, kind, arena="none")
    assert len(r.dice) == len(faces)
    for t, d in match(r, truth, size):
        assert d is not None, t
        assert (d.face, d.cocked) == (t["face"], False), t
        assert abs(d.size - size) < size * 0.2
        assert d.in_arena is True  # no arena: every die counts


def test_big_dice_in_a_big_frame():
    img = table(shape=(3024, 4032), seed=3)
    truth = scatter(img, [1, 2, 3, 4, 5, 6], 150, seed=3)
    r = read(img, "pips", arena="none")
    assert sorted(d.face for d in r.dice) == [1, 2, 3, 4, 5, 6]
    assert all(d is not None for _, d in match(r, truth, 150))


def test_small_dice_in_a_big_frame_are_looked_at_more_closely():
    img = table(shape=(1200, 1600), seed=4)
    truth = scatter(img, [2, 3, 4, 5, 6], 22, seed=4)
    r = read(img, "pips", arena="none")
    assert [d.face if d else None for _, d in match(r, truth, 22)] == [2, 3, 4, 5, 6]


def test_touching_dice_are_parted():
    img = table(seed=5)
    places = [(200, 200), (241, 200), (200, 241), (400, 300), (441, 300)]
    truth = scatter(img, [2, 3, 4, 5, 6], 40, places=places, turn=False)
    r = read(img, "pips", arena="none")
    assert [d.face if d else None for _, d in match(r, truth, 40)] == [2, 3, 4, 5, 6]


def test_a_cocked_die_is_flagged_and_not_read():
    img = table(seed=6)
    truth = scatter(img, [3, 4], 48, places=[(150, 150), (450, 300)])
    truth.append(cocked(img, 300, 350, 48, angle=20))
    r = read(img, "pips", arena="none")
    got = match(r, truth, 48)
    assert got[2][1] is not None and got[2][1].cocked and got[2][1].face is None
    assert [d.face for _, d in got[:2]] == [3, 4]


def test_the_arena_is_found_and_dice_are_in_or_out():
    img = table(shape=(720, 960), seed=7, arena=((480, 360), (700, 480), 12))
    places = [(480, 360), (300, 300), (80, 80), (900, 650), (700, 400)]
    truth = scatter(img, ["X", 2, 3, 4, 5], 36, "black", "white", places=places)
    r = read(img, "strike", arena="auto")
    assert r.arena is not None
    assert abs(r.arena.cx - 480) < 10 and abs(r.arena.a - 350) < 15 and abs(r.arena.b - 240) < 15
    inside = [d.in_arena for _, d in match(r, truth, 36)]
    assert inside == [True, True, False, False, True]
    assert [d.face for _, d in match(r, truth, 36)] == ["X", 2, 3, 4, 5]


def test_no_arena_on_a_plain_table():
    img = table(seed=8)
    scatter(img, [1, 2], 40)
    assert read(img, "pips", arena="auto").arena is None


def test_a_given_arena_decides_in_or_out():
    img = table(seed=9)
    scatter(img, [5, 6], 40, places=[(100, 100), (500, 300)])
    r = read(img, "pips", arena=Ellipse(100, 100, 60, 60, 0))
    assert [d.in_arena for d in sorted(r.dice, key=lambda d: d.x)] == [True, False]


def test_the_same_frame_reads_the_same():
    img = table(seed=10)
    scatter(img, FACES["detrak"], 44, seed=10)
    assert read(img, "detrak").to_json()["dice"] == read(img.copy(), "detrak").to_json()["dice"]


def test_an_empty_table_has_no_dice():
    assert read(table(seed=11), "pips").dice == ()


@pytest.mark.parametrize(
    "image,message",
    [
        (np.zeros((100, 100, 3), np.float32), "uint8"),
        (np.zeros((10, 10, 3), np.uint8), "too small"),
        (np.zeros((100, 100, 2), np.uint8), "channels"),
        ("frame.png", "uint8"),
    ],
)
def test_bad_images_say_what_was_expected(image, message):
    with pytest.raises(ValueError, match=message):
        read(image, "pips")


def test_a_bad_kind_names_the_kinds():
    with pytest.raises(ValueError, match="pips, strike, detrak"):
        read(table(), "knister")
