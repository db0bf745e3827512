"""Loading our ONNX networks into OpenCV's dnn module, with the engine that runs them fastest."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .unhalve import unhalved


def read_onnx(path: Path) -> cv2.dnn.Net:
    """The network at `path`, on OpenCV 5's classic engine where there is a choice.

    OpenCV 5 picks its new engine by default; on this machine the classic one runs the detector
    at 384 x 288 in 6.6 ms instead of 8.2 and the classifier's batch of 20 crops in 7.9 ms instead
    of 8.5, with the same outputs to 3e-5 (session 11, docs/vision-history.md). OpenCV 4.x, which
    Raspberry Pi OS ships, has only the classic engine and no `engine` argument; OpenCV 5.1 has
    no ENGINE_CLASSIC (its default, ENGINE_OPENCV, is taken). An OpenCV that cannot read the
    halved networks' float16 weights (4.6, Raspberry Pi OS Bookworm's) is given them as float32.
    """
    try:
        return _read(str(path))
    except cv2.error as refused:
        data = Path(path).read_bytes()
        wide = unhalved(data)
        if wide == data:
            raise
        try:
            return _read(np.frombuffer(wide, np.uint8))
        except cv2.error:
            raise refused from None


def _read(source) -> cv2.dnn.Net:
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if engine is None:
        return cv2.dnn.readNetFromONNX(source)
    return cv2.dnn.readNetFromONNX(source, engine=engine)
