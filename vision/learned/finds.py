"""A die the learned detector finds, and how its network's heat maps become such finds.

The network (models/dice.onnx) gives, per stride cell, a flat and a cocked heat for a top face's
centre, the log of its side and the centre's offset in the cell; a find is a 3 x 3 maximum of
heat PEAK or more, one per die. Apart from vision/learned/detector.py, which decides which looks
to make and which look's finds to keep, because every later look of the reader (vision/
later_looks.py, the ring, the refiner) passes these finds around without caring how they were
made.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

PEAK = 0.25  # heat a centre needs to be a die at all (the reader weighs it after)
SURE = 0.5  # heat of a sure find: the finds whose sizes choose the detector's scale


@dataclass(frozen=True)
class Found:
    """A die the detector sees, in frame pixels: top face centre and side, and its heat."""

    x: float
    y: float
    size: float
    flat_score: float  # the heat of its centre in the flat channel (0..1)
    cocked_score: float  # ...and in the cocked one

    @property
    def cocked(self) -> bool:
        return self.cocked_score > self.flat_score

    @property
    def score(self) -> float:
        return max(self.flat_score, self.cocked_score)


def decode(maps: np.ndarray, meta: dict, sx: float, sy: float, size: tuple[int, int]):
    """Peaks of the heat maps (3 x 3 local maxima above PEAK) turned into frame-pixel dice."""
    stride, ref = float(meta["stride"]), float(meta["size_ref"])
    heat = 1.0 / (1.0 + np.exp(-maps[:2]))
    both = heat.max(axis=0)
    peaks = (both >= cv2.dilate(both, np.ones((3, 3), np.uint8))) & (both >= PEAK)
    gh = -(-size[1] // int(stride))
    gw = -(-size[0] // int(stride))
    peaks[gh:], peaks[:, gw:] = False, False  # the padding
    out = []
    for i, j in zip(*np.nonzero(peaks), strict=True):
        side = ref * float(np.exp(maps[2, i, j]))
        x = (j + float(maps[3, i, j]) + 0.5) * stride - 0.5
        y = (i + float(maps[4, i, j]) + 0.5) * stride - 0.5
        out.append(
            Found(
                x=(x + 0.5) / sx - 0.5,
                y=(y + 0.5) / sy - 0.5,
                size=side / ((sx + sy) / 2),
                flat_score=float(heat[0, i, j]),
                cocked_score=float(heat[1, i, j]),
            )
        )
    return apart(out)


def apart(found: list[Found]) -> list[Found]:
    """One die per centre: of two peaks closer than half a die, the hotter stays."""
    keep: list[Found] = []  # (math.hypot below: np.hypot on floats is 5 times slower)
    for f in sorted(found, key=lambda f: -f.score):
        if all(math.hypot(f.x - k.x, f.y - k.y) >= 0.5 * min(f.size, k.size) for k in keep):
            keep.append(f)
    return keep
