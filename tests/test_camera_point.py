"""vision/camera_point.py: the table learns the point below its camera from the throws it settles
on, and its later readings, which know the dice's size, turn their crops about that point.

The axis offsets are made up here to follow one law, offset = g (below - die), as a camera's
flat dice do (vision/learned/axis.py); the reader's own networks are not asked."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_vision_draw import scatter, table

from vision import Die, Readings, Watcher
from vision.calibration import Calibration
from vision.camera_point import LEAST, CameraPoint
from vision.learned import crops as crops_module

BELOW = (400.0, 150.0)  # the point below a camera leaning towards the frame's top right
G = 0.002  # die sides of offset a pixel away from it


def lawful(frame, dice, kind):
    """The offsets a camera with its point at BELOW gives dice (x, y, side)."""
    return np.array([(G * (BELOW[0] - x), G * (BELOW[1] - y)) for x, y, _ in dice], np.float32)


def _throw(rng, n=6, face=3, confidence=0.97, cocked=False):
    dice = tuple(
        Die(
            None if cocked else face,
            float(x),
            float(y),
            40.0,
            cocked=cocked,
            confidence=confidence,
        )
        for x, y in rng.uniform((40, 40), (600, 440), (n, 2))
    )
    return Readings("pips", dice, None, 1.0, (640, 480))


FRAME = np.zeros((480, 640, 3), np.uint8)


def test_a_few_throws_place_the_point_and_fewer_dice_give_none():
    cp = CameraPoint("pips", offsets=lawful)
    rng = np.random.default_rng(1)
    cp.learn(FRAME, _throw(rng, n=LEAST - 1))
    assert cp.point is None  # under LEAST dice: the frame's centre still
    cp.learn(FRAME, _throw(rng, n=6))
    assert cp.point == pytest.approx(BELOW, abs=8.0)
    assert cp.at((640, 480)) == cp.point
    assert cp.at((1280, 960)) is None  # another frame size: not this point's pixels


def test_only_sure_flat_faces_teach_it():
    """Cocked dice and faces the table asks about lie off the law: they are left out."""

    def wild(frame, dice, kind):  # a die read unsure or cocked would say this
        return np.array(
            [(0.5, -0.5) if x < 0 else lawful(frame, [(x, y, s)], kind)[0] for x, y, s in dice],
            np.float32,
        )

    cp = CameraPoint("pips", offsets=wild)
    rng = np.random.default_rng(2)
    for _ in range(9):  # 45 sure flat dice, and as many that must not teach
        cp.learn(FRAME, _throw(rng, n=5))
        unsure = _throw(rng, n=5, confidence=0.6)
        cocked = _throw(rng, n=5, cocked=True)
        moved = [Die(d.face, -d.x, d.y, d.size, confidence=d.confidence) for d in unsure.dice]
        cp.learn(FRAME, Readings("pips", tuple(moved) + cocked.dice, None, 1.0, (640, 480)))
    assert cp.point == pytest.approx(BELOW, abs=8.0)


def test_another_frame_size_starts_again():
    cp = CameraPoint("pips", offsets=lawful)
    rng = np.random.default_rng(3)
    cp.learn(FRAME, _throw(rng, n=LEAST))
    assert cp.point is not None
    cp.learn(np.zeros((960, 1280, 3), np.uint8), _throw(rng, n=3))
    assert cp.point is None and cp.at((640, 480)) is None


def test_the_calibration_keeps_the_point_and_scales_it():
    cal = Calibration((640, 480), None, 40.0, BELOW)
    again = Calibration.from_json(json.loads(json.dumps(cal.to_json())))
    assert again == cal
    assert cal.for_frame(1280, 960).below == (800.0, 300.0)
    old = {"version": 1, "frame_size": [640, 480], "arena": None, "die_size": 40.0}
    assert Calibration.from_json(old).below is None  # calibrations saved before session 72
    with pytest.raises(ValueError, match="below"):
        Calibration.from_json({**old, "below": "up there"})


def test_a_hinted_read_crops_about_the_point_and_a_photo_searches_its_own(monkeypatch):
    """A known die size is the table's camera: its crops are turned about the point it learned,
    at the first reading (no reading about the centre first). A photo's point is its own."""
    img = table(shape=(480, 640), seed=5)
    scatter(img, [1, 2, 3, 4], 40, "white", "black", seed=5)
    asked = []
    real = crops_module.outward_crop

    def spy(image, x, y, side, below=None, **kw):
        asked.append(below)
        return real(image, x, y, side, below=below, **kw)

    monkeypatch.setattr(crops_module, "outward_crop", spy)
    from vision import read

    read(img, "pips", Calibration((640, 480), None, 40.0, BELOW), arena="none")
    assert asked and all(b == BELOW for b in asked)
    asked.clear()
    read(img, "pips", Calibration((640, 480), None, None, BELOW), arena="none")
    assert BELOW not in asked  # no die size: a photo, read about its own point


class _Spy:
    """A reader that records the calibration it is given and sees the same six dice each time."""

    def __init__(self):
        self.calibrations = []
        self.rng = np.random.default_rng(4)

    def __call__(self, frame, dice, calibration=None, arena="none"):
        self.calibrations.append(calibration)
        return _throw(self.rng, n=6)


def _scenes(n):
    """Frames of n throws, each with its dice elsewhere (the watcher sees each throw move)."""
    frames = []
    for i in range(n):
        f = table(seed=1)
        scatter(f, [2, 5], 48, places=[(60 + 60 * i, 150), (580 - 50 * i, 330)])
        frames.append(f)
    return frames


def test_the_watcher_learns_the_point_from_its_throws_and_reads_about_it():
    spy = _Spy()
    w = Watcher(
        "pips",
        arena="none",
        settle_s=0.0,
        votes=1,
        reader=spy,
        camera_point=CameraPoint("pips", offsets=lawful),
    )
    throws = _scenes(9)
    t = 0.0
    for f in throws[:8]:  # eight throws of six dice: over LEAST
        for _ in range(3):
            w.feed(f, t)
            t += 0.1
    assert w.camera_point.point == pytest.approx(BELOW, abs=8.0)
    spy.calibrations.clear()
    for _ in range(3):
        w.feed(throws[8], t)
        t += 0.1
    assert spy.calibrations, "the fifth throw was read"
    assert spy.calibrations[-1].below == pytest.approx(BELOW, abs=8.0)
    assert spy.calibrations[-1].die_size == 40.0


def test_the_camera_loop_keeps_each_kinds_point_when_the_game_changes():
    """A new game makes a new watcher; the camera has not moved, so what was learned stays."""
    from kiosk.camera_loop import CameraLoop

    loop = CameraLoop(None, None)
    first = loop._new_watcher("pips")
    first.camera_point.point = BELOW
    again = loop._new_watcher("strike"), loop._new_watcher("pips")
    assert again[1].camera_point is first.camera_point and again[1].camera_point.point == BELOW
    assert again[0].camera_point is not first.camera_point  # its own network's offsets


def test_a_camera_knocked_askew_is_learned_again_within_the_last_throws():
    """Knister throws two dice: a pool of 240 dice would keep the old point the whole game (120
    throws); the last throws holding KEEP dice give the new one after half as many throws."""
    moved = (150.0, 380.0)

    def after_the_knock(frame, dice, kind):
        return np.array([(G * (moved[0] - x), G * (moved[1] - y)) for x, y, _ in dice], np.float32)

    cp = CameraPoint("pips", offsets=lawful)
    rng = np.random.default_rng(6)
    for _ in range(60):
        cp.learn(FRAME, _throw(rng, n=2))
    assert cp.point == pytest.approx(BELOW, abs=8.0)
    cp._offsets = after_the_knock
    for _ in range(20):
        cp.learn(FRAME, _throw(rng, n=2))
    assert cp.point == pytest.approx(moved, abs=8.0)


@pytest.mark.parametrize("kind", ["strike", "detrak"])
def test_strike_and_detrak_tables_read_about_the_centre(kind):
    """Their second fresh sample read no better about the learned point (session 72)."""
    cp = CameraPoint(kind, offsets=lawful)
    rng = np.random.default_rng(7)
    for _ in range(4):
        cp.learn(FRAME, _throw(rng, n=6))
    assert cp.point is None and cp.at((640, 480)) is None


class _Counting(CameraPoint):
    def __init__(self):
        super().__init__("pips", offsets=lawful)
        self.throws = 0

    def learn(self, frame, readings):
        self.throws += 1
        super().learn(frame, readings)


def test_a_throw_read_again_teaches_the_point_once():
    """The table reads a still scene again after the players answer (look_again): the same dice,
    which must not weigh twice in the pool. A new throw teaches again."""
    counting = _Counting()
    w = Watcher("pips", arena="none", settle_s=0.0, votes=1, reader=_Spy(), camera_point=counting)
    throws, t = _scenes(2), 0.0
    for _ in range(3):
        w.feed(throws[0], t)
        t += 0.1
    assert counting.throws == 1
    w.look_again()
    for _ in range(3):
        w.feed(throws[0], t)
        t += 0.1
    assert w.state == "settled" and counting.throws == 1
    for _ in range(3):
        w.feed(throws[1], t)
        t += 0.1
    assert counting.throws == 2
