"""Détrak's model for the placement helper.

Valued line by line from memoised tables like Knister's, but a roll fills a pair of adjacent cells:
a cell left without an empty neighbour can never be filled and counts as a hole for good, and the
next roll may go in any pair, which makes the lookahead costly (hence `DETRAK_LOOKAHEAD`).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from engine import detrak_score
from engine.core import Action
from engine.detrak import SYMBOLS, placements
from engine.rollwrite import SIZE, Sheet, neighbours

# How many of Détrak's best placements get the one-roll lookahead: each costs ~21 × 70 valuations.
DETRAK_LOOKAHEAD = 12
# A line is coded as one integer, a base-8 digit per cell: 0 empty, 1..6 a symbol, 7 a hole for
# good. The symbols' names do not matter to the score, only which cells hold the same one.
_HOLE = 7
_SYMBOL_CODE = {s: i + 1 for i, s in enumerate(SYMBOLS)}
_NEIGHBOURS = tuple(
    tuple(r * SIZE + c for r, c in neighbours(divmod(i, SIZE))) for i in range(SIZE * SIZE)
)
# The 21 rolls of two symbol dice up to order (the seat picks the order), with their probability.
_ROLLS = tuple(((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7))


@cache
def _detrak_line(code: int, penalty: int) -> float:
    """Expected points (before the factor) of a line, its empty cells filled with random symbols."""
    digits = [(code >> (3 * i)) & 7 for i in range(SIZE)]
    if 0 not in digits:
        return detrak_score.line_points([None if d == _HOLE else d for d in digits], penalty)
    i = digits.index(0)
    return sum(_detrak_line(code | (x << (3 * i)), penalty) for x in range(1, 7)) / 6


@cache
def _detrak_lines(diagonal: bool) -> tuple[tuple[tuple[tuple[int, ...], int], ...], tuple]:
    """The scored lines as (flat cells, factor), and for each cell the lines through it."""
    lines = tuple(
        (tuple(r * SIZE + c for r, c in line.cells), line.factor)
        for line in detrak_score.lines({"diagonal": diagonal})
    )
    through = tuple(
        tuple(k for k, (cells, _) in enumerate(lines) if i in cells) for i in range(SIZE * SIZE)
    )
    return lines, through


class _DetrakSheet:
    """A flat grid (0 empty, 1..6 symbols) valued line by line; an empty cell without an empty
    neighbour reads as a hole."""

    def __init__(self, sheet: Sheet, options: dict[str, Any]):
        self.grid = [0 if v is None else _SYMBOL_CODE[v] for row in sheet for v in row]
        self.lines, self.through = _detrak_lines(bool(options["diagonal"]))
        self.penalty = options["empty_line_penalty"]

    def _digit(self, i: int) -> int:
        grid = self.grid
        if grid[i]:
            return grid[i]
        for n in _NEIGHBOURS[i]:
            if not grid[n]:
                return 0
        return _HOLE

    def _line(self, k: int) -> float:
        cells, factor = self.lines[k]
        code = 0
        for shift, i in enumerate(cells):
            code |= self._digit(i) << (3 * shift)
        return _detrak_line(code, self.penalty) * factor

    def value(self) -> float:
        return sum(self._line(k) for k in range(len(self.lines)))

    def _touched(self, x: int, y: int) -> set[int]:
        """Lines whose value writing x and y can change: theirs, and those of cells it isolates."""
        grid, touched = self.grid, {*self.through[x], *self.through[y]}
        for n in (*_NEIGHBOURS[x], *_NEIGHBOURS[y]):
            isolated = all(grid[m] or m in (x, y) for m in _NEIGHBOURS[n])
            if n not in (x, y) and not grid[n] and isolated:
                touched.update(self.through[n])
        return touched

    def gain(self, x: int, y: int, a: int, b: int) -> float:
        touched = self._touched(x, y)
        before = sum(self._line(k) for k in touched)
        self.grid[x], self.grid[y] = a, b
        after = sum(self._line(k) for k in touched)
        self.grid[x] = self.grid[y] = 0
        return after - before

    def pairs(self) -> list[tuple[int, int]]:
        grid, pairs = self.grid, []
        for i in range(SIZE * SIZE):
            if grid[i]:
                continue
            if i % SIZE + 1 < SIZE and not grid[i + 1]:
                pairs.append((i, i + 1))
            if i + SIZE < SIZE * SIZE and not grid[i + SIZE]:
                pairs.append((i, i + SIZE))
        return pairs

    def best(self, a: int, b: int) -> tuple[float, tuple[int, int] | None]:
        """The greedy placement of a roll: (gain, (cell for a, cell for b)); (0, None) if blocked."""
        best, best_gain = None, float("-inf")
        for i, j in self.pairs():
            for x, y in ((i, j), (j, i)) if a != b else ((i, j),):
                g = self.gain(x, y, a, b)
                if g > best_gain:
                    best, best_gain = (x, y), g
        return (best_gain, best) if best else (0.0, None)

    def pair_gains(self, i: int, j: int) -> list[list[float]]:
        """gains[a][b] of writing symbol a in cell i and b in cell j, for every a, b in 1..6.

        A touched line holding neither cell changes only through the cells that become holes; one
        holding i alone depends on a only: so each line is valued 1, 6 or 36 times, not 36.
        """
        grid, touched = self.grid, self._touched(i, j)
        before = sum(self._line(k) for k in touched)
        grid[i] = grid[j] = 1
        const, by_a, by_b, by_ab = -before, [0.0] * 7, [0.0] * 7, []
        for k in touched:
            cells = self.lines[k][0]
            if i in cells and j in cells:
                by_ab.append(k)
            elif i in cells:
                for a in range(1, 7):
                    grid[i] = a
                    by_a[a] += self._line(k)
                grid[i] = 1
            elif j in cells:
                for b in range(1, 7):
                    grid[j] = b
                    by_b[b] += self._line(k)
                grid[j] = 1
            else:
                const += self._line(k)
        gains = [[0.0] * 7 for _ in range(7)]
        for a in range(1, 7):
            grid[i] = a
            for b in range(1, 7):
                grid[j] = b
                gains[a][b] = const + by_a[a] + by_b[b] + sum(self._line(k) for k in by_ab)
        grid[i] = grid[j] = 0
        return gains

    def expected_best_gain(self) -> float:
        """Mean over the next roll of the best gain a placement of it can bring (0 if blocked)."""
        best = {roll: float("-inf") for roll, _ in _ROLLS}
        pairs = self.pairs()
        if not pairs:
            return 0.0
        for i, j in pairs:
            g = self.pair_gains(i, j)
            for a, b in best:
                best[(a, b)] = max(best[(a, b)], g[a][b], g[b][a])
        return sum(p * best[roll] for roll, p in _ROLLS)

    def final(self) -> float:
        total = 0.0
        for cells, factor in self.lines:
            values = [self.grid[i] or None for i in cells]
            total += detrak_score.line_points(values, self.penalty) * factor
        return total


class _Detrak:
    default_lookahead = DETRAK_LOOKAHEAD

    @staticmethod
    def actions(state: Any, seat: int) -> list[Action]:
        return list(placements(state, seat))

    @staticmethod
    def _after(state: Any, action: Action) -> _DetrakSheet:
        sheet = _DetrakSheet(state.sheets[action.seat], state.game.options)
        for (r, c), die in zip(action.cells, state.roll, strict=True):
            sheet.grid[r * SIZE + c] = _SYMBOL_CODE[die]
        return sheet

    @classmethod
    def expected(cls, state: Any, action: Action) -> float:
        return cls._after(state, action).value()

    @classmethod
    def lookahead(cls, state: Any, action: Action) -> float:
        sheet = cls._after(state, action)
        return sheet.value() + sheet.expected_best_gain()

    @classmethod
    def monte_carlo(
        cls, state: Any, actions: list[Action], rollouts: int, rng: random.Random
    ) -> list[float]:
        rolls = [
            [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(12)] for _ in range(rollouts)
        ]
        results = []
        for action in actions:
            total = 0.0
            for dice in rolls:
                sheet = cls._after(state, action)
                for a, b in dice:
                    move = sheet.best(a, b)[1]
                    if move is None:
                        break
                    sheet.grid[move[0]], sheet.grid[move[1]] = a, b
                total += sheet.final()
            results.append(total / rollouts)
        return results
