"""Calibrating the table from one frame: the arena and the dice's size, for every later reading.

The arena is the one oval found (vision/arena.py). The dice's size is the median side of the flat
dice in the frame; in an empty arena there are none, so it is taken from the arena itself: the
Strike box's oval is about 250 mm long and its dice 16 mm (DIE_PER_ARENA_AXIS, a measured choice
that docs/vision.md states).
"""

from __future__ import annotations

import numpy as np

from vision.arena import find_arena
from vision.calibration import Calibration
from vision.read import read
from vision.readings import check_kind

DIE_PER_ARENA_AXIS = 16.0 / 125.0  # die side over the arena's long semi-axis (Strike box)


def calibrate(frame: np.ndarray, dice: str = "strike") -> Calibration:
    """The calibration of this frame; ValueError when it shows neither an arena nor a die."""
    check_kind(dice)
    arena = find_arena(frame)
    readings = read(frame, dice, arena=arena or "none")
    flat = sorted(d.size for d in readings.dice if not d.cocked and d.face is not None)
    if flat:
        size: float | None = float(np.median(flat))
    elif arena is not None and dice == "strike":
        size = arena.a * DIE_PER_ARENA_AXIS
    else:
        size = None
    if arena is None and size is None:
        raise ValueError("neither an arena nor a readable die in this frame: nothing to calibrate")
    h, w = frame.shape[:2]
    return Calibration((w, h), arena, size)
