"""Finding the point below the camera of an oblique photo (vision/learned/nadir.py), on made-up
finds and a made-up classifier; the reader's use of it is measured by bench/bench_vision.py."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.learned.detector import Found
from vision.learned.nadir import (
    RING,
    find_nadir,
    looks_oblique,
    reads_better,
    toward_larger_dice,
)

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

    def read_faces(idx, below, over=None):
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


CENTRE = ((1280 - 1) / 2, (960 - 1) / 2)


def _towards(degrees: float, reach: float = 0.4) -> tuple[float, float]:
    a = math.radians(degrees)
    return (CENTRE[0] + reach * 1280 * math.cos(a), CENTRE[1] + reach * 1280 * math.sin(a))


def _angle(point) -> float:
    return math.degrees(math.atan2(point[1] - CENTRE[1], point[0] - CENTRE[0]))


def test_the_direction_the_dice_grow_and_read_best_is_taken():
    """The point below the camera lies down and to the right (60 degrees): the dice grow that
    way, and the classifier reads them best about it. The point taken is RING away, within half
    a step (22.5 degrees) of the true direction."""
    true = _towards(60)
    found = _grid(lambda x, y: 30 + 0.004 * x + 0.007 * y)
    below = toward_larger_dice(SHAPE, found, _classifier(true), range(len(found)))
    assert below is not None
    assert abs(_angle(below) - 60) <= 22.5
    assert math.hypot(below[0] - CENTRE[0], below[1] - CENTRE[1]) == pytest.approx(RING * 1280)


def test_a_direction_the_dice_do_not_grow_in_is_not_taken():
    """The classifier reads best toward the right but the dice grow toward the left: one of
    the two cues is wrong, and the centre is kept."""
    found = _grid(lambda x, y: 40 - 0.012 * x)
    assert toward_larger_dice(SHAPE, found, _classifier(_towards(0)), range(len(found))) is None
    grow_right = _grid(lambda x, y: 26 + 0.012 * x)
    assert toward_larger_dice(SHAPE, grow_right, _classifier(_towards(0)), range(12)) is not None


def test_the_centre_is_kept_when_no_direction_reads_clearly_better():
    found = _grid(lambda x, y: 26 + 0.012 * x)
    assert toward_larger_dice(SHAPE, found, _classifier(CENTRE), range(len(found))) is None
    slight = _classifier(_towards(0), sharp=50000.0)  # a little better, not half the cost
    assert toward_larger_dice(SHAPE, found, slight, range(len(found))) is None
    assert toward_larger_dice(SHAPE, found, _classifier(_towards(0)), [0, 1]) is None
    assert toward_larger_dice(SHAPE, found[:5], _classifier(_towards(0)), range(5)) is None


def test_a_point_given_from_elsewhere_is_taken_only_if_it_reads_the_dice_clearly_better():
    found = _grid(lambda x, y: 30.0)  # too few and too alike in size for the searches
    true = (639.5 + 0.45 * 1280, 479.5)
    guess = (true[0] - 60, true[1] + 80)  # a fit of few dice: near the point, not on it
    assert reads_better(SHAPE, found, _classifier(true), range(len(found)), guess)
    wrong = (639.5 - 0.45 * 1280, 479.5)  # the other way
    assert not reads_better(SHAPE, found, _classifier(true), range(len(found)), wrong)
    # a little better than the centre is not enough: the centre keeps the benefit of the doubt
    assert not reads_better(SHAPE, found, _classifier(true, sharp=1e5), range(len(found)), guess)
    assert not reads_better(SHAPE, found, _classifier(true), [0, 1], guess)  # two dice say nothing


def _every_direction_read(shape, found, read_faces, surely):
    """toward_larger_dice as it was until session 67, every direction read: the oracle."""
    from vision.learned.nadir import (
        AGREE,
        DIRECTIONS,
        RATIO,
        RING_ANCHORS,
        _clearly_better,
        _cost,
        _farthest,
        _size_slope,
    )

    slope = _size_slope(found, shape)
    anchors = _farthest(shape, found, surely, RING_ANCHORS)
    if slope is None or len(anchors) < 3:
        return None
    cx, cy, length = (shape[1] - 1) / 2, (shape[0] - 1) / 2, max(shape[:2])

    def at(degrees):
        a = math.radians(degrees)
        return (cx + RING * length * math.cos(a), cy + RING * length * math.sin(a))

    step = 360.0 / DIRECTIONS
    centre = _cost(read_faces(anchors, None))
    costs = [_cost(read_faces(anchors, at(k * step))) for k in range(DIRECTIONS)]
    best = int(np.argmin(costs))
    angle, least = best * step, costs[best]
    if not _clearly_better(centre, least, RATIO):
        return None
    grows = math.degrees(math.atan2(slope[2], slope[1]))
    if abs((angle - grows + 180) % 360 - 180) > AGREE:
        return None
    for half in (angle - step / 2, angle + step / 2):
        c = _cost(read_faces(anchors, at(half)))
        if c < least:
            angle, least = half, c
    return at(angle)


def test_the_directions_read_first_give_the_same_point_as_reading_all_eight():
    """Session 67 reads the directions within AGREE of where the dice grow first, and the
    others only when one of those reads clearly better than the centre: on 400 made-up frames
    (a true point anywhere, sizes growing toward it or anywhere, noisy readings) the point is
    the one the search reading all eight gives, and most frames read fewer directions."""
    rng = np.random.default_rng(67)
    taken = fewer = 0
    for _ in range(400):
        true = tuple(rng.uniform(-600, 1900, 2))
        gx, gy = rng.normal(0, 0.01, 2)
        if rng.random() < 0.5:  # an oblique photo: the dice grow toward the point below
            a = math.atan2(true[1] - 479.5, true[0] - 639.5)
            gx, gy = 0.01 * math.cos(a), 0.01 * math.sin(a)
        found = _grid(lambda x, y, gx=gx, gy=gy: 30 + gx * (x - 640) + gy * (y - 480))
        noise = rng.uniform(0.0, 0.3)
        wobble = {}
        sure = _classifier(true, sharp=rng.uniform(100, 3000))

        def read_faces(idx, below, over=None, sure=sure, noise=noise, wobble=wobble):
            key = None if below is None else (round(below[0], 6), round(below[1], 6))
            wobble.setdefault(key, rng.uniform(1 - noise, 1))
            return sure(idx, below) * wobble[key]

        calls = []

        def counted(idx, below, over=None, read_faces=read_faces, calls=calls):
            calls.append(below)
            return read_faces(idx, below)

        surely = range(len(found))
        got = toward_larger_dice(SHAPE, found, counted, surely)
        assert got == _every_direction_read(SHAPE, found, read_faces, surely)
        taken += got is not None
        fewer += len(calls) < 9
    assert taken >= 30 and fewer >= 300, (taken, fewer)  # both paths were taken


def test_a_centre_read_so_surely_that_no_point_can_gain_sends_for_no_other_reading():
    """Where the centre reads the sure dice within GAIN of certainty (a camera above the table
    whose frame a misread die sent to the search), no point can come under the bar: the
    searches answer without reading any (a Strike speed frame's 96 crops, 50-80 ms, session
    71), and give what reading them would have."""
    found = _grid(lambda x, y: 40 - 0.012 * x)  # dice shrinking across: the search runs
    points = []

    def read_faces(idx, below, over=None):
        if below is not None:
            points.append(below)
        return np.full(len(idx), 0.999 if below is None else 0.5)

    surely = range(len(found))
    assert find_nadir(SHAPE, found, read_faces, surely) is None
    assert toward_larger_dice(SHAPE, _grid(lambda x, y: 26 + 0.012 * x), read_faces, surely) is None
    assert not reads_better(SHAPE, found, read_faces, surely, _towards(0))
    assert points == []
    # a centre short of certainty by more than GAIN is still searched
    unsure = _classifier(_towards(0, 0.5), sharp=3000.0)
    assert find_nadir(SHAPE, found, unsure, surely) == _towards(0, 0.5)
