"""Knister engine: simultaneous placement, rounds, errors, and random complete games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import bots, knister_score
from engine.core import BadRecord, DiceRequest, IllegalAction
from engine.knister import Place, Roll
from engine.record import dumps, replay
from engine.registry import new_game


def _game(players=2, **options):
    return new_game(
        {"game": "knister", "players": [f"P{i}" for i in range(players)], "options": options}
    )


def test_a_roll_waits_for_every_seat_in_any_order():
    state = _game(3).initial_state().apply(Roll((2, 5)))
    assert state.turn() == (0, 1, 2) and state.dice() is None
    state = state.apply(Place(2, (4, 4)))
    assert state.turn() == (0, 1)
    with pytest.raises(IllegalAction, match="seat 0 must write 7 before the next roll"):
        state.apply(Roll((1, 1)))
    with pytest.raises(
        IllegalAction, match="seat 2 already wrote this roll; waiting for seat 0, 1"
    ):
        state.apply(Place(2, (0, 0)))
    state = state.apply(Place(0, (0, 0))).apply(Place(1, (1, 1)))
    assert state.phase == "roll" and state.turn() == ()
    assert [s[r][c] for s, (r, c) in zip(state.sheets, [(0, 0), (1, 1), (4, 4)], strict=True)] == [
        7
    ] * 3


def test_the_dice_pass_clockwise():
    state = _game(3).initial_state()
    rollers = []
    for _ in range(4):
        rollers.append(state.dice().seat)
        state = state.apply(Roll((1, 2)))
        for seat in range(3):
            state = state.apply(Place(seat, state.legal_actions()[0].cell))
    assert rollers == [0, 1, 2, 0]
    assert state.dice() == DiceRequest(kind="pips", count=2, seat=1, act="roll")


def test_only_a_placement_can_be_taken_back_never_the_dice():
    # The table undoes only its last action: a placement before the next roll (a mis-tap).
    assert Place.undoable is True and Roll.undoable is False


def test_occupied_cell_names_what_it_holds():
    state = _game(1).initial_state().apply(Roll((6, 6))).apply(Place(0, (2, 3)))
    state = state.apply(Roll((1, 1)))
    with pytest.raises(
        IllegalAction,
        match=r"cell \[2, 3\] of seat 0 already holds 12; expected an empty cell for 2",
    ):
        state.apply(Place(0, (2, 3)))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"act": "roll", "dice": [0, 3]}, '"dice" must be two faces, each 1..6'),
        ({"act": "roll", "dice": [3]}, '"dice" must be two faces'),
        ({"act": "place", "seat": 0, "cell": [1, 5]}, '"cell" must be [row, col]'),
        ({"act": "place", "seat": 0, "cell": "a1"}, '"cell" must be a list'),
        ({"act": "place", "cell": [0, 0]}, '"place" needs a "seat" field'),
        ({"act": "place", "seat": 3, "cell": [0, 0]}, "seat must be 0..1, not 3"),
        ({"act": "choose", "seat": 0}, "unknown act 'choose' for knister"),
    ],
)
def test_malformed_lines(line, message):
    with pytest.raises(BadRecord) as info:
        _game(2).parse_action(line)
    assert message in str(info.value)


def test_actions_round_trip_through_json():
    game = _game(2)
    for action in (Roll((3, 6)), Place(1, (4, 0))):
        assert game.parse_action(action.to_json()) == action


def test_rounds_add_up_and_sheets_start_again():
    game, rng = _game(1, rounds=2), random.Random(5)
    state, firsts = game.initial_state(), []
    while not state.is_over():
        state = state.apply(bots.chance(state, rng))
        state = state.apply(bots.bot("knister", "random").act(state, 0, rng))
        if state.phase == "roll" and state.round == 2 and not firsts:
            firsts = state.past[0]
            assert all(v is None for row in state.sheets[0] for v in row)
    view = state.view()
    assert len(view["round_scores"]) == 2 and view["round_scores"][0] == list(firsts)
    assert view["scores"] == [sum(r[0] for r in view["round_scores"])]


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(1, 4),
    s7=st.sampled_from([10, 12]),
    kind=st.sampled_from(["random", "greedy"]),
)
def test_random_complete_games(seed, players, s7, kind):
    rng = random.Random(seed)
    game = _game(players, straight_without_7=s7)
    state, actions, bot = game.initial_state(), [], bots.bot("knister", kind)
    while not state.is_over():
        action = (
            bots.chance(state, rng)
            if state.dice()
            else bot.act(state, rng.choice(state.turn()), rng)
        )
        actions.append(action)
        state = state.apply(action)
    assert sum(isinstance(a, Roll) for a in actions) == 25
    view = state.view()
    assert all(v is not None for sheet in view["sheets"] for row in sheet for v in row)
    for seat, lines in enumerate(view["lines"]):
        assert all(d["complete"] for d in lines)
        assert view["scores"][seat] == sum(d["points"] for d in lines)
        assert view["scores"][seat] == knister_score.score(state.sheets[seat], s7)
    best = max(view["scores"])
    assert view["winner"] == [s for s in range(players) if view["scores"][s] == best]
    assert replay(dumps(game, actions)).state.view() == view
