"""Strike through the camera loop with a scripted reader: a misread never reaches the record.

The camera shows scene after scene (each a different picture, so the watcher sees motion between
them); the reader says what it "sees" in each, right or wrong. The loop must keep the last scene
that agreed with the record (`before`) and ask the players whenever the scene does not add up.
"""

from __future__ import annotations

import numpy as np
import pytest

from kiosk.camera_loop import CameraLoop
from kiosk.config import load_config
from kiosk.table import Table
from vision import Die, Readings

FPS = 30


class ScriptedTable:
    """Frames of numbered scenes, each read as the script says (a missed die is simply absent)."""

    def __init__(self):
        self.scene = 0
        self.seen: list[Die] = []
        self.t = 0.0

    def show(self, seen: list[tuple], scene: int | None = None) -> None:
        self.scene = self.scene + 1 if scene is None else scene
        self.seen = [_die(*d) for d in seen]

    def read(self) -> np.ndarray:
        self.t += 1 / FPS
        frame = np.zeros((120, 160, 3), np.uint8)
        x = 10 + 12 * (self.scene % 10)
        frame[40:80, x : x + 12] = 255  # a different picture for each scene
        return frame

    def reader(self, frame, **kw) -> Readings:
        return Readings("strike", tuple(self.seen), None, 1.0, (160, 120))


def _die(face, x, y, in_arena=True, confidence=0.99):
    return Die(face, float(x), float(y), 30.0, in_arena, False, confidence)


@pytest.fixture
def rig(tmp_path):
    table = Table(load_config(None, data_dir=str(tmp_path)))
    table.new_game({"game": "strike", "players": ["Ana", "Ben"]})
    cam = ScriptedTable()
    loop = CameraLoop(table, cam, reader=cam.reader, frame_time=lambda: cam.t)
    yield table, cam, loop
    table.log.close()


def _settle(loop, cam, seconds=0.5):
    decisions = []
    end = cam.t + seconds
    while cam.t < end:
        d = loop.step()
        if d is not None:
            decisions.append(d)
    return decisions


def _arena(table):
    return table.state.view()["arena"]


def test_a_missed_die_after_a_throw_is_asked_not_recorded(rig):
    table, cam, loop = rig
    cam.show([(4, 300, 200)])
    _settle(loop, cam)
    assert _arena(table) == [4]
    cam.show([(4, 300, 200), (6, 500, 200)])  # the 6 landed in the arena
    _settle(loop, cam)
    assert _arena(table) == [4, 6]
    seq = table.seq
    # Ana goes on: her die lands in the arena and the reader misses the 4. It looks as if the 4
    # left the arena, but no die is seen outside it.
    cam.show([(6, 500, 200), (2, 400, 300)])
    _settle(loop, cam)
    assert table.seq == seq, "nothing reaches the record"
    assert table.pending is not None and "vanished" in table.pending.reasons


def test_a_die_knocked_out_and_seen_beside_the_box_is_recorded(rig):
    table, cam, loop = rig
    cam.show([(4, 300, 200)])
    _settle(loop, cam)
    cam.show([(4, 300, 200), (6, 500, 200)])
    _settle(loop, cam)
    cam.show([(6, 500, 200), (2, 400, 300), (4, 900, 50, False)])  # the 4 knocked out
    _settle(loop, cam)
    assert table.pending is None
    assert _arena(table) == [2, 6] and table.state.view()["out_of_game"] == 1


def test_after_the_players_answer_the_still_scene_is_read_again(rig):
    table, cam, loop = rig
    cam.show([(4, 300, 200)])
    _settle(loop, cam)
    cam.show([(6, 500, 200)])  # the reader misses the 4 next to the new 6
    _settle(loop, cam)
    assert table.pending is not None
    table.reroll(table.pending.id)  # the players close it and enter what lies there
    table.submit({"act": "throw", "seat": 0, "arena": [4, 6]}, source="kiosk")
    cam.seen = [_die(4, 300, 200), _die(6, 500, 200)]  # same picture, now read right
    looked = _settle(loop, cam)
    assert [d.kind for d in looked] == ["ignore"], "the still scene is read once more"
    cam.show([(4, 300, 200), (6, 500, 200), (3, 400, 100)])
    _settle(loop, cam)
    assert table.pending is None, "the next throw is checked against that reading"
    assert _arena(table) == [3, 4, 6]


def test_a_scene_caught_while_the_players_tidy_is_asked(rig):
    table, cam, loop = rig
    cam.show([(4, 300, 200)])
    _settle(loop, cam)
    cam.show([(4, 300, 200), (4, 500, 200)])  # a pair: taken at once, the turn passes to Ben
    _settle(loop, cam)
    assert _arena(table) == [] and table.state.view()["turn"] == 1
    cam.show([(4, 500, 200)])  # one 4 taken, the other still in the hand's way: no throw yet
    _settle(loop, cam)
    assert table.seq == 2 and table.pending is not None


def test_a_die_read_cocked_that_nobody_throws_again_goes_to_the_players(rig):
    table, cam, loop = rig
    cam.show([(4, 300, 200)])
    _settle(loop, cam)
    cam.show([(4, 300, 200), (None, 500, 200)])
    cam.seen = [_die(4, 300, 200), Die(None, 500.0, 200.0, 30.0, True, True, 0.9)]  # "cocked"
    decisions = _settle(loop, cam)
    assert [d.kind for d in decisions] == ["reroll"] and table.pending is None
    # Nobody throws it again (the die lies flat: the reader was wrong): the table must not wait
    # for ever. It looks again, and since the die still looks cocked, the players are asked.
    _settle(loop, cam, seconds=5.0)
    assert table.pending is not None and table.pending.reasons == ["cocked"]
    assert table.seq == 1, "nothing recorded"


def test_a_throw_that_interrupts_the_second_look_is_still_decided(rig):
    table, cam, loop = rig
    cam.show([(4, 300, 200)])
    _settle(loop, cam)
    cam.show([(6, 500, 200)])  # the reader misses the 4 next to the new 6: asked
    _settle(loop, cam)
    table.reroll(table.pending.id)
    table.submit({"act": "throw", "seat": 0, "arena": [4, 6]}, source="kiosk")
    loop.step()  # the table starts its second look at the still scene...
    cam.show([(4, 300, 200), (6, 500, 200), (3, 400, 100)])  # ...and Ana throws at once
    decisions = _settle(loop, cam)
    assert decisions and decisions[-1].kind != "ignore", "the throw is not taken for the look"
