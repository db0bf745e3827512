"""The placement helper of Knister and Détrak: a seat's placements of the current roll, ranked by
expected final score.

Estimator: the exact expected final score if every later roll were written in a random empty cell
(a random adjacent pair for Détrak). Under that play each empty cell ends up holding an independent
roll, so by linearity of expectation the sheet's expectation is the sum of its lines'
expectations, and a line's expectation depends only on what it holds and how many cells it has
left: memoised once per pattern, a placement is valued with a few table look-ups. For Détrak a cell
with no empty neighbour can never be filled any more: it counts as a hole for good.

That baseline underrates good play but ranks placements well; `rollouts=N` refines the best few
with Monte Carlo games played greedily on that same value (common random numbers, so candidates are
compared on the same rolls). Pure: randomness comes from the `random.Random` passed in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine import detrak_score, knister_score
from engine.core import Action, IllegalAction
from engine.detrak import SYMBOLS, placements
from engine.rollwrite import SIZE, Sheet, neighbours

# Probability of each sum of two pip dice.
SUM_PROB = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}
_SUMS = tuple(SUM_PROB)
_SUM_WEIGHTS = tuple(SUM_PROB.values())


@dataclass(frozen=True)
class Hint:
    """A placement and the seat's expected final score after it; `method` names the estimator."""

    action: Action
    expected: float
    method: str

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "expected": round(self.expected, 2),
            "method": self.method,
        }


def rank(
    state: Any, seat: int, rollouts: int = 0, top: int = 4, rng: random.Random | None = None
) -> list[Hint]:
    """Every placement of the current roll for `seat`, best first.

    With `rollouts` > 0 the `top` best by the exact baseline are re-estimated by that many greedy
    Monte Carlo games each and listed first (method "monte-carlo"); the rest keep the baseline.
    """
    if state.phase != "place" or seat not in state.waiting:
        raise IllegalAction(f"seat {seat} has nothing to write now")
    game = _GAMES[state.game.name]
    base = [
        Hint(a, game.expected(state, a), "exact-random-fill") for a in game.actions(state, seat)
    ]
    base.sort(key=lambda h: -h.expected)
    if rollouts <= 0 or len(base) <= 1:
        return base
    rng = rng or random.Random(0)
    refined = game.monte_carlo(state, [h.action for h in base[:top]], rollouts, rng)
    best = [Hint(h.action, v, "monte-carlo") for h, v in zip(base[:top], refined, strict=True)]
    best.sort(key=lambda h: -h.expected)
    return best + base[top:]


# --- Knister -----------------------------------------------------------------------------------
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


def knister_best_cell(sheet: Sheet, total: int, straight_without_7: int = 10) -> tuple[int, int]:
    """The greedy choice on the baseline value (used by the bots and the rollouts)."""
    return _KnisterSheet(sheet, straight_without_7).best_cell(total)


# --- Détrak ------------------------------------------------------------------------------------
# A line is coded as one integer, a base-8 digit per cell: 0 empty, 1..6 a symbol, 7 a hole for
# good. The symbols' names do not matter to the score, only which cells hold the same one.
_HOLE = 7
_SYMBOL_CODE = {s: i + 1 for i, s in enumerate(SYMBOLS)}


def _symbol_code(symbol: str) -> int:
    return _SYMBOL_CODE[symbol]


@cache
def _detrak_line(code: int, penalty: int) -> float:
    """Expected points (before the factor) of a line, its empty cells filled with random symbols."""
    digits = [(code >> (3 * i)) & 7 for i in range(SIZE)]
    if 0 not in digits:
        return detrak_score.line_points([None if d == _HOLE else d for d in digits], penalty)
    i = digits.index(0)
    return sum(_detrak_line(code | (x << (3 * i)), penalty) for x in range(1, 7)) / 6


def _detrak_codes(grid: list[int]) -> list[int]:
    """Digits of a flat 25-cell grid with isolated empty cells turned into holes."""
    out = grid[:]
    for i, v in enumerate(grid):
        if v == 0 and all(grid[r * SIZE + c] != 0 for r, c in neighbours(divmod(i, SIZE))):
            out[i] = _HOLE
    return out


def _detrak_value(grid: list[int], lines: list[tuple[tuple[int, ...], int]], penalty: int) -> float:
    digits = _detrak_codes(grid)
    total = 0.0
    for cells, factor in lines:
        code = 0
        for shift, i in enumerate(cells):
            code |= digits[i] << (3 * shift)
        total += _detrak_line(code, penalty) * factor
    return total


def _detrak_setup(state: Any, seat: int) -> tuple[list[int], list, int]:
    options = state.game.options
    lines = [
        (tuple(r * SIZE + c for r, c in line.cells), line.factor)
        for line in detrak_score.lines(options)
    ]
    sheet = state.sheets[seat]
    grid = [0 if v is None else _symbol_code(v) for row in sheet for v in row]
    return grid, lines, options["empty_line_penalty"]


class _Detrak:
    @staticmethod
    def actions(state: Any, seat: int) -> list[Action]:
        return list(placements(state, seat))

    @staticmethod
    def expected(state: Any, action: Action) -> float:
        grid, lines, penalty = _detrak_setup(state, action.seat)
        for cell, die in zip(action.cells, state.roll, strict=True):
            grid[cell[0] * SIZE + cell[1]] = _symbol_code(die)
        return _detrak_value(grid, lines, penalty)

    @classmethod
    def monte_carlo(
        cls, state: Any, actions: list[Action], rollouts: int, rng: random.Random
    ) -> list[float]:
        grid0, lines, penalty = _detrak_setup(state, actions[0].seat)
        rolls = [
            [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(12)] for _ in range(rollouts)
        ]
        results = []
        for action in actions:
            total = 0.0
            for dice in rolls:
                grid = grid0[:]
                for cell, die in zip(action.cells, state.roll, strict=True):
                    grid[cell[0] * SIZE + cell[1]] = _symbol_code(die)
                for a, b in dice:
                    move = detrak_best_move(grid, a, b, lines, penalty)
                    if move is None:
                        break
                    grid[move[0]], grid[move[1]] = a, b
                total += _detrak_final(grid, lines, penalty)
            results.append(total / rollouts)
        return results


def _pairs(grid: list[int]) -> list[tuple[int, int]]:
    pairs = []
    for i, v in enumerate(grid):
        if v:
            continue
        r, c = divmod(i, SIZE)
        if c + 1 < SIZE and not grid[i + 1]:
            pairs.append((i, i + 1))
        if r + 1 < SIZE and not grid[i + SIZE]:
            pairs.append((i, i + SIZE))
    return pairs


def detrak_best_move(
    grid: list[int], a: int, b: int, lines: list, penalty: int
) -> tuple[int, int] | None:
    """Greedy on the baseline: the (cell for a, cell for b) of highest value, None when blocked."""
    best, best_value = None, float("-inf")
    for i, j in _pairs(grid):
        for x, y in ((i, j), (j, i)) if a != b else ((i, j),):
            grid[x], grid[y] = a, b
            value = _detrak_value(grid, lines, penalty)
            grid[x], grid[y] = 0, 0
            if value > best_value:
                best, best_value = (x, y), value
    return best


def _detrak_final(grid: list[int], lines: list, penalty: int) -> float:
    total = 0.0
    for cells, factor in lines:
        total += detrak_score.line_points([grid[i] or None for i in cells], penalty) * factor
    return total


_GAMES: dict[str, Any] = {"knister": _Knister, "detrak": _Detrak}
