"""The point below the camera from the flat dice's side faces (vision/learned/axis.py)."""

import numpy as np
import pytest

from vision.learned import axis
from vision.learned.axis import fitted_point, point_below, to_blob
from vision.learned.axis_data import axis_crops, turned
from vision.learned.crops import warp_crop
from vision.synth.scene import render_scene


def test_every_flat_die_of_a_tilted_photo_shows_its_bottom_towards_the_point_below_the_camera():
    scene = render_scene("pips", np.random.default_rng(4), tilt=22.0, frame=(1280, 960))
    below = np.array(scene.below)
    assert np.linalg.norm(below - (640, 480)) > 150  # well off the centre at 22 degrees
    flat = [t for t in scene.dice if not t.cocked]
    assert len(flat) >= 4 and all(t.bottom is not None for t in flat)
    assert all(t.bottom is None for t in scene.dice if t.cocked)
    for t in flat:
        offset, towards = np.subtract(t.bottom, (t.x, t.y)), below - (t.x, t.y)
        cos = offset @ towards / (np.linalg.norm(offset) * np.linalg.norm(towards))
        assert cos > 0.99


def test_the_law_of_the_offsets_gives_back_the_point_below_the_camera_from_the_truth():
    scene = render_scene(
        "strike", np.random.default_rng(11), tilt=18.0, frame=(1280, 960), n_dice=12, cocked=1
    )
    flat = [t for t in scene.dice if not t.cocked]
    points = [(t.x, t.y) for t in flat]
    offsets = [np.subtract(t.bottom, (t.x, t.y)) / t.size for t in flat]
    found = point_below(points, offsets, scene.image.shape)
    assert found is not None
    assert np.hypot(*np.subtract(found, scene.below)) < 0.03 * 1280


def test_the_fit_outvotes_dice_that_disagree_and_declines_what_it_cannot_tell():
    rng = np.random.default_rng(0)
    below, g = np.array([900.0, -200.0]), 1 / 1100
    points = rng.uniform(0, 1000, (12, 2))
    offsets = g * (below - points) + rng.normal(0, 0.01, (12, 2))
    offsets[:3] = rng.uniform(-0.6, 0.6, (3, 2))  # three cocked dice
    shape = (1000, 1000)
    found = point_below(points, offsets, shape)
    assert found is not None and np.hypot(*np.subtract(found, below)) < 40
    assert point_below(points[:3], offsets[:3], shape) is None  # too few dice
    assert point_below(points, -g * (below - points), shape) is None  # the offsets fan out


def test_a_fit_of_three_dice_or_of_dice_that_disagree_is_given_as_unagreed():
    """The reader checks such a point by reading the dice about it (read_learned._oblique_view):
    the fit gives it, and says the dice did not agree on it."""
    rng = np.random.default_rng(1)
    below, g, shape = np.array([1500.0, 400.0]), 1 / 1100, (1000, 1000)
    points = rng.uniform(0, 1000, (5, 2))
    exact = g * (below - points)
    (point, agreed) = fitted_point(points[:3], exact[:3], shape)
    assert not agreed and point_below(points[:3], exact[:3], shape) is None
    # the prior pulls it towards the centre; the direction stays
    centre = np.array([499.5, 499.5])
    way, true_way = np.subtract(point, centre), below - centre
    cos = way @ true_way / (np.linalg.norm(way) * np.linalg.norm(true_way))
    assert cos > np.cos(np.radians(10))
    assert np.linalg.norm(way) > 0.4 * 1000
    noisy = exact + rng.normal(0, 0.3, exact.shape)  # side faces misread by 0.3 sides
    fit = fitted_point(points, noisy, shape)
    assert fit is None or not fit[1]
    assert fitted_point(points[:2], exact[:2], shape) is None
    assert fitted_point(points, exact, shape) == (point_below(points, exact, shape), True)


def test_a_crops_offset_turns_with_the_crop():
    image = np.zeros((200, 200, 3), np.uint8)
    image[100 + 20, 100 + 30] = 255  # a mark 30 px right, 20 px down of (100, 100)
    for angle in (0.0, 35.0, 90.0, 250.0):
        crop = warp_crop(image, 100, 100, 101, angle)
        y, x = np.unravel_index(crop[..., 0].argmax(), crop.shape[:2])
        expected = turned((30, 20), angle) + 50
        assert np.hypot(x - expected[0], y - expected[1]) <= 1.0


def test_axis_crops_are_reproducible_and_hold_only_flat_dice():
    a, oa = axis_crops("detrak", 2, 5)
    b, ob = axis_crops("detrak", 2, 5)
    assert a.shape[1:] == (32, 32, 3) and len(a) == len(oa) > 0
    assert np.array_equal(a, b) and np.array_equal(oa, ob)
    assert np.all(np.linalg.norm(oa, axis=1) < 2.0)  # a die's bottom lies within its crop


def test_a_crop_of_the_wrong_shape_is_refused_with_what_was_expected():
    with pytest.raises(ValueError, match="H x W x 3"):
        to_blob([np.zeros((32, 32, 2), np.uint8)])


@pytest.mark.parametrize("kind", ["strike", "pips", "detrak"])
def test_each_kinds_axis_network_places_the_point_below_an_oblique_photos_camera(kind):
    scene = render_scene(
        kind, np.random.default_rng(21), tilt=20.0, frame=(1280, 960), n_dice=14, cocked=0
    )
    flat = [t for t in scene.dice if not t.cocked and t.visible > 0.85]
    offsets = axis.offsets(scene.image, [(t.x, t.y, t.size) for t in flat], kind)
    below = point_below([(t.x, t.y) for t in flat], offsets, scene.image.shape, kind=kind)
    assert np.hypot(*np.subtract((639.5, 479.5), scene.below)) > 0.2 * 1280
    assert below is not None and np.hypot(*np.subtract(below, scene.below)) < 0.08 * 1280


def test_the_reader_turns_strike_crops_about_the_point_only_when_it_lies_off_the_centre():
    from vision import read_learned
    from vision.learned.detector import SURE, find_dice

    assert "strike" in read_learned.AXIS_KINDS
    for tilt, off_centre in ((22.0, True), (0.0, False)):
        scene = render_scene(
            "strike", np.random.default_rng(8), tilt=tilt, frame=(1280, 960), n_dice=14, cocked=0
        )
        flat = [f for f in find_dice(scene.image) if not f.cocked and f.score >= SURE]
        dice = [(f.x, f.y, f.size) for f in flat]
        below = axis.fit_off_centre(scene.image, dice, read_learned.AXIS_FAR)
        if off_centre:
            points = [(x, y) for x, y, _ in dice]
            offsets = axis.offsets(scene.image, dice)
            _, agreed = axis.fitted_point(points, offsets, scene.image.shape)
            assert agreed and np.hypot(*np.subtract(below, scene.below)) < 0.08 * 1280
        else:
            assert below is None


def test_within_one_frame_each_dies_offset_is_read_once_and_read_the_same(monkeypatch):
    """axis.one_frame (session 67): a photo's reading asks for the offsets of mostly the same
    dice up to three times; within it the network reads each die once, and a die's offset is
    the one read alone, to the bit. Another frame, or no frame held, reads afresh."""
    scene = render_scene("pips", np.random.default_rng(4), tilt=22.0, frame=(1280, 960))
    dice = [(t.x, t.y, t.size) for t in scene.dice]
    alone = axis.offsets(scene.image, dice, "pips")
    read = []
    blob = axis.to_blob
    monkeypatch.setattr(axis, "to_blob", lambda crops: read.append(len(crops)) or blob(crops))
    with axis.one_frame(scene.image):
        first = axis.offsets(scene.image, dice[:-2], "pips")
        again = axis.offsets(scene.image, dice[::-1], "pips")
        other = axis.offsets(scene.image.copy(), dice[:3], "pips")
    assert read == [len(dice) - 2, 2, 3]
    assert np.array_equal(first, alone[:-2]) and np.array_equal(again, alone[::-1])
    assert np.array_equal(other, alone[:3])
    axis.offsets(scene.image, dice[:3], "pips")
    assert read[-1] == 3  # the frame is not held after its reading


def test_a_lighter_prior_lets_an_oblique_photos_heap_of_dice_place_a_far_point_nearer_the_truth():
    """Rule 223: the prior pulls a far point in, and a heap in one part of the frame says little
    against it. Pips and Strike weigh it 0.2 dice (their oblique renders read better so);
    Détrak and the kind-less fit keep 0.5."""
    rng = np.random.default_rng(3)
    shape, below, g = (1000, 1000), np.array([1100.0, 500.0]), 1 / 1150  # 0.6 frame lengths out
    points = rng.uniform((600, 350), (900, 650), (8, 2))
    offsets = g * (below - points) + rng.normal(0, 0.03, (8, 2))  # side faces read 0.03 sides off
    miss = {
        kind: np.hypot(*np.subtract(fitted_point(points, offsets, shape, kind=kind)[0], below))
        for kind in ("pips", "strike", "detrak", None)
    }
    assert miss["pips"] == miss["strike"] < 0.4 * miss["detrak"]
    assert miss["detrak"] == miss[None] > 0.015 * 1000  # pulled towards the centre
    assert miss["strike"] < 0.01 * 1000
