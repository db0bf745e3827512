"""vision.Watcher: a die rolling slowly to a stop is motion, though two frames barely differ."""

from __future__ import annotations

import numpy as np
import pytest

from vision import Die, Readings, Watcher


def _frame(x: int) -> np.ndarray:
    frame = np.full((120, 160, 3), 40, np.uint8)
    frame[50:66, x : x + 16] = 70  # a dim die: one pixel of drift changes little
    return frame


def _reader(frame, **kw) -> Readings:
    return Readings("pips", (Die(3, 0.0, 0.0, 16.0, True, False, 0.99),), None, 1.0, (160, 120))


def test_a_slow_drift_is_not_taken_for_stillness():
    w = Watcher("pips", arena="none", settle_s=0.18, votes=3, reader=_reader)
    creeping = [_frame(40 + i) for i in range(30)]  # one pixel a frame, for a second
    events = [w.feed(f, i / 30) for i, f in enumerate(creeping)]
    assert not any(e is not None and e.kind == "settled" for e in events)
    still = [w.feed(creeping[-1], 1 + i / 30) for i in range(1, 10)]
    settled = [e for e in still if e is not None and e.kind == "settled"]
    assert len(settled) == 1, "once the die stops, the scene settles"


def _scripted(faces):
    faces = iter(faces)

    def reader(frame, **kw):
        return Readings("pips", (Die(next(faces), 50.0, 50.0, 16.0, True, False, 0.99),), None, 1.0)

    return reader


@pytest.mark.parametrize(
    "agree, faces, reads, face",
    [
        (2, [3, 3, 3, 3, 3], 3, 3),  # the last two agree when the window ends: settle at once
        (None, [3, 3, 3, 3, 3], 4, 3),  # without `agree`, the frame that ends it is read too
        (2, [3, 3, 5, 3, 3], 4, 3),  # the last two disagree: one more reading, then the vote
    ],
)
def test_agreeing_readings_settle_without_one_more_read(agree, faces, reads, face):
    reader = _scripted(faces)
    calls = []
    w = Watcher(
        "pips", arena="none", settle_s=0.2, votes=3, agree=agree,
        reader=lambda f, **kw: calls.append(1) or reader(f, **kw),
    )  # fmt: skip
    w.feed(_frame(10), 0.0)
    w.feed(_frame(60), 0.1)  # moved: the still window starts here
    events = [w.feed(_frame(60), 0.1 + i * 0.05) for i in range(1, 6)]
    settled = [e for e in events if e is not None]
    assert len(settled) == 1 and len(calls) == reads
    assert settled[0].readings.dice[0].face == face
