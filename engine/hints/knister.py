"""Knister's model for the placement helper.

A line's expectation under random fill depends only on the sums it holds and how many cells it has
left, so the sheet is kept as each line's code and size, and a placement is valued with a few
look-ups in a memoised table. Détrak shares none of this, only the interface the ranking calls.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from engine import knister_score
from engine.core import Action
from engine.rollwrite import SIZE, Sheet

# Probability of each sum of two pip dice.
SUM_PROB = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}
_SUMS = tuple(SUM_PROB)
_SUM_WEIGHTS = tuple(SUM_PROB.values())
# A line is coded as one integer: the count of each sum 2..12 in base 6 (a line holds 5 at most).
_POW = {s: 6 ** (s - 2) for s in _SUMS}


def _decode(code: int) -> list[int]:
    return [s for s in _SUMS for _ in range((code // _POW[s]) % 6)]


@cache
def _knister_line(code: int, size: int, straight_without_7: int) -> float:
    """Expected points (before doubling) of a line holding `code`, its other cells random sums."""
    if size == SIZE:
        return knister_score.combination(_decode(code), straight_without_7)[1]
    return sum(
        p * _knister_line(code + _POW[s], size + 1, straight_without_7) for s, p in SUM_PROB.items()
    )


_K_LINES = [(line.cells, line.factor) for line in knister_score.LINES]
_K_CELL_LINES = {
    (r, c): [i for i, (cells, _) in enumerate(_K_LINES) if (r, c) in cells]
    for r in range(SIZE)
    for c in range(SIZE)
}


class _KnisterSheet:
    """A mutable sheet for fast evaluation: each line's code and size, kept up to date."""

    def __init__(self, sheet: Sheet, s7: int):
        self.s7 = s7
        self.empty = {(r, c) for r in range(SIZE) for c in range(SIZE) if sheet[r][c] is None}
        self.codes = [
            sum(_POW[sheet[r][c]] for r, c in cells if sheet[r][c]) for cells, _ in _K_LINES
        ]
        self.sizes = [sum(sheet[r][c] is not None for r, c in cells) for cells, _ in _K_LINES]

    def value(self) -> float:
        return sum(
            _knister_line(code, size, self.s7) * factor
            for code, size, (_, factor) in zip(self.codes, self.sizes, _K_LINES, strict=True)
        )

    def gain(self, cell: tuple[int, int], total: int) -> float:
        """How much writing `total` in `cell` changes the expected value."""
        delta = 0.0
        for i in _K_CELL_LINES[cell]:
            code, size, factor = self.codes[i], self.sizes[i], _K_LINES[i][1]
            new = _knister_line(code + _POW[total], size + 1, self.s7)
            delta += (new - _knister_line(code, size, self.s7)) * factor
        return delta

    def write(self, cell: tuple[int, int], total: int) -> None:
        self.empty.discard(cell)
        for i in _K_CELL_LINES[cell]:
            self.codes[i] += _POW[total]
            self.sizes[i] += 1

    def best_cell(self, total: int) -> tuple[int, int]:
        return max(sorted(self.empty), key=lambda cell: self.gain(cell, total))


class _Knister:
    default_lookahead = SIZE * SIZE

    @staticmethod
    def actions(state: Any, seat: int) -> list[Action]:
        return [a for a in state.legal_actions() if a.seat == seat]

    @staticmethod
    def _past(state: Any, seat: int) -> float:
        return sum(r[seat] for r in state.past)

    @classmethod
    def expected(cls, state: Any, action: Action) -> float:
        sheet = _KnisterSheet(state.sheets[action.seat], state.straight_without_7)
        base = sheet.value()
        return cls._past(state, action.seat) + base + sheet.gain(action.cell, state.total)

    @classmethod
    def lookahead(cls, state: Any, action: Action) -> float:
        sheet = _KnisterSheet(state.sheets[action.seat], state.straight_without_7)
        sheet.write(action.cell, state.total)
        value = cls._past(state, action.seat) + sheet.value()
        if not sheet.empty:
            return value
        return value + sum(
            p * max(sheet.gain(cell, s) for cell in sheet.empty) for s, p in SUM_PROB.items()
        )

    @classmethod
    def monte_carlo(
        cls, state: Any, actions: list[Action], rollouts: int, rng: random.Random
    ) -> list[float]:
        sheet = state.sheets[actions[0].seat]
        left = sum(v is None for row in sheet for v in row) - 1
        rolls = [rng.choices(_SUMS, _SUM_WEIGHTS, k=left) for _ in range(rollouts)]
        results = []
        for action in actions:
            total = 0.0
            for sums in rolls:
                play = _KnisterSheet(sheet, state.straight_without_7)
                play.write(action.cell, state.total)
                for s in sums:
                    play.write(play.best_cell(s), s)
                total += play.value()
            results.append(cls._past(state, action.seat) + total / rollouts)
        return results
