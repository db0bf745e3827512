"""Faces too faint to be sure of: a small die whose marks barely stand out from its face (yellow
symbols on an ivory die, red pips on a purple one, seen at 20 px through blur) is read by the
classifier as surely as a clear one, and wrongly far more often. Such faces are asked.

Session 78 measured it on the benchmark's photos (Détrak seeds 313-316, pips 301-304, read
before the rule): of the faces read at 0.9 or more on dice of FAINT_PX or less whose marks'
lightness spans FAINT_SPREAD or less, 145 were right and 11 wrong (93 %, where the table
trusts 0.9 to mean 99 %); they were 1.1 % of the sure faces and held 11 of their 55 wrong.
Rule 247, on fresh seeds of every kind (pips 308-312, Détrak 320-324, Strike 308-312, the last
of each read as the table does): 323 sure faces more asked (1.1 %, 13 of them wrong), the sure
faces wrong 106 -> 93, nothing else changed (docs/vision-history.md, Session 78).

The classifier cannot say it: each crop's colours are normalised before it sees them
(crops.to_input), so a faint mark comes to it as strong as a clear one; the frame still tells.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.find_report import SMALL_SURE, asked_where
from vision.readings import Die

FAINT_PX = 24.0  # a die this small or smaller is looked at for faint marks...
FAINT_SPREAD = 28.0  # ...and its face asked when its marks' lightness spans this or less
# the disc looked at, in sides of the die around its reported centre: it holds part of every
# pip of a turned 2, 4 or 6 and none of the table around a die found a little off
RADIUS = 0.35
# the spread is between these percentiles (a pip of a 1 is about 6 % of the disc; a pixel of
# glare or noise is not a mark)
SPREAD_PERCENTILES = (2, 98)
MIN_PIXELS = 12  # fewer pixels of the die in the frame say nothing


def asked_when_faint(frame: np.ndarray, dice: list[Die]) -> list[Die]:
    """The dice, a face of a die of FAINT_PX or less whose marks are faint given SMALL_SURE at
    most: the table asks for it."""
    return asked_where(dice, lambda d: _faint(frame, d))


def _faint(frame: np.ndarray, d: Die) -> bool:
    if d.face is None or d.size > FAINT_PX or d.confidence <= SMALL_SURE:
        return False
    spread = lightness_spread(frame, d.x, d.y, RADIUS * d.size)
    return spread is not None and spread <= FAINT_SPREAD


def lightness_spread(frame: np.ndarray, x: float, y: float, radius: float) -> float | None:
    """How far apart the dark and light parts of the disc of `radius` px around (x, y) are in
    CIE L* (0-255, OpenCV's 8-bit Lab); None when too little of it lies in the frame."""
    h, w = frame.shape[:2]
    reach = math.ceil(radius)
    x0, y0 = max(0, round(x) - reach), max(0, round(y) - reach)
    x1, y1 = min(w, round(x) + reach + 1), min(h, round(y) + reach + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    rows, cols = np.mgrid[y0:y1, x0:x1]
    inside = (cols - x) ** 2 + (rows - y) ** 2 <= radius * radius
    if inside.sum() < MIN_PIXELS:
        return None
    patch = np.ascontiguousarray(frame[y0:y1, x0:x1])
    if patch.ndim == 2:
        patch = cv2.cvtColor(patch, cv2.COLOR_GRAY2BGR)
    lightness = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)[..., 0][inside]
    lo, hi = np.percentile(lightness, SPREAD_PERCENTILES)
    return float(hi - lo)
