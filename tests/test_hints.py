"""The placement helper: its baseline is the exact expectation it claims, and it ranks well."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from engine import bots, detrak_score, hints, knister_score
from engine.core import IllegalAction
from engine.detrak import SYMBOLS, Place, placements
from engine.registry import new_game
from engine.rollwrite import empty_pairs, write

SUM_P = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}


def _knister(sheet_values, total, s7=10):
    game = new_game({"game": "knister", "players": ["A"], "options": {"straight_without_7": s7}})
    state = game.initial_state()
    sheet = state.sheets[0]
    for (r, c), v in sheet_values.items():
        sheet = write(sheet, (r, c), v)
    return replace(state, sheets=(sheet,), phase="place", total=total, waiting=(0,))


def _knister_with_empty(empty, seed=1):
    rng = random.Random(seed)
    return {(r, c): rng.randint(2, 12) for r in range(5) for c in range(5) if (r, c) not in empty}


@pytest.mark.parametrize("s7", [10, 12])
def test_knister_baseline_is_the_exact_expectation_under_random_fill(s7):
    empty = [(0, 0), (2, 2), (4, 1)]
    state = _knister(_knister_with_empty(empty), 7, s7)
    ranked = hints.rank(state, 0, lookahead=0)
    assert {h.action.cell for h in ranked} == set(empty)
    for hint in ranked:
        rest = [c for c in empty if c != hint.action.cell]
        sheet = write(state.sheets[0], hint.action.cell, 7)
        exact = sum(
            SUM_P[a]
            * SUM_P[b]
            * knister_score.score(write(write(sheet, rest[0], a), rest[1], b), s7)
            for a in SUM_P
            for b in SUM_P
        )
        assert hint.expected == pytest.approx(exact)
        assert hint.method == "exact-random-fill"
    assert [h.expected for h in ranked] == sorted((h.expected for h in ranked), reverse=True)


def _detrak(sheet_values, dice, **options):
    game = new_game({"game": "detrak", "players": ["A"], "options": options})
    state = game.initial_state()
    sheet = state.sheets[0]
    for (r, c), v in sheet_values.items():
        sheet = write(sheet, (r, c), v)
    return replace(
        state, sheets=(sheet,), symbols=(sheet[0][0],), phase="place", roll=dice, waiting=(0,)
    )


def _detrak_with_empty(empty, seed=2):
    rng = random.Random(seed)
    return {(r, c): rng.choice(SYMBOLS) for r in range(5) for c in range(5) if (r, c) not in empty}


@pytest.mark.parametrize("rules", ["seed", "gigamic"])
def test_detrak_baseline_is_exact_and_counts_cells_left_isolated_as_holes(rules):
    # The model: every empty cell that still has an empty neighbour gets an independent random
    # symbol, a cell without one stays a hole. Writing in the row of three leaves a hole at its
    # end; writing the vertical slot leaves the row of three (the model fills all three).
    empty = [(4, 2), (4, 3), (4, 4), (0, 3), (1, 3)]
    state = _detrak(_detrak_with_empty(empty), ("circle", "bars"), rules=rules)
    options = state.game.options
    ranked = hints.rank(state, 0, lookahead=0)
    assert len(ranked) == len(placements(state, 0)) == 2 * len(empty_pairs(state.sheets[0]))
    for hint in ranked:
        sheet = state.sheets[0]
        for cell, die in zip(hint.action.cells, state.roll, strict=True):
            sheet = write(sheet, cell, die)
        fillable = sorted({cell for pair in empty_pairs(sheet) for cell in pair})
        outcomes = []
        for symbols in itertools.product(SYMBOLS, repeat=len(fillable)):
            filled = sheet
            for cell, symbol in zip(fillable, symbols, strict=True):
                filled = write(filled, cell, symbol)
            outcomes.append(filled)
        exact = sum(detrak_score.score(s, options, final=True) for s in outcomes) / len(outcomes)
        assert hint.expected == pytest.approx(exact), hint.action


def test_knister_lookahead_is_exact_for_the_play_it_assumes():
    # Three cells left: write 7 now, the next sum where the baseline says, the last one at random.
    empty = [(0, 0), (2, 2), (4, 1)]
    state = _knister(_knister_with_empty(empty, seed=3), 7)
    ranked = hints.rank(state, 0)
    assert all(h.method == "one-roll-lookahead" for h in ranked)
    for hint in ranked:
        sheet = write(state.sheets[0], hint.action.cell, 7)
        rest = [c for c in empty if c != hint.action.cell]

        def random_last(s, cell):
            return sum(p * knister_score.score(write(s, cell, u)) for u, p in SUM_P.items())

        exact = sum(
            p * max(random_last(write(sheet, a, t), b) for a, b in (rest, rest[::-1]))
            for t, p in SUM_P.items()
        )
        assert hint.expected == pytest.approx(exact)
    assert [h.expected for h in ranked] == sorted((h.expected for h in ranked), reverse=True)


def test_detrak_lookahead_is_exact_for_the_play_it_assumes():
    # Four cells left in a 2x2 block: after this roll a domino remains, filled by the next roll
    # in its best orientation.
    empty = [(3, 3), (3, 4), (4, 3), (4, 4)]
    state = _detrak(_detrak_with_empty(empty, seed=5), ("circle", "cross"), rules="gigamic")
    options = state.game.options
    ranked = hints.rank(state, 0, lookahead=100)
    assert len(ranked) == 8 and all(h.method == "one-roll-lookahead" for h in ranked)
    for hint in ranked:
        sheet = state.sheets[0]
        for cell, die in zip(hint.action.cells, state.roll, strict=True):
            sheet = write(sheet, cell, die)
        ((x, y),) = empty_pairs(sheet)
        exact = (
            sum(
                max(
                    detrak_score.score(write(write(sheet, x, a), y, b), options, final=True),
                    detrak_score.score(write(write(sheet, x, b), y, a), options, final=True),
                )
                for a in SYMBOLS
                for b in SYMBOLS
            )
            / 36
        )
        assert hint.expected == pytest.approx(exact), hint.action


def test_rank_refuses_a_seat_with_nothing_to_write():
    state = new_game({"game": "knister", "players": ["A", "B"]}).initial_state()
    with pytest.raises(IllegalAction, match="seat 0 has nothing to write now"):
        hints.rank(state, 0)


def test_monte_carlo_refines_the_best_few_reproducibly():
    state = _knister(_knister_with_empty([(r, c) for r in range(3) for c in range(5)], seed=4), 8)
    first = hints.rank(state, 0, rollouts=6, top=3, rng=random.Random(9))
    again = hints.rank(state, 0, rollouts=6, top=3, rng=random.Random(9))
    assert [h.to_json() for h in first] == [h.to_json() for h in again]
    assert [h.method for h in first] == ["monte-carlo"] * 3 + ["one-roll-lookahead"] * 12
    assert first[0].expected >= first[1].expected >= first[2].expected
    detrak = _detrak(
        _detrak_with_empty([(r, c) for r in range(2, 5) for c in range(5)]), ("hash", "hash")
    )
    refined = hints.rank(detrak, 0, rollouts=3, top=2, rng=random.Random(1))
    assert [h.method for h in refined[:3]] == ["monte-carlo", "monte-carlo", "one-roll-lookahead"]
    assert all(isinstance(h.action, Place) for h in refined)


def _solo_average(game_name, kind, games, seed, options=None):
    rng, total = random.Random(seed), 0.0
    game = new_game({"game": game_name, "players": ["A"], "options": options or {}})
    bot = bots.bot(game_name, kind)
    for _ in range(games):
        state = game.initial_state()
        while not state.is_over():
            state = state.apply(bots.chance(state, rng) if state.dice() else bot.act(state, 0, rng))
        total += state.scores()[0]
    return total / games


@pytest.mark.parametrize("game_name", ["knister", "detrak"])
def test_the_greedy_bot_following_the_hints_beats_random_play(game_name):
    greedy = _solo_average(game_name, "greedy", 6, seed=11)
    random_play = _solo_average(game_name, "random", 6, seed=11)
    assert greedy > random_play + 10
