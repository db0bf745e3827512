"""The simulated hand of `arbitre run --camera sim`: it throws what the table's game waits for."""

from __future__ import annotations

import pytest

from kiosk.config import load_config
from kiosk.sim_hand import SimTableSource
from kiosk.table import Table


@pytest.fixture
def table(tmp_path):
    t = Table(load_config(None, data_dir=str(tmp_path)))
    yield t
    t.log.close()


def _run(source: SimTableSource, seconds: float) -> None:
    end = source.now() + seconds
    while source.now() < end:
        source.read()


def _faces(source: SimTableSource) -> list:
    return sorted(str(d.plan.face) for d in source.cam.arena_dice())


def test_strike_hand_places_throws_and_waits_for_stop_or_go_on(table):
    table.new_game({"game": "strike", "players": ["Ana", "Ben"]})
    source = SimTableSource(table, size=(320, 240), seed=4)
    _run(source, 4)
    assert len(source.cam.arena_dice()) == 1, "the start die is placed"
    start = source.cam.arena_dice()[0].plan.face
    table.submit({"act": "start", "arena": [start]})
    _run(source, 5)
    thrown = source.cam.arena_faces()
    assert len(source.cam.resting()) == 2, "seat 0 threw its mandatory die"
    assert table.seq == 1, "the hand never writes to the record itself"
    assert len(set(map(str, thrown))) == len(thrown) and "X" not in thrown  # seed 4: no pair
    table.submit({"act": "throw", "seat": 0, "arena": thrown})
    assert table.state.view()["phase"] == "choose"
    _run(source, 2.5)
    assert len(source.cam.resting()) == 2, "while the seat may stop, the hand waits"
    table.notice("go_on:0")  # what POST /api/seats/0/go-on says
    _run(source, 3)
    assert len(source.cam.resting()) == 3, "go on: the hand throws again"


def test_a_new_game_of_knister_gets_its_own_table_and_two_dice(table):
    table.new_game({"game": "strike", "players": ["Ana", "Ben"]})
    source = SimTableSource(table, size=(320, 240), seed=4)
    _run(source, 1)
    table.new_game({"game": "knister", "players": ["Ana", "Ben"]})
    _run(source, 5)
    assert source.cam.game == "knister"
    assert len(source.cam.resting()) == 2
    assert source.cam.settled


def test_games_without_dice_show_no_camera(table):
    table.new_game({"game": "joust", "players": ["Ana", "Ben"]})
    source = SimTableSource(table)
    assert source.read() is None


def test_a_cocked_die_is_thrown_again_once_not_by_two_hands(table, monkeypatch):
    """The die lies cocked and the camera has not said so yet: the hand's patience runs out and
    it throws the die again; the table's request, coming late, must not make a second re-roll
    (the Follower and this hand used to re-roll the same die each on its own)."""
    from dataclasses import replace

    from kiosk.controllers.decision import reroll

    table.new_game({"game": "strike", "players": ["Ana", "Ben"]})
    source = SimTableSource(table, size=(320, 240), seed=4)
    _run(source, 4)
    start = source.cam.arena_dice()[0]
    start.plan = replace(start.plan, cocked=True)  # the start die leans on the wall
    rerolls = []
    real = source.cam.reroll_cocked
    monkeypatch.setattr(
        source.cam, "reroll_cocked", lambda seat=0: rerolls.append(source.cam.now) or real(seat)
    )
    _run(source, 2.5)
    assert len(rerolls) == 1, "left cocked for 2 s: thrown again"
    _run(source, 3.0)
    source.on_decision(reroll([]))  # the camera's late request, about the cocked picture
    _run(source, 3.0)
    assert len(rerolls) == 1, "one die, one re-roll"
    assert not any(d.plan.cocked for d in source.cam.arena_dice())


def test_a_re_roll_asked_for_a_die_that_is_not_cocked_lapses(table):
    from kiosk.controllers.decision import reroll

    table.new_game({"game": "strike", "players": ["Ana", "Ben"]})
    source = SimTableSource(table, size=(320, 240), seed=4)
    _run(source, 4)
    source.on_decision(reroll([]))  # the camera misread a flat die as cocked
    _run(source, 0.5)
    assert source.cam.settled and source.hand._reroll is False


def test_a_check_closed_for_a_re_roll_makes_the_camera_look_again(table):
    """In `arbitre run` nobody else moves the simulated dice: when the players close a check to
    throw again and no die is cocked, the hand passes over the table, so the camera sees motion
    and reads the dice once more instead of the table waiting for ever."""
    table.new_game({"game": "strike", "players": ["Ana", "Ben"]})
    source = SimTableSource(table, size=(320, 240), seed=4)
    _run(source, 4)
    check = table.propose({"act": "start", "arena": [None]}, ["unreadable"])
    table.reroll(check.id)
    before = source.cam.scene.busy_until()
    _run(source, 0.2)
    assert source.cam.scene.busy_until() > before, "the hand moves over the table"
    assert len(source.cam.arena_dice()) == 1, "and leaves the dice where they lie"
