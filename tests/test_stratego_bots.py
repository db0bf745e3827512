"""Stratego bots: legal setups, sensible greedy choices, and greedy beating random."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.stratego import StrategoGame, position
from engine.stratego_board import RAYS, parse_square, setup_squares, square_name
from engine.stratego_bots import BOTS, guarded_setup, random_setup, unknown_enemies
from engine.stratego_pieces import COUNTS

CORNERS = {"a1": (0, "F"), "j10": (1, "F")}


def game() -> StrategoGame:
    return StrategoGame(["R", "B"])


@pytest.mark.parametrize("make", [random_setup, guarded_setup])
def test_bot_setups_are_legal_for_both_seats(make) -> None:
    for seed in range(20):
        rng = random.Random(seed)
        s = game().initial_state().apply(make(0, rng)).apply(make(1, rng))
        assert s.phase in ("play", "over")
        for seat in (0, 1):
            squares = {sq for sq, (owner, _) in s.view()["board"].items() if owner == seat}
            assert {parse_square(q) for q in squares} == setup_squares(seat)
            ranks = Counter(r for owner, r in s.view()["board"].values() if owner == seat)
            assert ranks == Counter(COUNTS)


def test_guarded_setup_puts_the_flag_behind_bombs() -> None:
    setup = dict(guarded_setup(1, random.Random(4)).squares)
    flag = next(i for i, p in setup.items() if p == "F")
    assert square_name(flag).endswith("10")
    assert all(setup[ray[0]] == "B" for ray in RAYS[flag] if ray[0] in setup)


def test_greedy_takes_a_known_weaker_piece() -> None:
    s = position(game(), {**CORNERS, "e4": (0, "8"), "e5": (1, "6"), "j9": (1, "4")})
    state = _reveal(s, "e5")
    move = BOTS["greedy"]().act(state, 0, random.Random(1))
    assert (square_name(move.frm), square_name(move.to)) == ("e4", "e5")


def test_greedy_does_not_attack_a_known_stronger_piece() -> None:
    s = _reveal(position(game(), {**CORNERS, "e4": (0, "4"), "e5": (1, "9"), "j9": (1, "4")}), "e5")
    for seed in range(10):
        move = BOTS["greedy"]().act(s, 0, random.Random(seed))
        assert square_name(move.to) != "e5"


def test_unknown_enemies_count_what_was_not_seen() -> None:
    s = _reveal(position(game(), {**CORNERS, "e4": (0, "4"), "e5": (1, "9")}), "e5")
    left = unknown_enemies(s.view(0), 0)
    assert left["9"] == 0 and left["F"] == 1 and sum(left.values()) == 39


def _reveal(state, name: str):
    """The same state with the piece on `name` already revealed (as after a fight)."""
    cells = list(state.cells)
    index = parse_square(name)
    cells[index] = cells[index]._replace(revealed=True)
    return replace(state, cells=tuple(cells))


def play(kinds, seed: int, cap: int = 3000):
    rng, bots, s = random.Random(seed), [BOTS[k]() for k in kinds], game().initial_state()
    while not s.is_over() and s.moves < cap:
        seat = s.turn()[0]
        s = s.apply(bots[seat].act(s, seat, rng))
    return s


def test_greedy_beats_random() -> None:
    # 96 and 97 wins out of 100 measured on either side; 20 games must give at least 15
    wins = sum(play(("greedy", "random"), seed).winner == 0 for seed in range(10))
    wins += sum(play(("random", "greedy"), seed).winner == 1 for seed in range(10))
    assert wins >= 15


def test_bots_wait_when_it_is_not_their_turn() -> None:
    s = game().initial_state().apply(random_setup(0, random.Random(1)))
    for kind in BOTS:
        assert BOTS[kind]().act(s, 0, random.Random(1)) is None
    s = s.apply(random_setup(1, random.Random(2)))
    for kind in BOTS:
        assert BOTS[kind]().act(s, 1, random.Random(1)) is None
        assert BOTS[kind]().act(s, 0, random.Random(1)) in s.legal_actions()
