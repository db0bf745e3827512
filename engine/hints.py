"""The placement helper of Knister and Détrak: a seat's placements of the current roll, ranked by
expected final score.

Baseline: the exact expected final score if every later roll were written in a random empty cell
(a random adjacent pair for Détrak). Under that play each empty cell ends up holding an independent
roll, so by linearity of expectation the sheet's expectation is the sum of its lines'
expectations, and a line's expectation depends only on what it holds and how many cells it has
left: memoised once per pattern, a placement is valued with a few table look-ups. For Détrak a cell
with no empty neighbour can never be filled any more: it counts as a hole for good.

Default estimator: one roll of lookahead on that baseline, still exact for the play it assumes:
the next roll written where the baseline says, the rest at random. It plays clearly better (see
bench/bench_hints.py). `rollouts=N` re-values the best few by Monte Carlo games played greedily
(common random numbers); measured, it plays no better and costs far more, so it is optional.
Pure: randomness comes only from the `random.Random` passed in.
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
# How many of Détrak's best placements get the one-roll lookahead: each costs ~21 × 70 valuations.
DETRAK_LOOKAHEAD = 12


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
    state: Any,
    seat: int,
    lookahead: int | None = None,
    rollouts: int = 0,
    top: int = 4,
    rng: random.Random | None = None,
) -> list[Hint]:
    """Every placement of the current roll for `seat`, best first.

    Every placement gets the exact baseline. The `lookahead` best of them (default: all for
    Knister, `DETRAK_LOOKAHEAD` for Détrak) are re-valued as if the next roll were then written at
    its best and the rest at random (method "one-roll-lookahead"); with `rollouts` > 0 the `top`
    best are re-valued by that many greedy Monte Carlo games instead ("monte-carlo"). Re-valued
    placements are listed first, among themselves by their new value.
    """
    if state.phase != "place" or seat not in state.waiting:
        raise IllegalAction(f"seat {seat} has nothing to write now")
    game = _GAMES[state.game.name]
    ranked = [
        Hint(a, game.expected(state, a), "exact-random-fill") for a in game.actions(state, seat)
    ]
    ranked.sort(key=lambda h: -h.expected)
    if lookahead is None:
        lookahead = game.default_lookahead
    if lookahead > 0 and len(ranked) > 1:
        best = [
            Hint(h.action, game.lookahead(state, h.action), "one-roll-lookahead")
            for h in ranked[:lookahead]
        ]
        ranked = sorted(best, key=lambda h: -h.expected) + ranked[lookahead:]
    if rollouts > 0 and len(ranked) > 1:
        rng = rng or random.Random(0)
        refined = game.monte_carlo(state, [h.action for h in ranked[:top]], rollouts, rng)
        best = [
            Hint(h.action, v, "monte-carlo") for h, v in zip(ranked[:top], refined, strict=True)
        ]
        ranked = sorted(best, key=lambda h: -h.expected) + ranked[top:]
    return ranked


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


# --- Détrak ------------------------------------------------------------------------------------
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


_GAMES: dict[str, Any] = {"knister": _Knister, "detrak": _Detrak}
