"""vision.Watcher: a die rolling slowly to a stop is motion, though two frames barely differ."""

from __future__ import annotations

import numpy as np

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
