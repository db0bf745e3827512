"""The crop convention the classifier relies on, and that it runs without torch."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from vision.learned.crops import CHANNELS, CROP_FACTOR, FAR, INPUT, crop_die, to_input, warp_crop


def test_crop_is_centred_on_the_die_and_1_3_sides_wide():
    img = np.zeros((200, 300, 3), np.uint8)
    img[80, 120] = 255  # the die's centre
    crop = crop_die(img, 120, 80, 40)
    assert crop.shape == (round(CROP_FACTOR * 40), round(CROP_FACTOR * 40), CHANNELS)
    c = (crop.shape[0] - 1) / 2
    ys, xs = np.nonzero(crop[:, :, 0])
    assert abs(np.average(ys, weights=crop[ys, xs, 0]) - c) < 0.5
    assert abs(np.average(xs, weights=crop[ys, xs, 0]) - c) < 0.5


@pytest.mark.parametrize("x, y", [(250, 100), (40, 100), (150, 180), (150, 15), (280, 190)])
def test_crop_is_turned_so_that_away_from_the_frame_centre_is_up(x, y):
    """Perspective shows a flat die's side faces on the side away from the frame's centre: the
    classifier learns to expect them up, whatever the die's place."""
    img = np.zeros((200, 300, 3), np.uint8)
    cx, cy = 149.5, 99.5
    d = np.hypot(x - cx, y - cy)
    mx, my = x + 12 * (x - cx) / d, y + 12 * (y - cy) / d  # a mark further out than the die
    img[round(my), round(mx)] = 255
    crop = crop_die(img, x, y, 40)
    ys, xs = np.nonzero(crop[:, :, 0])
    c = (crop.shape[0] - 1) / 2
    assert len(ys) and np.all(ys < c - 8) and np.all(abs(xs - c) < 2.5)


def test_reach_plane_grows_from_the_centre_to_the_corners():
    img = np.zeros((300, 400, 3), np.uint8)
    middle, halfway, corner = (
        crop_die(img, x, y, 30)[0, 0, 3] for x, y in ((199.5, 149.5), (299.5, 149.5), (0, 0))
    )
    assert middle == 0
    assert halfway == round(255 * 0.25 / FAR)
    assert corner == round(255 * 250 / 400 / FAR)
    blob = to_input([crop_die(img, 0, 0, 30), np.zeros((32, 32, 3), np.uint8)])
    assert blob.shape == (2, CHANNELS, INPUT, INPUT)
    assert np.allclose(blob[0, 3], corner / 255) and np.all(blob[1, 3] == 0)


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
    assert blob.shape == (3, CHANNELS, INPUT, INPUT)
    assert np.allclose(blob[:, :3].mean(axis=(1, 2, 3)), 0, atol=1e-4)
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
