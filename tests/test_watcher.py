"""vision.Watcher: moving / settled from frame differences, reading only when still, voting."""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_draw import scatter, table

from vision import Die, Ellipse, Readings, Watcher, vote


def _frames():
    still = table(seed=1)
    scatter(still, [2, 5], 48, places=[(200, 200), (420, 260)])
    rolling = []
    for i in range(4):
        f = table(seed=1)
        scatter(f, [3, 1], 48, places=[(100 + 60 * i, 150 + 20 * i), (500 - 50 * i, 380)])
        rolling.append(f)
    return still, rolling


class CountingReader:
    def __init__(self):
        self.calls = 0

    def __call__(self, frame, **kw):
        from vision import read

        self.calls += 1
        return read(frame, **kw)


def test_reads_while_still_and_votes_when_the_settle_window_ends():
    still, rolling = _frames()
    reader = CountingReader()
    w = Watcher("pips", arena="none", settle_s=0.3, votes=3, reader=reader)
    frames = rolling + [still] * 10
    events = [w.feed(f, i / 10) for i, f in enumerate(frames)]
    kinds = [(e.kind, round(e.t, 1)) for e in events if e]
    # still from t=0.4 (the first still frame still differs from the last rolling one): reads at
    # 0.5, 0.6, 0.7 and settles at 0.7, the window's end, with the last three readings
    assert kinds == [("settled", 0.7)]
    assert reader.calls == 3
    assert w.feed(still, 1.5) is None and reader.calls == 3  # settled: no more reading
    settled = [e for e in events if e][0].readings
    assert sorted(d.face for d in settled.dice) == [2, 5]
    assert w.state == "settled"


def test_motion_after_settling_says_moving_and_reads_again():
    still, rolling = _frames()
    w = Watcher("pips", arena="none", settle_s=0.0, votes=1)
    assert w.feed(rolling[0], 0.0) is None  # first frame: nothing to compare with yet
    assert w.feed(still, 0.1) is None  # it changed, but the watcher starts out "moving"
    assert w.feed(still, 0.2).kind == "settled"
    assert w.feed(still, 0.3) is None  # still settled: no new reading
    assert w.feed(rolling[1], 0.4).kind == "moving"
    assert w.state == "moving"


def test_sensor_noise_is_not_motion():
    base = table(seed=2)
    scatter(base, [4], 48)
    rng = np.random.default_rng(0)
    w = Watcher("pips", arena="none", settle_s=0.2, votes=2)
    events = []
    for i in range(8):
        noisy = (base + rng.normal(0, 4, base.shape)).clip(0, 255).astype(np.uint8)
        events.append(w.feed(noisy, i * 0.1))
    assert [e.kind for e in events if e] == ["settled"]


def _die(face, x=100.0, conf=0.95, cocked=False):
    return Die(face, x, 100.0, 40.0, True, cocked, conf)


def test_vote_keeps_the_majority_and_lowers_confidence_on_disagreement():
    r = [
        Readings("pips", (_die(3), _die(5, x=300))),
        Readings("pips", (_die(3), _die(6, x=300))),
        Readings("pips", (_die(3), _die(5, x=300))),
    ]
    v = vote(r)
    assert [d.face for d in v.dice] == [3, 5]
    assert v.dice[0].confidence == pytest.approx(0.95)
    assert v.dice[1].confidence == pytest.approx(0.95 * 2 / 3)


def test_vote_drops_a_die_seen_in_a_minority_of_frames_and_keeps_cocked():
    r = [
        Readings("pips", (_die(None, cocked=True), _die(2, x=300))),
        Readings("pips", (_die(None, cocked=True),)),
        Readings("pips", (_die(4, conf=0.5),)),
    ]
    v = vote(r)
    assert len(v.dice) == 1 and v.dice[0].cocked and v.dice[0].face is None


def test_a_die_read_a_little_off_in_one_frame_is_one_die_of_the_vote():
    """Two flat dice are a side apart: a die's readings 0.6 of a side apart are one die (at half
    a side they made two dice of one frame each, and neither had a majority)."""
    r = [Readings("pips", (_die(4),)), Readings("pips", (_die(4, x=124),))]
    v = vote(r)
    assert [d.face for d in v.dice] == [4]
    assert v.dice[0].confidence == pytest.approx(0.95)
    apart = [
        Readings("pips", (_die(4), _die(2, x=140))),
        Readings("pips", (_die(4), _die(2, x=140))),
    ]
    assert [d.face for d in vote(apart).dice] == [4, 2]


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="votes"):
        Watcher("pips", votes=0)
    with pytest.raises(ValueError, match="dice kind"):
        Watcher("dominoes")


def test_only_the_last_votes_readings_of_the_still_window_are_voted_over():
    still, rolling = _frames()
    faces = iter([1, 6, 6, 2, 2, 2])

    def reader(frame, **kw):
        return Readings("pips", (_die(next(faces)),))

    w = Watcher("pips", arena="none", settle_s=0.3, votes=2, reader=reader)
    events = [w.feed(f, i / 10) for i, f in enumerate([rolling[0], rolling[1]] + [still] * 6)]
    settled = [e for e in events if e]
    # the still scene starts at 0.2 (that frame still differs from the rolling one); reads 1, 6, 6
    # at 0.3, 0.4, 0.5 and settles at 0.5, the window's end, on the last two, which agree
    assert [(e.kind, round(e.t, 1)) for e in settled] == [("settled", 0.5)]
    assert [d.face for d in settled[0].readings.dice] == [6]
    assert settled[0].readings.dice[0].confidence == pytest.approx(0.95)


ARENA = Ellipse(320, 240, 200, 150, 0)


class HintReader:
    """A reader that sees two dice of side 48 unless told to look for another size."""

    def __init__(self):
        self.sizes = []
        self.arenas = []

    def __call__(self, frame, dice, calibration=None, arena="auto"):
        size = calibration.die_size if calibration else None
        self.sizes.append(size)
        found = () if size and abs(size - 48) > 10 else (_die(2), _die(5, x=300.0))
        return Readings(
            "pips",
            tuple(Die(d.face, d.x, 50.0, 48.0, confidence=0.95) for d in found),
            frame_size=(640, 480),
        )


def test_the_dice_last_settled_on_tell_the_reader_their_size():
    still, rolling = _frames()
    reader = HintReader()
    w = Watcher("pips", arena="none", settle_s=0.2, votes=2, reader=reader)
    for i, f in enumerate(rolling + [still] * 4):
        w.feed(f, i / 10)
    assert reader.sizes and reader.sizes[0] is None  # nothing settled yet: no hint
    reader.sizes.clear()
    for i, f in enumerate(rolling + [still] * 4):
        w.feed(f, 2 + i / 10)
    assert reader.sizes and all(s == 48.0 for s in reader.sizes)
    assert all(a == ARENA for a in reader.arenas[-len(reader.sizes) :])  # no search


def test_a_hint_that_finds_nothing_is_dropped_for_that_reading():
    reader = HintReader()
    w = Watcher("pips", arena="none", reader=reader)
    w._hint = (20.0, (640, 480), None)  # dice of another size than those now on the table
    got = w._read(table(seed=1))
    assert reader.sizes == [20.0, None] and len(got.dice) == 2
