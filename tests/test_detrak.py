"""Détrak engine: symbols, simultaneous placement, blocking, options, random complete games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import bots, detrak_score
from engine.core import BadRecord, DiceRequest, IllegalAction
from engine.detrak import Choose, Detrak, Place, Roll, placements
from engine.record import dumps, replay
from engine.registry import new_game
from engine.rollwrite import has_empty_pair


def _game(players=2, **options):
    names = [f"P{i}" for i in range(players)]
    return new_game({"game": "detrak", "players": names, "options": options})


def _chosen(players=2, **options):
    state = _game(players, **options).initial_state()
    for seat, symbol in zip(range(players), ["hash", "cross", "circle", "bars"], strict=False):
        state = state.apply(Choose(seat, symbol))
    return state


def test_symbols_are_chosen_first_and_written_top_left():
    state = _game(2).initial_state()
    assert state.phase == "choose" and state.turn() == (0, 1) and state.dice() is None
    state = state.apply(Choose(1, "triangle"))
    with pytest.raises(
        IllegalAction,
        match="symbol triangle is already seat 1's; expected one of hash, slash, bars, circle, cross",
    ):
        state.apply(Choose(0, "triangle"))
    with pytest.raises(IllegalAction, match="seat 1 already chose triangle"):
        state.apply(Choose(1, "hash"))
    state = state.apply(Choose(0, "hash"))
    assert state.phase == "roll" and [s[0][0] for s in state.sheets] == ["hash", "triangle"]
    assert state.dice() == DiceRequest(kind="detrak", count=2, seat=0, act="roll")


def test_each_die_goes_where_the_seat_says():
    state = _chosen().apply(Roll(("circle", "bars")))
    state = state.apply(Place(1, ((2, 2), (2, 1)))).apply(Place(0, ((3, 0), (4, 0))))
    assert state.sheets[1][2][2] == "circle" and state.sheets[1][2][1] == "bars"
    assert state.sheets[0][3][0] == "circle" and state.sheets[0][4][0] == "bars"
    assert state.phase == "roll" and state.dice().seat == 1


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (((0, 0), (0, 1)), r"cell \[0, 0\] of seat 0 holds its symbol hash"),
        (((1, 0), (0, 0)), r"cell \[0, 0\] of seat 0 holds its symbol hash"),
        (((1, 1), (2, 2)), r"cells \[1, 1\] and \[2, 2\] are not side by side"),
        (((1, 1), (1, 3)), "not side by side"),
        (((1, 1), (1, 1)), "not side by side"),
    ],
)
def test_illegal_cells(cells, message):
    state = _chosen().apply(Roll(("slash", "slash")))
    with pytest.raises(IllegalAction, match=message):
        state.apply(Place(0, cells))


def test_roll_before_everyone_placed_names_the_seat_and_the_dice():
    state = _chosen(3).apply(Roll(("cross", "hash"))).apply(Place(1, ((1, 1), (1, 2))))
    with pytest.raises(
        IllegalAction, match="seat 0 must place cross and hash before the next roll"
    ):
        state.apply(Roll(("cross", "cross")))


def test_place_before_any_roll():
    with pytest.raises(IllegalAction, match="seat 0 must choose a symbol before anyone writes"):
        _game(2).initial_state().apply(Place(0, ((1, 1), (1, 2))))
    with pytest.raises(IllegalAction, match=r"expected a roll \(seat 0 throws\)"):
        _chosen().apply(Place(0, ((1, 1), (1, 2))))


def test_identical_dice_list_one_orientation_only():
    state = _chosen(1).apply(Roll(("bars", "bars")))
    assert len(placements(state, 0)) == 38  # 40 adjacent pairs of a 5×5 sheet, minus 2 at [0, 0]
    state = _chosen(1).apply(Roll(("bars", "hash")))
    assert len(placements(state, 0)) == 76


def test_a_seat_without_two_adjacent_empty_cells_is_blocked_and_skipped():
    text = Path("tests/records/detrak/two_players_blocked.jsonl").read_text(encoding="utf-8")
    states = replay(text).states
    blocked_at = next(i for i, s in enumerate(states) if s.blocked)
    state = states[blocked_at]
    assert state.blocked == (1,) and not has_empty_pair(state.sheets[1])
    nxt = state.apply(Place(0, ((3, 3), (3, 4)))) if state.waiting else state
    assert nxt.phase == "roll" and nxt.dice().seat == 0  # the blocked seat no longer throws
    nxt = nxt.apply(Roll(("hash", "hash")))
    assert nxt.turn() == (0,)
    assert states[-1].scores() == [30, 17]  # seat 1's holes cut its runs: hand-checked


def test_gigamic_preset_and_overrides():
    assert Detrak(["A"], {"rules": "gigamic"}).options == {
        "diagonal": True,
        "empty_line_penalty": 5,
    }
    assert Detrak(["A"], {"rules": "gigamic", "diagonal": False}).options == {
        "diagonal": False,
        "empty_line_penalty": 5,
    }
    assert Detrak(["A"], {"rules": "seed"}).options == {"diagonal": False, "empty_line_penalty": 0}
    assert Detrak(["A"]).options == {"diagonal": False, "empty_line_penalty": 0}
    with pytest.raises(BadRecord, match='option "empty_line_penalty" must be one of 0, 5'):
        Detrak(["A"], {"empty_line_penalty": 3})


def test_placements_may_be_taken_back_but_rolls_never():
    assert Place.undoable and Choose.undoable and not Roll.undoable


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"act": "roll", "dice": ["hash"]}, '"dice" must be two symbols'),
        ({"act": "roll", "dice": ["hash", 3]}, '"dice" must be one of hash'),
        ({"act": "place", "seat": 0, "cells": [[0, 1]]}, '"cells" must be two cells'),
        ({"act": "place", "seat": 0, "cells": [[0, 1], [0, 9]]}, '"cells" must be [row, col]'),
        ({"act": "choose", "seat": 0}, '"choose" needs a "symbol" field'),
    ],
)
def test_malformed_lines(line, message):
    with pytest.raises(BadRecord) as info:
        _game(2).parse_action(line)
    assert message in str(info.value)


def test_actions_round_trip_through_json():
    game = _game(2)
    for action in (Choose(0, "bars"), Roll(("cross", "slash")), Place(1, ((4, 3), (4, 4)))):
        assert game.parse_action(action.to_json()) == action


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(1, 4),
    rules=st.sampled_from(["seed", "gigamic"]),
    kind=st.sampled_from(["random", "greedy"]),
)
def test_random_complete_games(seed, players, rules, kind):
    rng = random.Random(seed)
    game = _game(players, rules=rules)
    state, actions, bot = game.initial_state(), [], bots.bot("detrak", kind)
    while not state.is_over():
        action = (
            bots.chance(state, rng)
            if state.dice()
            else bot.act(state, rng.choice(state.turn()), rng)
        )
        actions.append(action)
        state = state.apply(action)
    view = state.view()
    assert sum(isinstance(a, Roll) for a in actions) <= 12
    assert len(set(view["symbols"])) == players
    assert view["blocked"] == list(range(players))
    for seat, sheet in enumerate(state.sheets):
        assert not has_empty_pair(sheet)
        assert view["holes"][seat] == sum(v is None for row in sheet for v in row)
        assert view["scores"][seat] == sum(d["points"] for d in view["lines"][seat])
        assert view["scores"][seat] == detrak_score.score(sheet, game.options, final=True)
    best = max(view["scores"])
    assert view["winner"] == [s for s in range(players) if view["scores"][s] == best]
    assert replay(dumps(game, actions)).state.view() == view
