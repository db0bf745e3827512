"""The marks on a die's top face: pips or symbols, separated from the face's own colour.

A face is one colour with marks of another, whatever the two colours are (white on black, gold on
purple, black on ivory...). So the face colour is the patch's median, the marks are the pixels far
from it in Lab, with a threshold chosen per patch (Otsu) and a floor so a blank, noisy face does not
grow marks. Glare is the usual impostor: a bright blob that is not the marks' colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PATCH = 48  # side of the normalised top-face patch, pixels
_INNER = 0.94  # marks are looked for inside this share of the patch, which shows 1.2 faces
_DISC = 0.5  # ...and inside this radius (share of the patch's side)
_MIN_CONTRAST = 22.0  # Lab distance below which nothing is a mark


@dataclass(frozen=True)
class Blob:
    """One connected mark, in patch pixels (0..PATCH), with what its shape says."""

    x: float
    y: float
    area: float
    holes: int
    solidity: float  # area / convex hull area
    elongation: float  # long side / short side of its rotated bounding box
    circularity: float  # 4 pi area / perimeter^2 of the outer contour
    angle: float  # degrees, of the long side
    vertices: int  # corners of a polygonal approximation of the outer contour
    fill: float  # share of the enclosed region that is ink (1 for a pip, < 0.6 for an outline)


@dataclass(frozen=True)
class Marks:
    blobs: tuple[Blob, ...]
    contrast: float  # Lab distance between face and marks (median over mark pixels)
    face_lab: tuple[float, float, float]  # the bare face's colour
    face_noise: float  # Lab distance from the face colour that 90 % of the bare face stays under
    ink: float  # share of the inner face covered by marks
    mask: np.ndarray
    dist: np.ndarray | None = None  # each pixel's Lab distance from the face colour


def _inner_mask() -> np.ndarray:
    m = np.zeros((PATCH, PATCH), np.uint8)
    lo = int(round(PATCH * (1 - _INNER) / 2))
    cv2.rectangle(m, (lo, lo), (PATCH - 1 - lo, PATCH - 1 - lo), 255, -1)
    disc = np.zeros_like(m)
    cv2.circle(disc, (PATCH // 2, PATCH // 2), int(PATCH * _DISC), 255, -1)
    return cv2.bitwise_and(m, disc)


_INNER_MASK = _inner_mask()
_INNER_SEL = _INNER_MASK > 0


def find_marks(patch_bgr: np.ndarray) -> Marks:
    """Split an upright PATCH x PATCH face into face colour and marks."""
    lab = cv2.cvtColor(patch_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    inner = lab[_INNER_SEL]
    face = np.median(inner, axis=0)
    dist = np.sqrt(((lab - face) ** 2).sum(axis=2))
    d8 = np.clip(dist * 2, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(d8[_INNER_SEL], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = max(otsu / 2.0, _MIN_CONTRAST)
    mask = ((dist > thr) & _INNER_SEL).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    mask = _drop_touching(mask)
    ink = float(mask[_INNER_SEL].mean() / 255.0)
    contrast = float(np.median(dist[mask > 0])) if ink > 0 else 0.0
    bare = dist[_INNER_SEL & (cv2.dilate(mask, np.ones((3, 3), np.uint8)) == 0)]
    noise = float(np.percentile(bare, 90)) if bare.size else 0.0
    colour = (float(face[0]), float(face[1]), float(face[2]))
    return Marks(tuple(_blobs(mask)), contrast, colour, noise, ink, mask, dist)


_RIM = _INNER_SEL & ~cv2.erode(_INNER_MASK, np.ones((3, 3), np.uint8)).astype(bool)


def _drop_touching(mask: np.ndarray) -> np.ndarray:
    """Remove what touches the edge of the looked-at region: table, side faces, neighbours."""
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    touching = np.unique(labels[_RIM & (mask > 0)])
    touching = touching[touching > 0]
    if len(touching):
        mask = mask.copy()
        mask[np.isin(labels, touching)] = 0
    return mask


def _blobs(mask: np.ndarray) -> list[Blob]:
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    hierarchy = hierarchy[0]
    min_area = PATCH * PATCH * 0.004
    out = []
    for i, c in enumerate(contours):
        if hierarchy[i][3] != -1:
            continue  # a hole: counted with its parent
        outer = cv2.contourArea(c)
        if outer < min_area:
            continue
        holes = [j for j in range(len(contours)) if hierarchy[j][3] == i]
        hole_area = sum(cv2.contourArea(contours[j]) for j in holes)
        big_holes = sum(1 for j in holes if cv2.contourArea(contours[j]) > min_area)
        area = outer - hole_area
        hull = cv2.contourArea(cv2.convexHull(c))
        (x, y), (w, h), ang = cv2.minAreaRect(c)
        per = cv2.arcLength(c, True)
        poly = cv2.approxPolyDP(c, 0.06 * per, True)
        long_, short = max(w, h), max(min(w, h), 1.0)
        angle = ang if w >= h else ang + 90.0
        out.append(
            Blob(
                x=float(x),
                y=float(y),
                area=float(area),
                holes=big_holes,
                solidity=float(outer / max(hull, 1.0)),
                elongation=float(long_ / short),
                circularity=float(4 * np.pi * outer / max(per * per, 1.0)),
                angle=float(angle % 180.0),
                vertices=len(poly),
                fill=float(area / max(outer, 1.0)),
            )
        )
    return out


def marks_centre(canvas_bgr: np.ndarray) -> tuple[float, float] | None:
    """The centre of the marks' bounding box in a cut a little larger than the face (pip layouts
    and symbols are centred on the face), or None when no mark stands clear of the cut's edge."""
    n = canvas_bgr.shape[0]
    lab = cv2.cvtColor(canvas_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    core = _disc(n, 0.3)
    face = np.median(lab[core], axis=0)
    dist = np.sqrt(((lab - face) ** 2).sum(axis=2))
    zone = _disc(n, 0.47)
    d8 = np.clip(dist * 2, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(d8[zone], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = ((dist > max(otsu / 2.0, _MIN_CONTRAST)) & zone).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    edge = zone & ~_disc(n, 0.46)
    boxes = []
    touching = set(np.unique(labels[edge]).tolist())
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if area < n * n * 0.003 or max(w, h) > n * 0.5 or area > n * n * 0.08:
            continue  # a speck, or not a mark: the table, a side face, a neighbour
        if i in touching:
            continue
        boxes.append((x, y, x + w, y + h))
    if not boxes:
        return None
    b = np.array(boxes, float)
    return (b[:, 0].min() + b[:, 2].max()) / 2, (b[:, 1].min() + b[:, 3].max()) / 2


def _disc(n: int, radius: float) -> np.ndarray:
    m = np.zeros((n, n), np.uint8)
    cv2.circle(m, (n // 2, n // 2), int(n * radius), 1, -1)
    return m > 0
