"""Crops of one die's top face: the convention the classifier was trained on, and its input.

The convention: a square centred on the top face's centre, of side CROP_FACTOR x the die's side
in pixels, turned so that the direction away from the frame's centre points up, with a fourth
plane saying how far from the centre the die lies (its reach).

Why the turn and the reach: a camera close above the table sees the side faces of a flat die
that lies away from the middle of the frame, on the side facing away from the middle, and the
more so the farther out it lies. A cocked die shows a side face too, on whatever side it leans.
From the crop alone the two look alike; with the direction and the distance the network can
tell a side face that perspective explains from one it does not.

Why 1.8 sides (1.3 until session 6): a die tipped 25-35 degrees, or 55-65 (its other face up,
tipped 25-35), shows a side face up to half a side wide, which a crop of 1.3 sides cut off; the
wider crop shows it, and the die or the wall it leans on. Retrained this way, the classifier
called more cocked dice cocked for the same flat dice lost, and read the calibration crops'
faces better too (pips 96.7 % right, 94.8 % before), though each die is smaller in the 32 px
input; 2.2 sides lost Détrak symbols (docs/vision-learned.md).

Strictly, "the middle" is the point of the frame straight below the camera. A camera above the
table has it at the centre (the default, and what training uses); for an oblique photo the
reader searches it (nadir.py) and passes it as `below`.

A detector may be off by ~15 % of the side in centre and ~15 % in size; training jitters as much.
The network sees the crop area-resized to INPUT x INPUT, each crop normalised to zero mean and unit
spread over all its pixels and colour channels, so exposure, white balance and die colour matter
less; the reach plane goes in as it is.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

CROP_FACTOR = 1.8  # session 6 (1.3 before): the crop shows what a cocked die leans on
INPUT = 32
CHANNELS = 4  # B, G, R, reach
FAR = 0.75  # the reach (distance from the frame's centre / the frame's longer side) coded 255


def crop_die(
    image: np.ndarray, x: float, y: float, size: float, below: tuple | None = None
) -> np.ndarray:
    """The crop of the die at (x, y) of side `size` px (edges replicated beyond the frame):
    BGR turned as the convention says, plus the reach plane. `below`: the point of the frame
    straight below the camera, if not its centre (an oblique photo: vision/learned/nadir.py)."""
    return outward_crop(image, x, y, CROP_FACTOR * size, below=below)


def outward_crop(
    image: np.ndarray,
    x: float,
    y: float,
    side: float,
    off: float = 0.0,
    below: tuple | None = None,
):
    """A square of `side` px at (x, y) by the convention (turned outward, `off` degrees more:
    training's jitter), with its reach plane, at native resolution."""
    angle = outward_angle(image.shape, x, y, below) + off
    return with_reach(warp_crop(image, x, y, side, angle), reach(image.shape, x, y, below))


def _below(shape: tuple, below: tuple | None) -> tuple[float, float]:
    h, w = shape[:2]
    return ((w - 1) / 2, (h - 1) / 2) if below is None else below


def outward_angle(shape: tuple, x: float, y: float, below: tuple | None = None) -> float:
    """Degrees to turn a crop at (x, y) (counter-clockwise on screen) so that the direction
    from the frame's centre (or the point `below` the camera) to (x, y) points up."""
    cx, cy = _below(shape, below)
    dx, dy = x - cx, y - cy
    if dx == 0 and dy == 0:
        return 0.0
    return math.degrees(math.atan2(dy, dx)) + 90.0


def reach(shape: tuple, x: float, y: float, below: tuple | None = None) -> float:
    """How far (x, y) lies from the frame's centre (or the point `below` the camera), in frame
    lengths (the longer side)."""
    cx, cy = _below(shape, below)
    return math.hypot(x - cx, y - cy) / max(shape[:2])


def with_reach(crop: np.ndarray, far: float) -> np.ndarray:
    """The BGR crop with its reach plane added (uint8, FAR and beyond coded 255)."""
    level = round(255 * min(1.0, max(0.0, far) / FAR))
    out = cv2.cvtColor(crop, cv2.COLOR_BGR2BGRA)  # (a fifth of np.dstack's time: 6 us a crop)
    out[..., 3] = level
    return out


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
    """N x CHANNELS x INPUT x INPUT float32 blob: area-resized, colours normalised per crop, the
    reach plane scaled to 0..1. A crop without a reach plane (3 channels) counts as one at the
    frame's centre."""
    small = np.zeros((len(crops), INPUT, INPUT, CHANNELS), np.uint8)
    for i, c in enumerate(crops):
        c = np.asarray(c)
        if c.ndim == 2:
            c = cv2.cvtColor(c, cv2.COLOR_GRAY2BGR)
        if c.ndim != 3 or c.shape[2] not in (3, CHANNELS) or min(c.shape[:2]) < 2:
            raise ValueError(
                f"crop {i}: expected an H x W x 3 BGR image (or 4 with the reach plane, as"
                f" crop_die makes), got shape {c.shape}"
            )
        if c.shape[:2] != (INPUT, INPUT):
            interp = cv2.INTER_AREA if min(c.shape[:2]) > INPUT else cv2.INTER_LINEAR
            c = cv2.resize(c, (INPUT, INPUT), interpolation=interp)
        small[i, :, :, : c.shape[2]] = c
    # (one pass over the batch: 0.4 ms less for a frame's 20 crops than crop by crop)
    colours = small[..., :3].astype(np.float32)
    colours -= colours.mean(axis=(1, 2, 3), keepdims=True)
    colours /= np.maximum(colours.std(axis=(1, 2, 3), keepdims=True), 4.0)
    out = np.empty((len(crops), CHANNELS, INPUT, INPUT), np.float32)
    out[:, :3] = colours.transpose(0, 3, 1, 2)
    out[:, 3] = small[..., 3] / np.float32(255.0)
    return out
