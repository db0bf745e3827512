"""Where a die's top face is inside its blob, and whether the blob is a flat die or a cocked one.

Seen from a camera above, a flat die off the image's centre also shows the sides that face the
centre: its blob is the top face plus slivers on the centre's side, as wide as the die is far from
the centre (top faces are nearer the camera, so they are pushed outwards). All dice of a frame
share one ratio k of sliver width to distance from the centre, learned from the frame's own blobs.
So the top face is the blob's outer s x s square, and a blob whose excess over s does not fit
k x distance is not a flat die: it is a cocked one (an edge-resting die shows 1 x 1.3..1.4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.detect import Candidate

MIN_SIDE_SHARE = 0.6  # blobs whose short side is below this share of a die's are not dice
MIN_ROWS = 16  # extents (two per die) needed to fit k; with fewer dice k is 0
MIN_CORRELATION = 0.5  # of extents with distance from the centre, for k to be believed
MISFIT = 0.22  # excess over the expected slivers, as a share of s, that makes a blob cocked


@dataclass(frozen=True)
class Top:
    x: float
    y: float
    side: float
    angle: float
    misfit: float  # how far the blob is from "a flat die here": 0 fits, > MISFIT is cocked
    cocked: bool


def _axes(c: Candidate) -> tuple[np.ndarray, np.ndarray]:
    t = math.radians(c.angle)
    return np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])


def _reaches(c: Candidate, centre: tuple[float, float]) -> tuple[float, float]:
    u, v = _axes(c)
    r = np.array([c.x - centre[0], c.y - centre[1]])
    return abs(float(r @ u)), abs(float(r @ v))


def fit_dice(cands: list[Candidate], centre: tuple[float, float]) -> tuple[float | None, float]:
    """The top faces' side s and the sliver ratio k, fitted over the frame's die-like blobs.

    Each blob's two extents are s + k * (its distance from the centre along that axis); a
    least-squares line through them, refitted without the blobs that do not fit (clusters, cocked
    dice, specks), gives both.
    """
    rows = []
    for c in cands:
        if c.aspect < 1.6:
            ru, rv = _reaches(c, centre)
            rows += [(c.w, ru), (c.h, rv)]
    if not rows:
        return None, 0.0
    ext = np.array([r[0] for r in rows])
    reach = np.array([r[1] for r in rows])
    big = np.sort(ext)[len(ext) // 2 :]
    ref = float(np.median(big))
    keep = (ext > ref * 0.6) & (ext < ref * 1.6)
    s, k = ref, 0.0
    for _ in range(3):
        if keep.sum() < MIN_ROWS or np.ptp(reach[keep]) < ref:
            s = float(np.median(ext[keep])) if keep.any() else ref
            k = 0.0
        else:
            k, s = np.polyfit(reach[keep], ext[keep], 1)
            k = float(min(max(k, 0.0), 0.5))
            if np.corrcoef(reach[keep], ext[keep])[0, 1] < MIN_CORRELATION:
                k = 0.0  # the extents do not grow with the distance: no perspective to model
            s = float(np.median(ext[keep] - k * reach[keep]))
        keep = np.abs(ext - (s + k * reach)) < 0.15 * s
        if not keep.any():
            break
    return s, k


def top_face(c: Candidate, side: float, k: float, centre: tuple[float, float]) -> Top:
    """The top face of a blob (frame pixels), and how well the blob fits a flat die there."""
    u, v = _axes(c)
    r = np.array([c.x - centre[0], c.y - centre[1]])
    ru, rv = float(r @ u), float(r @ v)
    ex_u, ex_v = c.w - side, c.h - side
    want_u, want_v = k * abs(ru), k * abs(rv)
    misfit = max(ex_u - want_u, ex_v - want_v, 0.0) / side
    own = (c.w - want_u + c.h - want_v) / 2  # this die's own top side, if it is flat
    if side * 0.85 < own < side * 1.2:
        side = own
        ex_u, ex_v = c.w - side, c.h - side
    short = min(c.w, c.h) < side * 0.8
    shift_u = max(0.0, min(ex_u, want_u * 1.5)) / 2 * math.copysign(1.0, ru)
    shift_v = max(0.0, min(ex_v, want_v * 1.5)) / 2 * math.copysign(1.0, rv)
    x = c.x + shift_u * u[0] + shift_v * v[0]
    y = c.y + shift_u * u[1] + shift_v * v[1]
    cocked = misfit > MISFIT or (short and max(c.w, c.h) > side * 1.15)
    return Top(float(x), float(y), side, c.angle, misfit, cocked)
