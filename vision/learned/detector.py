"""Finding the dice of a frame with the learned detector (models/dice.onnx), run by OpenCV's dnn.

The network was taught dice of DIE_PX_RANGE pixels at its input, and the reader does not know the
dice's size before it has found them, so it looks coarse to fine: first the frame shrunk to
FIRST_SIDE pixels (dice that fill a good share of the frame are found there), then at the scale
that brings the dice found to WANT_PX pixels, or at SECOND_SIDE when none were found. A known
size (calibration, or the dice of the last frame) skips straight to the right scale: one pass.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).parent / "models"
ONNX_PATH = MODELS / "dice.onnx"
META_PATH = MODELS / "dice.json"
FIRST_SIDE = 192  # longest side of the first look (dice of 1/27 to 1/4 of the frame)
SECOND_SIDE = 512  # ...of the second when the first found nothing
WANT_PX = 16.0  # the dice's side at the network's input in the final look
GOOD_PX = (11.0, 30.0)  # a look whose dice are this big needs no other
MAX_INPUT_PX = 2_400_000  # the most input pixels a look may cost (4032 x 3024 frames)
MAX_UPSCALE = 1.5
PEAK = 0.25  # heat a centre needs to be a die at all (the reader weighs it after)
_lock = threading.Lock()


@dataclass(frozen=True)
class Found:
    """A die the detector sees, in frame pixels: top face centre and side, and its heat."""

    x: float
    y: float
    size: float
    cocked: bool
    score: float  # the heat of its centre, flat or cocked channel (0..1)
    flat_score: float
    cocked_score: float


def available() -> bool:
    return ONNX_PATH.exists() and META_PATH.exists()


@lru_cache(maxsize=1)
def _meta() -> dict:
    return json.loads(META_PATH.read_text())


@lru_cache(maxsize=1)
def _net():
    if not available():
        raise FileNotFoundError(
            f"{ONNX_PATH} is missing: train it with `python -m vision.learned.detect_train`"
        )
    return cv2.dnn.readNetFromONNX(str(ONNX_PATH))


def find_dice(frame: np.ndarray, die_size: float | None = None) -> list[Found]:
    """Every die the detector finds in a BGR frame; `die_size` (frame px) if known."""
    h, w = frame.shape[:2]
    longest = max(h, w)
    if die_size:
        return look(frame, _bounded(WANT_PX / die_size, h, w))
    scale = _bounded(FIRST_SIDE / longest, h, w)
    found = look(frame, scale)
    side = _median_side(found, scale)
    if side and GOOD_PX[0] <= side <= GOOD_PX[1]:
        return found
    scale = _bounded(scale * WANT_PX / side if side else SECOND_SIDE / longest, h, w)
    found = look(frame, scale)
    side = _median_side(found, scale)
    if side and side < GOOD_PX[0]:  # tiny dice on a big frame: one finer look
        finer = _bounded(scale * WANT_PX / side, h, w)
        if finer > scale * 1.2:
            found = look(frame, finer)
    return found


def _bounded(scale: float, h: int, w: int) -> float:
    most = (MAX_INPUT_PX / float(h * w)) ** 0.5
    return float(min(scale, most, MAX_UPSCALE))


def _median_side(found: list[Found], scale: float) -> float | None:
    if not found:
        return None
    sure = [f.size for f in found if f.score >= 0.5] or [f.size for f in found]
    return float(np.median(sure)) * scale


def look(frame: np.ndarray, scale: float) -> list[Found]:
    """The dice found with the frame resized by `scale`."""
    meta = _meta()
    h, w = frame.shape[:2]
    sw, sh = max(16, round(w * scale)), max(16, round(h * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(frame, (sw, sh), interpolation=interp)
    m = int(meta["multiple"])
    pw, ph = -(-sw // m) * m, -(-sh // m) * m
    if (pw, ph) != (sw, sh):
        small = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_REPLICATE)
    blob = cv2.dnn.blobFromImage(
        small, float(meta["scale"]), mean=(meta["mean"],) * 3, swapRB=False
    )
    with _lock:
        net = _net()
        net.setInput(blob)
        maps = np.asarray(net.forward(), np.float32)[0]
    sx, sy = sw / w, sh / h
    return decode(maps, meta, sx, sy, (sw, sh))


def decode(maps: np.ndarray, meta: dict, sx: float, sy: float, size: tuple[int, int]):
    """Peaks of the heat maps (3 x 3 local maxima above PEAK) turned into frame-pixel dice."""
    stride, ref = float(meta["stride"]), float(meta["size_ref"])
    heat = 1.0 / (1.0 + np.exp(-maps[:2]))
    both = heat.max(axis=0)
    peaks = (both >= cv2.dilate(both, np.ones((3, 3), np.uint8))) & (both >= PEAK)
    gh = -(-size[1] // int(stride))
    gw = -(-size[0] // int(stride))
    peaks[gh:], peaks[:, gw:] = False, False  # the padding
    out = []
    for i, j in zip(*np.nonzero(peaks), strict=True):
        side = ref * float(np.exp(maps[2, i, j]))
        x = (j + float(maps[3, i, j]) + 0.5) * stride - 0.5
        y = (i + float(maps[4, i, j]) + 0.5) * stride - 0.5
        flat, cocked = float(heat[0, i, j]), float(heat[1, i, j])
        out.append(
            Found(
                x=(x + 0.5) / sx - 0.5,
                y=(y + 0.5) / sy - 0.5,
                size=side / ((sx + sy) / 2),
                cocked=cocked > flat,
                score=max(flat, cocked),
                flat_score=flat,
                cocked_score=cocked,
            )
        )
    return _apart(out)


def _apart(found: list[Found]) -> list[Found]:
    """One die per centre: of two peaks closer than half a die, the hotter stays."""
    keep: list[Found] = []
    for f in sorted(found, key=lambda f: -f.score):
        if all(np.hypot(f.x - k.x, f.y - k.y) >= 0.5 * min(f.size, k.size) for k in keep):
            keep.append(f)
    return keep
