"""Where a find's die really lies: the refiner network, read on a wide crop around the find.

The detector sees the whole frame small, and among dice touching others, or on an oblique
photo, it puts some finds a third to half a side off their die's top face; the classifier, taught
crops off by an eighth at most, then reads the die cocked or sees none, and the reader loses it
(docs/vision-history.md, session 35: given a perfect find, the classifier reads back 20 of seed
1's 33 pips errors and 28 of its 42 Détrak ones). The refiner sees REFINE_FACTOR sides around the
find, turned outward as the classifier's crops are, and says where the nearest die's top face
lies and how big it is (refine_data.py teaches it on the detector's own finds and drawn ones).
The reader asks it only of the finds it is about to lose (vision/refined_look.py): about
five in three benchmark frames of four, 0.66 ms a find; none in the speed frames.
"""

from __future__ import annotations

import math
import threading
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .axis_data import turned
from .crops import outward_angle, outward_crop, to_input
from .detector import Found
from .onnx_net import read_onnx
from .refine_data import REFINE_FACTOR

MODEL = Path(__file__).parent / "models" / "refine.onnx"
_lock = threading.Lock()


def available() -> bool:
    return MODEL.exists()


@lru_cache(maxsize=1)
def _net(path: Path) -> cv2.dnn.Net:
    return read_onnx(path)


def refined(frame: np.ndarray, finds: list[Found]) -> list[Found]:
    """Each find moved to where the refiner puts its die's top face, and sized as it says; its
    heat kept (the report's rules still ask what the detector saw there)."""
    if not finds:
        return []
    crops = [outward_crop(frame, f.x, f.y, REFINE_FACTOR * f.size) for f in finds]
    with _lock:
        net = _net(MODEL)
        net.setInput(to_input(crops))
        where = np.asarray(net.forward(), np.float32).reshape(-1, 3)
    out = []
    for f, (dx, dy, log_size) in zip(finds, where, strict=True):
        angle = outward_angle(frame.shape, f.x, f.y)
        vx, vy = turned((dx * f.size, dy * f.size), -angle)
        out.append(replace(f, x=f.x + vx, y=f.y + vy, size=f.size * math.exp(log_size)))
    return out
