"""Running the face classifier with OpenCV's dnn module: no torch at run time.

The network and its metadata (faces.json: classes, input size, per-kind temperatures) are loaded
once and kept. A batch of crops goes through the network in one forward pass; each kind takes the
softmax of its own faces plus "cocked" and "none" at its calibrated temperature, so a confidence
of 0.9 or more was right at least 99 % of the time on held-out generated crops.
"""

from __future__ import annotations

import json
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np

from .classes import CLASSES, COCKED, NONE, check_kind, kind_classes, kind_indices
from .crops import CHANNELS, CROP_FACTOR, INPUT, to_input
from .onnx_net import read_onnx

MODELS = Path(__file__).parent / "models"
ONNX_PATH = MODELS / "faces.onnx"
META_PATH = MODELS / "faces.json"
_lock = threading.Lock()  # a cv2.dnn.Net is not safe to run from two threads at once


def available(kind: str) -> bool:
    """True when the model file is there and knows this kind's faces."""
    check_kind(kind)
    if not (ONNX_PATH.exists() and META_PATH.exists()):
        return False
    try:
        return kind in _meta()["temperatures"]
    except (OSError, ValueError, KeyError):
        return False


@lru_cache(maxsize=1)
def _meta() -> dict:
    meta = json.loads(META_PATH.read_text())
    classes = tuple(meta["classes"])
    made = (classes, meta["input"], meta.get("channels", 3), meta.get("crop_factor", 1.3))
    if made != (CLASSES, INPUT, CHANNELS, CROP_FACTOR):
        raise ValueError(
            f"{META_PATH}: model made for classes {classes} at {made[1]} px, {made[2]} planes,"
            f" crops {made[3]} x the die; expected {CLASSES} at {INPUT} px, {CHANNELS} planes,"
            f" crops {CROP_FACTOR} x the die: retrain (python -m vision.learned.train)"
        )
    return meta


@lru_cache(maxsize=1)
def _net():
    if not ONNX_PATH.exists():
        raise FileNotFoundError(
            f"{ONNX_PATH} is missing: train it with `python -m vision.learned.train`"
        )
    return read_onnx(ONNX_PATH)


def logits(crops: list[np.ndarray]) -> np.ndarray:
    """Raw network outputs, N x len(CLASSES)."""
    if not len(crops):
        return np.zeros((0, len(CLASSES)), np.float32)
    blob = to_input(crops)
    with _lock:
        net = _net()
        net.setInput(blob)
        out = net.forward()
    return np.asarray(out, np.float32).reshape(len(crops), len(CLASSES))


def probabilities(crops: list[np.ndarray], kind: str) -> np.ndarray:
    """N x (faces of the kind, "cocked", "none") calibrated probabilities, in kind_classes(kind)
    order."""
    check_kind(kind)
    z = logits(crops)[:, kind_indices(kind)] / float(_meta()["temperatures"][kind])
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def classify_faces(crops: list[np.ndarray], kind: str) -> list[tuple[object, float]]:
    """(face, probability) per crop; face None when the crop shows no readable flat die (a
    cocked die, the table, half a die, two dice: vision/read_learned.py tells the first apart).
    Crops follow vision.learned.crops.crop_die: a square of CROP_FACTOR x the die's side centred
    on its top face, turned outward, BGR and the reach plane, any size (resized to the
    network's)."""
    p = probabilities(crops, kind)
    names = kind_classes(kind)
    best = p.argmax(axis=1)
    return [
        (None if names[b] in (COCKED, NONE) else names[b], float(p[i, b]))
        for i, b in enumerate(best)
    ]
