"""vision.shrink: the size asked for, and the same picture as OpenCV's area averaging."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.shrink import shrink


@pytest.mark.parametrize(
    "frame,size", [((1280, 960), (384, 288)), ((1920, 1080), (192, 108)), ((640, 480), (700, 525))]
)
def test_shrink_gives_the_size_and_the_picture(frame, size):
    w, h = frame
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.dstack([(xx * 255 // w), (yy * 255 // h), ((xx + yy) % 255)]).astype(np.uint8)
    img = cv2.GaussianBlur(img, (9, 9), 0)  # a smooth picture: resamplings must agree on it
    out = shrink(img, size)
    assert out.shape == (size[1], size[0], 3)
    ref = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
    assert np.abs(out.astype(int) - ref).mean() < 3.0
