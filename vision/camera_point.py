"""Where the table's camera looks from: the point below it, learned from the throws it settles on.

The table's frames are read knowing the dice's size (the watcher's hint, or `arbitre calibrate`),
and such a read does not search for the point straight below the camera as a photo's does: it
costs 50-130 ms, and one frame's few dice place it poorly. Each crop is then turned about the
frame's centre. A camera mounted 5-10 degrees off vertical (a lamp arm, a phone holder) has its
point 0.07-0.14 frame lengths from the centre, and the dice it sees show their side faces as seen
from there: read about the centre, a flat die near the edge looks tipped and a cocked one flat.

The camera does not move between throws, so the point is one number for every frame: each settled
reading's sure flat dice add their axis offsets (vision/learned/axis.py: where each die's bottom
face lies from its top face, one law over the frame), and the pool of the last POOL throws' dice
(or more, to hold KEEP dice) is fitted at once. Throws, not dice alone: Knister's two dice a
throw would keep a camera knocked askew in a pool of 240 dice for 120 throws, the whole game; 30
such throws forget it in about 15. The point is given from LEAST dice: fitted from 12 sure dice
it lay 0.030 frame lengths from the truth (median, pips), from 24 0.020, from 40 0.016, from 60
0.015; rule 221's gate, whose points lay 0.017 off, is what it was judged on.

Only pips' tables learn it (KINDS). Over three fresh samples of the table's scenes (tilted 10
degrees or less) pips read 154 -> 149 errors, 581 -> 588 cocked dice flagged and 49 -> 35 sure
faces wrong about the learned point, its losses where the camera looks nearly straight down.
Strike and Détrak met rule 221 on their first sample and not on their second (33 -> 34 and 93 ->
102 errors over both), and read about the centre (docs/vision-history.md, session 72).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import numpy as np

from vision.learned import axis
from vision.readings import Readings

SURE = 0.9  # the faces whose dice teach the point (the table records them unasked)
POOL = 20  # the throws kept, the last ones (a camera knocked askew is forgotten as they pass)...
KEEP = 60  # ...or as many more as hold this many dice (30 throws of Knister)
LEAST = 40  # dice pooled before a point is given: 20 throws of Knister
KINDS = ("pips",)  # the dice kinds whose tables learn it (rules 221-222, session 72)


class CameraPoint:
    """The point below one camera, in the pixels of the frames it is taught with."""

    def __init__(self, kind: str, offsets: Callable = axis.offsets) -> None:
        self.kind = kind
        self._offsets = offsets
        self._throws: deque = deque()  # each throw's (x, y, offset x, offset y)
        self._size: tuple[int, int] | None = None
        self.point: tuple[float, float] | None = None

    def learn(self, frame: np.ndarray, readings: Readings) -> None:
        """Adds the sure flat dice of a settled reading of `frame`, and fits the point again
        (None while the pool is under LEAST dice or its offsets do not agree on one)."""
        if self.kind not in KINDS:
            return
        h, w = frame.shape[:2]
        if self._size != (w, h):  # another camera, or another resolution: start again
            self._throws.clear()
            self._size, self.point = (w, h), None
        flat = [d for d in readings.dice if _teaches(d)]
        if not flat or not axis.available(self.kind):
            return
        got = self._offsets(frame, [(d.x, d.y, d.size) for d in flat], self.kind)
        throw = [(d.x, d.y, float(o[0]), float(o[1])) for d, o in zip(flat, got, strict=True)]
        self._throws.append(throw)
        held = sum(map(len, self._throws))
        while len(self._throws) > POOL and held - len(self._throws[0]) >= KEEP:
            held -= len(self._throws.popleft())
        pool = np.array([die for each in self._throws for die in each], float)
        if len(pool) >= LEAST:
            self.point = axis.point_below(pool[:, :2], pool[:, 2:], frame.shape, kind=self.kind)

    def at(self, size: tuple[int, int]) -> tuple[float, float] | None:
        """The point, for a frame of `size` (w, h) taken as the ones it was learned from."""
        return self.point if size == self._size else None


def _teaches(d) -> bool:
    return d.face is not None and not d.cocked and d.confidence >= SURE
