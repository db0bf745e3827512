"""Blobs into dice: the outlines of a mask's regions, a blob of touching dice parted along the
seams between them, or cut into as many parts as dice it can hold. Geometry only, in working
pixels; vision/detect.py decides what is not table and makes candidates of the pieces.
"""

from __future__ import annotations

import cv2
import numpy as np

BLUR_GROWTH = 1.5  # working pixels the smoothing adds to a blob's width (measured on drawn dice)
HOLDER = 0.2  # a ring this big (share of the image's side) holds dice rather than being one
PART_SHARE = 0.45  # parting a blob must leave two pieces this share of a die at least
SPLIT_AREA = 1.6  # a blob this many dice in area is cut into round(area) dice


def crowded(contour: np.ndarray, side: float | None) -> bool:
    """Whether a blob may hold more than one die: too big, or not one square."""
    area = cv2.contourArea(contour)
    if side is not None:
        return area > 1.6 * side * side
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    return max(w, h) > 1.25 * max(min(w, h), 1.0) or area < 0.85 * w * h


def parted(contour: np.ndarray, side: float | None, edges: np.ndarray, min_area: float) -> list:
    """A crowded blob parted along the edges inside it (the seams between touching dice)."""
    x, y, w, h = cv2.boundingRect(contour)
    m = np.zeros((h, w), np.uint8)
    cv2.drawContours(m, [contour - [x, y]], -1, 255, -1)
    cut = np.zeros_like(m)
    window = edges[max(y, 0) : y + h, max(x, 0) : x + w]
    cut[max(-y, 0) : max(-y, 0) + window.shape[0], max(-x, 0) : max(-x, 0) + window.shape[1]] = (
        window
    )
    cut = cv2.dilate(cut, np.ones((2, 2), np.uint8))
    m = cv2.bitwise_and(m, cv2.bitwise_not(cut))
    floor = (side * 0.5) ** 2 if side else min_area
    pieces = [regrow(p, 1) + [x, y] for p in filled_blobs(m, floor)]
    if side and sum(cv2.contourArea(p) > PART_SHARE * side * side for p in pieces) < 2:
        return [contour]  # the edges were a die's own marks, not seams between dice
    return pieces or [contour]


def regrow(contour: np.ndarray, pixels: int) -> np.ndarray:
    """Give back the edge pixels the parting took, so a parted die keeps its size."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = pixels + 2
    m = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(m, [contour - [x - pad, y - pad]], -1, 255, -1)
    m = cv2.dilate(m, np.ones((2 * pixels + 1, 2 * pixels + 1), np.uint8))
    cs, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(cs, key=cv2.contourArea) + [x - pad, y - pad]


def closed_outlines(edges: np.ndarray, max_area: float) -> np.ndarray:
    """Filled insides of closed edge loops: dice whose colour the table shares."""
    closed = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(edges)
    keep = [c for c in contours if 40 < cv2.contourArea(c) < max_area and squareish(c)]
    cv2.drawContours(out, keep, -1, 255, -1)
    return out


def squareish(contour: np.ndarray) -> bool:
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    if min(w, h) < 4:
        return False
    return max(w, h) / min(w, h) < 1.5 and cv2.contourArea(contour) / (w * h) > 0.84


def filled_blobs(mask: np.ndarray, min_area: float) -> list[np.ndarray]:
    """The outlines of a mask's regions, holes filled; a region inside another's hole (a die in
    a tray whose frame stands out) is a region of its own."""
    contours, tree = cv2.findContours(mask, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if tree is None:
        return []
    parents = tree[0][:, 3]
    out = []
    for i, c in enumerate(contours):
        depth, j = 0, i
        while parents[j] != -1:
            depth, j = depth + 1, parents[j]
        if depth % 2:
            continue  # a hole
        if depth:
            # an outline inside a hole: its own region only when what holds it is no die
            (_, _), (w, h), _ = cv2.minAreaRect(contours[parents[parents[i]]])
            if min(w, h) < HOLDER * max(mask.shape):
                continue
        if cv2.contourArea(c) >= min_area:
            out.append(c)
    return out


def typical_side(blobs: list[np.ndarray]) -> float | None:
    """The side of a lone die: the median of the blobs that look like one square."""
    sides = []
    for c in blobs:
        (_, _), (w, h), _ = cv2.minAreaRect(c)
        if min(w, h) >= 6 and max(w, h) / min(w, h) < 1.25 and cv2.contourArea(c) / (w * h) > 0.8:
            sides.append((w + h) / 2 - BLUR_GROWTH)
    if not sides:
        return None
    top = max(sides)
    dice = [s for s in sides if s > 0.45 * top]  # pips and specks are small: leave them out
    return float(np.percentile(dice, 40))  # (a die showing its sides is bigger: lean low)


def cut_into_dice(contour: np.ndarray, side: float | None) -> list[np.ndarray]:
    """A blob holding n dice, cut into n parts by k-means on its pixels' positions."""
    area = cv2.contourArea(contour)
    if side is None or area < SPLIT_AREA * side * side:
        return [contour]
    n = int(round(area / (side * side)))
    if n < 2 or n > 40:
        return [contour]
    x, y, w, h = cv2.boundingRect(contour)
    m = np.zeros((h, w), np.uint8)
    cv2.drawContours(m, [contour - [x, y]], -1, 255, -1)
    ys, xs = np.nonzero(m)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    cv2.setRNGSeed(7)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 0.5)
    _, labels, _ = cv2.kmeans(pts, n, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    parts = []
    for k in range(n):
        sel = labels.ravel() == k
        pm = np.zeros((h, w), np.uint8)
        pm[ys[sel], xs[sel]] = 255
        cs, _ = cv2.findContours(pm, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if cs:
            parts.append(max(cs, key=cv2.contourArea) + [x, y])
    return parts
