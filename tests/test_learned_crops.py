"""The crop convention the classifier relies on, and that it runs without torch."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from vision.learned.crops import CROP_FACTOR, INPUT, crop_die, to_input, warp_crop


def test_crop_is_centred_on_the_die_and_1_3_sides_wide():
    img = np.zeros((200, 300, 3), np.uint8)
    img[80, 120] = 255  # the die's centre
    crop = crop_die(img, 120, 80, 40)
    assert crop.shape == (round(CROP_FACTOR * 40), round(CROP_FACTOR * 40), 3)
    c = (crop.shape[0] - 1) / 2
    ys, xs = np.nonzero(crop[:, :, 0])
    assert abs(np.average(ys, weights=crop[ys, xs, 0]) - c) < 0.5
    assert abs(np.average(xs, weights=crop[ys, xs, 0]) - c) < 0.5


def test_turning_is_counter_clockwise_on_screen():
    img = np.zeros((100, 100, 3), np.uint8)
    img[40, 60] = 255  # 5 px right of (55, 40)
    crop = warp_crop(img, 55, 40, 11, 90)
    assert [tuple(p) for p in np.argwhere(crop[:, :, 0] > 0)] == [(0, 5)]  # now above


def test_network_input_is_normalised_per_crop():
    rng = np.random.default_rng(0)
    bright = (2 * rng.integers(50, 128, (INPUT, INPUT, 3))).astype(np.uint8)
    dark = bright // 2
    blob = to_input([bright, dark, np.resize(bright, (50, 50, 3))])
    assert blob.shape == (3, 3, INPUT, INPUT)
    assert np.allclose(blob.mean(axis=(1, 2, 3)), 0, atol=1e-4)
    assert np.allclose(blob[0], blob[1], atol=1e-4)  # exposure does not matter


def test_bad_crops_are_refused():
    with pytest.raises(ValueError, match="side must be > 0"):
        crop_die(np.zeros((10, 10, 3), np.uint8), 5, 5, 0)
    with pytest.raises(ValueError, match="H x W x 3"):
        crop_die(np.zeros((10, 10), np.uint8), 5, 5, 4)


def test_runs_without_torch():
    code = (
        "import sys, numpy as np\n"
        "from vision.learned import classify_faces\n"
        "print(classify_faces([np.zeros((40, 40, 3), np.uint8)], 'pips')[0][0])\n"
        "print('torch' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    assert out == ["None", "False"]
