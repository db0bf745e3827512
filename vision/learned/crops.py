"""Crops of one die's top face: the convention the classifier was trained on, and its input.

The convention: a square centred on the top face's centre, of side CROP_FACTOR x the die's side
in pixels, axis-aligned (any rotation of the die is fine: training rotates crops at random). A
detector may be off by ~15 % of the side in centre and ~15 % in size; training jitters as much.
The network sees the crop area-resized to INPUT x INPUT, each crop normalised to zero mean and unit
spread over all its pixels and channels, so exposure, white balance and die colour matter less.
"""

from __future__ import annotations

import cv2
import numpy as np

CROP_FACTOR = 1.3
INPUT = 32


def crop_die(image: np.ndarray, x: float, y: float, size: float) -> np.ndarray:
    """The crop of the die at (x, y) of side `size` px (edges replicated beyond the frame)."""
    return warp_crop(image, x, y, CROP_FACTOR * size, 0.0)


def warp_crop(image: np.ndarray, x: float, y: float, side: float, angle: float) -> np.ndarray:
    """A square of `side` px centred on (x, y), turned by `angle` degrees, at native resolution."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image: expected H x W x 3 BGR, got shape {image.shape}")
    if not side > 0:
        raise ValueError(f"crop side must be > 0, got {side}")
    n = max(4, round(side))
    return cv2.warpAffine(
        image,
        _src_to_dst(x, y, side, n, angle),
        (n, n),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _src_to_dst(x: float, y: float, side: float, n: int, angle: float) -> np.ndarray:
    """Affine map from image pixels to crop pixels (rotation about (x, y), scale n / side)."""
    c = (n - 1) / 2
    m = cv2.getRotationMatrix2D((x, y), angle, n / side)
    m[:, 2] += (c - x, c - y)
    return m


def to_input(crops: list[np.ndarray]) -> np.ndarray:
    """N x 3 x INPUT x INPUT float32 blob: area-resized, each crop normalised on its own."""
    out = np.empty((len(crops), 3, INPUT, INPUT), np.float32)
    for i, c in enumerate(crops):
        c = np.asarray(c)
        if c.ndim == 2:
            c = cv2.cvtColor(c, cv2.COLOR_GRAY2BGR)
        if c.ndim != 3 or c.shape[2] != 3 or min(c.shape[:2]) < 2:
            raise ValueError(f"crop {i}: expected an H x W x 3 BGR image, got shape {c.shape}")
        if c.shape[:2] != (INPUT, INPUT):
            interp = cv2.INTER_AREA if min(c.shape[:2]) > INPUT else cv2.INTER_LINEAR
            c = cv2.resize(c, (INPUT, INPUT), interpolation=interp)
        f = c.astype(np.float32)
        f -= f.mean()
        f /= max(float(f.std()), 4.0)
        out[i] = f.transpose(2, 0, 1)
    return out
