"""The table's colours: what a frame shows where there is no die, learned afresh from each frame.

A small copy of the frame is clustered in Lab (k-means); the clusters that cover the frame's border,
or a large share of it, are the table (foam, felt, card, wood, a printed tray, the box's bottom and
its mat). Deciding "table or not" for every pixel of the working image is then one lookup in a
table of 32 x 32 x 32 Lab cells, which is what keeps it fast enough for a Raspberry Pi.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

CLUSTERS = 8
BORDER_SHARE = 0.08  # a cluster with this share of the border pixels is table
AREA_SHARE = 0.2  # ...and so is one covering this share of the frame
SPAN = 0.35  # ...and so is one whose largest region spans this share of the frame's diagonal
SPAN_AREA = 0.06  # ...or covers this share of the frame in one piece
DISTANCE = 2.2  # a pixel this many spreads (plus 4 Lab units) from a table colour is not table
SHADES = (0.5, 0.6, 0.7, 0.8, 0.9)  # the table in shadow is still table...
SHADE_RADIUS = 7.0  # ...but only close to it (distance DISTANCE x this): a black die is darker
SHADE_MIN_L = 110  # and only for light tables (Lab L, 0..255)
FIT_PIXELS = 5000  # k-means is fitted on about this many pixels
_STEP = 8  # Lab cell size of the lookup table

_CELLS = (np.arange(256 // _STEP, dtype=np.float32) * _STEP + _STEP / 2).astype(np.float32)
_GRID = np.stack(np.meshgrid(_CELLS, _CELLS, _CELLS, indexing="ij"), axis=-1).reshape(-1, 3)
_GRID2 = (_GRID**2).sum(1)


@dataclass(frozen=True)
class TableModel:
    labels: np.ndarray  # cluster of each pixel of the small copy
    centres: np.ndarray  # CLUSTERS x 3 Lab
    table: tuple[int, ...]  # the clusters that are table
    lookup: np.ndarray  # 32768 cells: 255 where a Lab colour is table

    def mask(self, lab: np.ndarray) -> np.ndarray:
        """255 where a Lab image (uint8) shows the table."""
        q = (lab >> 3).astype(np.uint16)
        idx = (q[..., 0] << 10) | (q[..., 1] << 5) | q[..., 2]
        return self.lookup[idx]


def _spans(region: np.ndarray) -> bool:
    """Whether a colour forms one region spanning much of the frame: a mat, a rim, not dice."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(region.astype(np.uint8), connectivity=8)
    if n < 2:
        return False
    h, w = region.shape
    big = stats[1:, cv2.CC_STAT_AREA].argmax() + 1
    bw, bh = stats[big, cv2.CC_STAT_WIDTH], stats[big, cv2.CC_STAT_HEIGHT]
    return bool(
        stats[big, cv2.CC_STAT_AREA] > SPAN_AREA * h * w
        or math.hypot(bw, bh) > SPAN * math.hypot(w, h)
    )


def _shaded(lab_colour: np.ndarray) -> np.ndarray:
    """A table colour and the same colour in the shade of a die (hard shadows keep 40 % or more
    of the light; down to half is modelled, nearer to black is a die)."""
    bgr = cv2.cvtColor(lab_colour.reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_LAB2BGR)
    shades = np.array(SHADES, np.float32).reshape(-1, 1, 1)
    darker = (bgr.astype(np.float32) * shades).clip(0, 255).astype(np.uint8).reshape(-1, 1, 3)
    lab = cv2.cvtColor(darker, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    return np.vstack([lab_colour.reshape(1, 3), lab])


def _clusters(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """k-means of Lab pixels, fitted on at most FIT_PIXELS of them (every n-th: the colours of a
    table are many pixels each) and then given to every pixel by its nearest centre."""
    cv2.setRNGSeed(12345)  # the same frame always gives the same reading
    step = max(1, len(pixels) // FIT_PIXELS)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 8, 1.0)
    _, labels, centres = cv2.kmeans(
        pixels[::step], CLUSTERS, None, criteria, 1, cv2.KMEANS_PP_CENTERS
    )
    if step == 1:
        return labels.ravel(), centres
    # the nearest centre: |p|^2 is the same for every centre, so it is left out
    d2 = (centres**2).sum(1)[None, :] - 2 * (pixels @ centres.T)
    return d2.argmin(axis=1).astype(np.int32), centres


def learn(small_lab: np.ndarray, lookup: bool = True) -> TableModel:
    """Cluster a small Lab copy of the frame and decide which clusters are the table.

    lookup=False gives the clusters only, no table colours nor lookup (the arena needs no more).
    """
    pixels = small_lab.reshape(-1, 3).astype(np.float32)
    flat, centres = _clusters(pixels)
    labels = flat.reshape(small_lab.shape[:2])
    if not lookup:  # (the arena: clusters, no table colours)
        return TableModel(labels, centres, (), np.zeros(0, np.uint8))
    border = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    border_share = np.bincount(border, minlength=CLUSTERS) / border.size
    share = np.bincount(flat, minlength=CLUSTERS) / flat.size
    table = tuple(
        c
        for c in range(CLUSTERS)
        if border_share[c] >= BORDER_SHARE or share[c] >= AREA_SHARE or _spans(labels == c)
    )
    colours, radii = [], []
    for c in table:
        members = pixels[flat == c]
        spread = max(float(np.sqrt(((members - centres[c]) ** 2).sum(1).mean())), 3.0)
        colours.append(centres[c])
        radii.append(spread + 4.0)
        if centres[c][0] >= SHADE_MIN_L:  # a dark table's shadow is as dark as a black die
            for colour in _shaded(centres[c])[1:]:
                colours.append(colour)
                radii.append(SHADE_RADIUS)
    lookup = np.zeros(len(_GRID), np.uint8)
    if colours:
        cs, rs = np.array(colours, np.float32), np.array(radii, np.float32)
        d2 = _GRID2[:, None] - 2 * (_GRID @ cs.T) + (cs**2).sum(1)[None, :]
        lookup[(d2 < (DISTANCE * rs[None, :]) ** 2).any(axis=1)] = 255
    return TableModel(labels, centres, table, lookup)
