"""`read(frame, dice, calibration, arena)`: every die in one frame, with its face and confidence.

The steps: find the arena (vision/arena.py), find die-shaped blobs (vision/detect.py), call a blob
cocked when its outline is not the square of a die lying flat, and otherwise read the marks of its
top face from an upright patch cut out of the full-resolution frame (vision/marks.py,
vision/faces.py). Nothing is loaded from disk, so reading many frames costs nothing extra.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision.arena import find_arena
from vision.calibration import Calibration
from vision.detect import Candidate, Prepared, find_candidates
from vision.faces import read_face
from vision.marks import PATCH, find_marks
from vision.readings import Die, Ellipse, Readings, check_kind

COCKED_ASPECT = 1.22  # a flat die's outline is a square; a die on an edge shows 1 x 1.4
COCKED_SIZE = 1.3  # an outline this much larger than a typical die is not a flat top face
SMALL = 0.55  # blobs smaller than this share of a typical die are not dice (pips, crumbs)


def read(
    image: np.ndarray,
    dice: str = "pips",
    calibration: Calibration | None = None,
    arena: str | Ellipse | None = "auto",
) -> Readings:
    """Read one BGR frame. arena: "auto" (calibrated, else found), "none", or an Ellipse."""
    start = time.perf_counter()
    kind = check_kind(dice)
    frame = _as_bgr(image)
    h, w = frame.shape[:2]
    cal = calibration.for_frame(w, h) if calibration else None
    die_size = cal.die_size if cal else None
    candidates, prep = find_candidates(frame, die_size)
    ellipse = _arena(frame, arena, cal, prep)
    side = die_size or _typical(candidates)
    found = [_die(frame, c, kind, side, ellipse) for c in candidates]
    found = [d for d in found if d is not None]
    found.sort(key=lambda d: (round(d.y / max(side or 1.0, 1.0)), d.x))
    ms = (time.perf_counter() - start) * 1000.0
    return Readings(kind, tuple(found), ellipse, ms, (w, h))


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise ValueError("expected an image as a uint8 numpy array (H x W x 3 BGR, or grey)")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise ValueError(f"expected 1, 3 or 4 channels, not {image.shape[2]}")
    if min(image.shape[:2]) < 32:
        raise ValueError(f"image too small to hold dice: {image.shape[1]}x{image.shape[0]}")
    return image


def _arena(frame: np.ndarray, arena, cal: Calibration | None, prep: Prepared) -> Ellipse | None:
    if isinstance(arena, Ellipse):
        return arena
    if arena in (None, "none"):
        return None
    if arena != "auto":
        raise ValueError(f"arena must be 'auto', 'none' or an Ellipse, not {arena!r}")
    if cal and cal.arena:
        return cal.arena
    return find_arena(frame, prep.model, prep.model_scale)


def _typical(candidates: list[Candidate]) -> float | None:
    flat = sorted(c.side for c in candidates if c.aspect < 1.15 and c.rectangularity > 0.75)
    if not flat:
        return None
    return float(np.median(flat[len(flat) // 2 :]))


def _die(frame, c: Candidate, kind: str, side: float | None, ellipse: Ellipse | None) -> Die | None:
    if side and c.side < side * SMALL:
        return None
    in_arena = ellipse.contains(c.x, c.y) if ellipse else True
    too_big = bool(side) and c.side > side * COCKED_SIZE
    if c.aspect > COCKED_ASPECT or too_big or c.rectangularity < 0.7:
        sure = min(1.0, 0.6 + (c.aspect - 1.0))
        return Die(None, c.x, c.y, min(c.w, c.h), in_arena, True, round(sure, 3), c.angle)
    marks = find_marks(upright_patch(frame, c))
    if not marks.blobs:
        return None  # a die always shows marks: this is a shadow, a coin, a crumb
    face, confidence = read_face(kind, marks)
    confidence *= _flatness(c, side)
    return Die(face, c.x, c.y, c.side, in_arena, False, confidence, c.angle)


def _flatness(c: Candidate, side: float | None) -> float:
    """How much the outline looks like a lone flat die (1) rather than an odd blob (towards 0)."""
    score = 1.0 - max(0.0, c.aspect - 1.08) * 2.5
    if side:
        score *= 1.0 - max(0.0, abs(c.side / side - 1.0) - 0.15) * 1.5
    return float(min(1.0, max(0.0, score)))


def upright_patch(frame: np.ndarray, c: Candidate) -> np.ndarray:
    """The die's top face cut out, turned square to the axes, resampled to PATCH x PATCH."""
    side = c.side
    k = 1.0
    x, y = c.x, c.y
    src = frame
    if side > PATCH * 1.6:  # shrink a big die by area first so its pips do not alias
        k = PATCH * 1.25 / side
        r = int(side * 0.8) + 2
        x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
        roi = frame[y0 : int(y) + r, x0 : int(x) + r]
        src = cv2.resize(roi, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        x, y = (x - x0) * k, (y - y0) * k
    m = cv2.getRotationMatrix2D((x, y), c.angle, PATCH / (side * k))
    m[0, 2] += PATCH / 2 - x
    m[1, 2] += PATCH / 2 - y
    return cv2.warpAffine(
        src, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
