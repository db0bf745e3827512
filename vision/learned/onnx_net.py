"""Loading our ONNX networks into OpenCV's dnn module, with the engine that runs them fastest."""

from __future__ import annotations

import tempfile
from pathlib import Path

import cv2
import numpy as np

from .widen import widened


def read_onnx(path: Path) -> cv2.dnn.Net:
    """The network at `path`, its stored weights widened to float32 (widen.py), on OpenCV 5's
    classic engine where there is a choice.

    Every OpenCV is given the same plain float32 network: 4.6, which Raspberry Pi OS Bookworm
    ships, reads neither float16 weights nor the int8 weights' DequantizeLinear (without a zero
    point), which OpenCV 5 folds itself. The widened network goes through a temporary file,
    since OpenCV 5.0 reads a network from memory on its new engine whatever engine it is asked
    for. OpenCV 5 picks its new engine by default; on this machine the classic one runs the
    detector at 384 x 288 in 6.6 ms instead of 8.2 and the classifier's batch of 20 crops in
    7.9 ms instead of 8.5, with the same outputs to 3e-5 (session 11, docs/vision-history.md).
    OpenCV 4.x has only the classic engine and no `engine` argument; OpenCV 5.1 has no
    ENGINE_CLASSIC (its default, ENGINE_OPENCV, is taken). ValueError when the file is not an
    ONNX model.
    """
    data = Path(path).read_bytes()
    wide = widened(data)
    if wide is data:
        return _read(str(path))
    try:
        with tempfile.TemporaryDirectory(prefix="arbitre-net-") as folder:
            plain = Path(folder) / Path(path).name
            plain.write_bytes(wide)
            return _read(str(plain))
    except OSError:  # (no room or no writable temporary folder: from memory, on any engine)
        return _read(np.frombuffer(wide, np.uint8))


def _read(source) -> cv2.dnn.Net:
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if engine is None:
        return cv2.dnn.readNetFromONNX(source)
    return cv2.dnn.readNetFromONNX(source, engine=engine)
