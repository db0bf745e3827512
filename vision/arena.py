"""The Strike arena: the oval foam mat on the box's bottom, found as the one big elliptic region.

The frame's colours are clustered on a small copy; each large cluster's biggest region, with the dice
on it filled in, is fitted with an ellipse (leaving out points on the frame's border, where the mat
may be cut off). The region that an ellipse fits best, and that is neither tiny nor the whole frame,
is the arena.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.readings import Ellipse
from vision.shrink import shrink
from vision.table import TableModel, learn

_SIDE = 160
COVER = 0.8  # share of the ellipse the region's own pixels must cover (dice are holes in it)
MIN_CONTRAST = 12.0  # Lab units between the mat and what surrounds it
MIN_FIT = 0.88  # intersection over union of region and ellipse for the region to be the arena
MIN_AREA = 0.03  # share of the frame the mat covers at least (a box seen from high up)
NEARLY = 0.02  # a fit this much below the best one is as good (IoU)
WHOLE_FIT = 0.95  # a cluster fitting its ellipse this well is the mat whole: no pairs tried
SHADES = 25.0  # Lab distance of two clusters that may be one surface in two lights
BOX_SIDES = 12.0  # half the window searched around the dice, in die sides (the box: 8-16 across)
_K3 = np.ones((3, 3), np.uint8)
_K7 = np.ones((7, 7), np.uint8)


def find_arena(
    bgr: np.ndarray,
    model: TableModel | None = None,
    scale: float = 1.0,
    copy: np.ndarray | None = None,
) -> Ellipse | None:
    """The arena's ellipse in frame pixels, or None when no region is convincingly oval.

    model: the frame's table colours if already learned (vision/table.py), its labels being the
    frame shrunk by `scale`; otherwise they are learned here, from `copy` if given (the frame
    already shrunk, no smaller than the arena's working size: cheaper to shrink again).
    """
    small_lab = None
    if model is None:
        h, w = bgr.shape[:2]
        scale = _SIDE / max(h, w)
        size = (max(8, int(w * scale)), max(8, int(h * scale)))
        src = copy if copy is not None and copy.shape[1] >= size[0] else bgr
        small = shrink(src, size)
        small_lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
        small = cv2.GaussianBlur(small, (3, 3), 0)
        model = learn(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), lookup=False)
    labels = model.labels
    if small_lab is None:
        small_lab = _small_lab(bgr, labels.shape)
    singles, pairs = _regions(model.centres)
    fits = _fits(singles, labels, small_lab)
    if max((f[0] for f in fits), default=0.0) < WHOLE_FIT:
        fits += _fits(pairs, labels, small_lab)
    best = _innermost(fits)
    return best.scaled(1.0 / scale) if best else None


def find_arena_near(bgr: np.ndarray, points: np.ndarray, side: float) -> Ellipse | None:
    """The arena looked for again around the dice, when the whole frame showed none: a box
    seen from far (a phone photo of the table) is a few percent of the frame, under MIN_AREA and
    a dozen pixels across at the working size. Most dice lie in the box, so their median point
    is in it; the window is wide enough for the box and its rim."""
    if not len(points) or side <= 0:
        return None
    h, w = bgr.shape[:2]
    cx, cy = np.median(np.asarray(points, float).reshape(-1, 2), axis=0)
    r = BOX_SIDES * side
    x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
    x1, y1 = min(w, int(cx + r)), min(h, int(cy + r))
    if (x1 - x0) * (y1 - y0) > 0.5 * w * h or min(x1 - x0, y1 - y0) < 32:
        return None  # the window is most of the frame: the frame was the search
    found = find_arena(bgr[y0:y1, x0:x1])
    if found is None:
        return None
    return Ellipse(found.cx + x0, found.cy + y0, found.a, found.b, found.angle)


def _fits(groups, labels: np.ndarray, small_lab: np.ndarray) -> list:
    """(IoU, ellipse) of each group of colour clusters whose region, or what the region rings,
    is oval, big enough, and stands out from what surrounds it (a lit patch or a band of grain
    is not the mat in its box)."""
    out = []
    labels = labels.astype(np.uint8)  # (a lookup of uint8 labels: a tenth of indexing's time)
    for group in groups:
        pick = np.zeros(256, np.uint8)
        pick[list(group)] = 255
        region = cv2.LUT(labels, pick)
        if np.count_nonzero(region) < 0.02 * region.size:
            continue
        inner = _inside_ring(region)
        for found in (_fit(region), _fit(inner) if inner is not None else None):
            if found and found[0] >= MIN_FIT and _contrast(small_lab, found[1]) >= MIN_CONTRAST:
                out.append(found)
    return out


def _innermost(fits: list[tuple[float, Ellipse]]) -> Ellipse | None:
    """The ellipse that fits its region best, or one nearly as good inside it: the table around
    the box has the box's outline for a hole, the rim has the mat, and the mat is the arena."""
    if not fits:
        return None
    top_fit, top = max(fits, key=lambda f: f[0])
    inside = [
        e
        for fit, e in fits
        if fit >= top_fit - NEARLY
        and top.radius_ratio(e.cx, e.cy) < 0.5
        and e.a * e.b < top.a * top.b
    ]
    return min(inside, key=lambda e: e.a * e.b) if inside else top


def _regions(centres: np.ndarray) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Each colour cluster, and each pair of clusters of nearly the same colour: light falling
    across the mat (or the rim's shading) splits it into two clusters a few shades apart (the
    pairs are tried when no cluster alone is clearly the mat)."""
    singles: list[tuple[int, ...]] = [(c,) for c in range(len(centres))]
    pairs: list[tuple[int, ...]] = [
        (i, j)
        for i in range(len(centres))
        for j in range(i + 1, len(centres))
        if np.linalg.norm(centres[i] - centres[j]) < SHADES
    ]
    return singles, pairs


def _inside_ring(region: np.ndarray) -> np.ndarray | None:
    """What a ring-shaped region (the box's rim) encloses: the mat, whatever its colour; None
    when the region has no hole big enough to be the mat."""
    closed = cv2.morphologyEx(region, cv2.MORPH_CLOSE, _K3)
    contours, hierarchy = cv2.findContours(closed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return None
    holes = [c for c, hr in zip(contours, hierarchy[0], strict=True) if hr[3] != -1]
    hole = max(holes, key=cv2.contourArea) if holes else None
    if hole is None or cv2.contourArea(hole) <= MIN_AREA * region.size:
        return None
    out = np.zeros_like(region)
    cv2.drawContours(out, [hole], -1, 255, -1)
    return out


def _small_lab(bgr: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    small = cv2.resize(bgr, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)


def _contrast(lab: np.ndarray, e: Ellipse) -> float:
    """Median Lab difference between just inside and just outside the ellipse's border."""
    h, w = lab.shape[:2]
    t = np.radians(e.angle)
    phi = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    ends = []
    for k in (0.9, 1.1):
        u, v = e.a * k * np.cos(phi), e.b * k * np.sin(phi)
        x = np.rint(e.cx + u * np.cos(t) - v * np.sin(t)).astype(int)
        y = np.rint(e.cy + u * np.sin(t) + v * np.cos(t)).astype(int)
        ends.append((x, y))
    (x0, y0), (x1, y1) = ends
    ok = _within(x0, y0, w, h) & _within(x1, y1, w, h)
    if ok.sum() < 12:
        return 0.0
    diffs = np.linalg.norm(lab[y0[ok], x0[ok]] - lab[y1[ok], x1[ok]], axis=1)
    return float(np.median(diffs))


def _within(x: np.ndarray, y: np.ndarray, w: int, h: int) -> np.ndarray:
    return (x >= 0) & (x < w) & (y >= 0) & (y < h)


def _fit(region: np.ndarray) -> tuple[float, Ellipse] | None:
    h, w = region.shape
    region = cv2.morphologyEx(region, cv2.MORPH_CLOSE, _K7)
    region = cv2.morphologyEx(region, cv2.MORPH_OPEN, _K3)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(c)
    if not MIN_AREA * h * w < area < 0.92 * h * w:
        return None
    hull = cv2.convexHull(c)
    pts = c.reshape(-1, 2)
    inside = (pts[:, 0] > 1) & (pts[:, 1] > 1) & (pts[:, 0] < w - 2) & (pts[:, 1] < h - 2)
    if inside.mean() < 0.6:
        return None  # mostly the frame's border: a table, not an oval
    dense = pts[inside]
    if len(dense) < 20:
        return None
    (cx, cy), (d1, d2), angle = cv2.fitEllipse(dense.astype(np.float32).reshape(-1, 1, 2))
    filled = np.zeros_like(region)
    cv2.drawContours(filled, [hull], -1, 255, -1)
    ell = np.zeros_like(region)
    cv2.ellipse(ell, ((cx, cy), (d1, d2), angle), 255, -1)
    inter = np.count_nonzero(filled & ell)
    union = np.count_nonzero(filled | ell)
    iou = inter / max(union, 1)
    # the mat itself must fill its oval: a lit patch of table around the arena has a hole in it
    if np.count_nonzero(region & ell) < COVER * np.count_nonzero(ell):
        return None
    a, b, ang = (d1 / 2, d2 / 2, angle) if d1 >= d2 else (d2 / 2, d1 / 2, angle + 90.0)
    return iou, Ellipse(float(cx), float(cy), float(a), float(b), float(ang % 180.0))
