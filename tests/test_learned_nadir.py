"""Finding the point below the camera of an oblique photo (vision/learned/nadir.py), on made-up
finds and a made-up classifier; the reader's use of it is measured by bench/bench_vision.py."""

from __future__ import annotations

import math

import numpy as np

from vision.learned.detector import Found
from vision.learned.nadir import find_nadir, looks_oblique

SHAPE = (960, 1280, 3)


def _grid(size_at) -> list[Found]:
    return [
        Found(x, y, size_at(x, y), flat_score=0.9, cocked_score=0.05)
        for x in range(160, 1280, 320)
        for y in range(160, 960, 320)
    ]


def test_dice_shrinking_across_the_frame_look_oblique():
    assert looks_oblique(_grid(lambda x, y: 40 - 0.012 * x), SHAPE)  # 40 -> 26 px: 20 degrees
    assert not looks_oblique(_grid(lambda x, y: 40 - 0.002 * x), SHAPE)  # a camera above
    assert not looks_oblique(_grid(lambda x, y: 40 - 0.012 * x)[:5], SHAPE)  # too few to tell


def _classifier(true_below, sharp=300.0):
    """Reads a die the surer the nearer `below` is to the true point (the frame's centre when
    None)."""

    def read_faces(idx, below):
        bx, by = below if below is not None else ((1280 - 1) / 2, (960 - 1) / 2)
        d = math.hypot(bx - true_below[0], by - true_below[1])
        return np.full(len(idx), 0.98 * math.exp(-d / sharp))

    return read_faces


def test_the_candidate_nearest_the_true_point_is_found():
    found = _grid(lambda x, y: 40 - 0.012 * x)
    true = (639.5 + 0.5 * 1280, 479.5)  # far to the right: a tilt of ~25 degrees
    below = find_nadir(SHAPE, found, _classifier(true), range(len(found)))
    assert below is not None and math.hypot(below[0] - true[0], below[1] - true[1]) < 1


def test_the_centre_is_kept_unless_another_point_reads_clearly_better():
    found = _grid(lambda x, y: 40 - 0.012 * x)
    centre = ((1280 - 1) / 2, (960 - 1) / 2)
    assert find_nadir(SHAPE, found, _classifier(centre), range(len(found))) is None
    # a candidate that reads the dice only a little better than the centre does
    near = (centre[0] + 0.25 * 1280, centre[1])
    assert find_nadir(SHAPE, found, _classifier(near, sharp=10000.0), range(len(found))) is None
    assert find_nadir(SHAPE, found, _classifier(near, sharp=3000.0), range(len(found))) == near
    # too few sure dice to say
    far = (centre[0] + 640, centre[1])
    assert find_nadir(SHAPE, found, _classifier(far), [0, 1]) is None
