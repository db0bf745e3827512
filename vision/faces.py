"""Which face a die shows, from the marks on its upright top-face patch, with a confidence.

Each possible face gets a score in 0..1 from soft conditions on the marks (how many blobs, their
shape, their layout); the answer is the best face, and the confidence is that score times its margin
over the runner-up. Soft conditions instead of hard thresholds make the confidence fall gradually
as a die gets smaller, blurrier or glossier, which is what lets the table ask the players instead
of guessing. The thresholds were set on synthetic renders (vision/synth) and are listed in
docs/vision.md.
"""

from __future__ import annotations

import math

import numpy as np

from vision.marks import PATCH, Blob, Marks


def _soft(value: float, threshold: float, width: float) -> float:
    """~1 well above threshold, ~0 well below, 0.5 at it (a logistic of the given width)."""
    z = (value - threshold) / max(width, 1e-9)
    return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


def _below(value: float, threshold: float, width: float) -> float:
    return 1.0 - _soft(value, threshold, width)


# ---------------------------------------------------------------- pips

GHOST = 0.3  # ink where no pip should be, as a share of the pips' contrast, that casts a doubt


def _pip_likeness(b: Blob) -> float:
    return (
        _soft(b.solidity, 0.78, 0.05)
        * _below(b.elongation, 1.7, 0.15)
        * _below(b.holes, 0.5, 0.1)
        * _soft(b.fill, 0.8, 0.05)
    )


_UNIT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _layouts(n: int) -> list[np.ndarray]:
    """The standard layout of n pips turned every 7.5 degrees through a quarter turn (and the
    mirror turn for 2, 3 and 6): the die's outline may be skewed by a shadow or a side face."""
    base = np.array(_UNIT[n], float)
    return [base @ rot.T for rot in _rotations(n)]


def _layout_fit(points: np.ndarray) -> tuple[float, np.ndarray | None]:
    """How well pip centres match the standard layout of their count (1 perfect, 0 not at all),
    and where the pips of the 3 x 3 grid that this count leaves bare should be (patch pixels)."""
    n = len(points)
    if n == 1:
        off = np.hypot(*(points[0] - PATCH / 2)) / PATCH
        step = PATCH * _PIP_STEP
        grid = [points[0] + (i * step, j * step) for i in (-1, 0, 1) for j in (-1, 0, 1)]
        return _below(off, 0.18, 0.04), np.array(grid[:4] + grid[5:])
    centre = points.mean(axis=0)
    centred = points - centre
    layouts = _LAYOUTS[n]  # turns x n x 2
    spread = float(np.sqrt((centred**2).sum() / (layouts[0] ** 2).sum()))
    if not PATCH * 0.12 <= spread <= PATCH * 0.42:
        return 0.0, None
    # distance of each layout point (axis 1) to each pip (axis 2), for every turn
    d = np.linalg.norm(layouts[:, :, None, :] * spread - centred[None, None, :, :], axis=3)
    err = d.min(axis=2).max(axis=1)
    nearest = np.sort(d.argmin(axis=2), axis=1)
    one_to_one = (np.diff(nearest, axis=1) > 0).all(axis=1)
    err = np.where(one_to_one, err, np.inf)
    best = int(err.argmin())
    if not np.isfinite(err[best]):
        return 0.0, None
    bare = centre + (_BARE[n] @ _ROTATIONS[n][best].T) * spread
    return _below(float(err[best]) / spread, 0.28, 0.06), bare


_PIP_STEP = 0.26 / 1.2  # pip spacing over the patch side (faces are read at 1.2 sides)
_GRID9 = [np.array((i, j), float) for i in (-1, 0, 1) for j in (-1, 0, 1)]


def _rotations(n: int) -> list[np.ndarray]:
    out = []
    for deg in np.arange(0.0, 180.0 if n in (2, 3, 6) else 90.0, 7.5):
        t = np.radians(deg)
        out.append(np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]))
    return out


_ROTATIONS = {n: _rotations(n) for n in _UNIT}
_LAYOUTS = {n: np.array(_layouts(n)) for n in _UNIT}
_BARE = {
    n: np.array([g for g in _GRID9 if not any(np.allclose(g, u) for u in _UNIT[n])]) for n in _UNIT
}


def _ghosts(marks: Marks, bare: np.ndarray | None) -> float:
    """How much ink lies where this count has no pip, as a share of the marks' contrast: a pip
    lost to glare, blur or a bad cut would turn a 3 into a 2, so a faint one there is a doubt."""
    if bare is None or marks.dist is None or marks.contrast <= 0:
        return 0.0
    r = max(1, int(PATCH * 0.045))
    worst = 0.0
    for x, y in bare:
        xi, yi = int(round(x)), int(round(y))
        if r <= xi < PATCH - r and r <= yi < PATCH - r:
            spot = marks.dist[yi - r : yi + r + 1, xi - r : xi + r + 1]
            worst = max(worst, float(np.median(spot)) / marks.contrast)
    return worst


def _pip_scores(blobs: tuple[Blob, ...], marks: Marks) -> dict[int, float]:
    """Score for each pip count 1..6 from blobs that look like pips."""
    if not blobs:
        return {}
    likeness = [_pip_likeness(b) for b in blobs]
    all_pips = float(np.prod(likeness))
    n = len(blobs)
    if n > 6:
        return {}
    areas = np.array([b.area for b in blobs])
    uniform = _below(areas.max() / max(areas.min(), 1.0), 2.2, 0.3) if n > 1 else 1.0
    size_ok = _soft(areas.mean() / PATCH**2, 0.006, 0.002) * _below(
        areas.mean() / PATCH**2, 0.09, 0.015
    )
    pts = np.array([(b.x, b.y) for b in blobs])
    layout, bare = _layout_fit(pts)
    contrast = _soft(marks.contrast, 30.0, 6.0)
    no_ghost = _below(_ghosts(marks, bare), GHOST, 0.06)
    return {n: all_pips * uniform * size_ok * layout * contrast * no_ghost}


# ---------------------------------------------------------------- the Strike cross


def _cross_score(b: Blob) -> float:
    """An X (or +): one blob without holes, far from convex, not elongated, large."""
    return (
        _below(b.solidity, 0.62, 0.06)
        * _below(b.elongation, 1.6, 0.2)
        * _below(b.holes, 0.5, 0.1)
        * _soft(b.area / PATCH**2, 0.03, 0.008)
    )


# ---------------------------------------------------------------- Détrak symbols


def _detrak_scores(blobs: tuple[Blob, ...]) -> dict[str, float]:
    out: dict[str, float] = {}
    big = [b for b in blobs if b.area > PATCH * PATCH * 0.012]
    if len(big) == 3:
        angles = [b.angle for b in big]
        spread = max(_angle_gap(a, angles[0]) for a in angles)
        out["bars"] = float(
            np.prod([_soft(b.elongation, 2.6, 0.4) for b in big]) * _below(spread, 20.0, 5.0)
        )
    stray = sum(b.area for b in blobs if b.area <= PATCH * PATCH * 0.012) / PATCH**2
    tidy = _below(stray, 0.008, 0.003)
    if len(big) == 1:
        b = big[0]
        share = b.area / PATCH**2
        centred = _below(np.hypot(b.x - PATCH / 2, b.y - PATCH / 2) / PATCH, 0.12, 0.03)
        holed = _soft(b.holes, 0.5, 0.1)
        solid = 1.0 - holed
        out["slash"] = solid * _soft(b.elongation, 3.0, 0.4) * _soft(b.solidity, 0.55, 0.06)
        out["cross"] = solid * _cross_score(b)
        out["circle"] = holed * _soft(b.circularity, 0.72, 0.03) * _soft(b.vertices, 3.5, 0.3)
        out["triangle"] = (
            holed * _below(b.circularity, 0.72, 0.03) * _below(abs(b.vertices - 3), 0.5, 0.15)
        )
        out["hash"] = (
            holed
            * _below(b.solidity, 0.8, 0.05)
            * _below(b.circularity, 0.6, 0.06)
            * _soft(b.fill, 0.7, 0.04)
            * _soft(share, 0.05, 0.01)
            * _below(share, 0.2, 0.02)
            * _below(b.elongation, 1.5, 0.1)
        )
        for name in ("slash", "cross", "circle", "triangle", "hash"):
            out[name] *= centred
    return {k: v * tidy for k, v in out.items()}


def _angle_gap(a: float, b: float) -> float:
    d = abs(a - b) % 180.0
    return min(d, 180.0 - d)


# ---------------------------------------------------------------- decision


def face_scores(kind: str, marks: Marks) -> dict:
    """Every face this kind can show, with its score (missing faces score 0)."""
    blobs = marks.blobs
    if kind == "detrak":
        return _detrak_scores(blobs)
    scores: dict = dict(_pip_scores(blobs, marks))
    if kind == "strike":
        scores.pop(1, None)
        if len(blobs) == 1:
            scores["X"] = _cross_score(blobs[0]) * _soft(marks.contrast, 30.0, 6.0)
    return scores


def read_face(kind: str, marks: Marks) -> tuple[int | str | None, float]:
    """The face and how sure the reader is of it; None when no face scores above zero."""
    clean = _below(marks.face_noise / max(marks.contrast, 1.0), 1.0, 0.1)
    scores = {k: v * clean for k, v in face_scores(kind, marks).items()}
    if not scores:
        return None, 0.0
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    face, best = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0.0
    confidence = best * (1.0 - second)
    if best < 0.05:
        return None, confidence
    return face, float(confidence)
