"""Détrak: each roll of the two symbol dice is written in two adjacent empty cells by every seat.

Rules as implemented (and every choice the seed leaves open) are in docs/rules/detrak.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine import detrak_score, registry
from engine.core import (
    Action,
    BadRecord,
    Game,
    IllegalAction,
    Option,
    State,
    expect,
    field,
    list_field,
    seat_field,
)
from engine.rollwrite import (
    Cell,
    RollWriteState,
    adjacent,
    cell_from_json,
    empty_pairs,
    empty_sheet,
    has_empty_pair,
    next_seat,
    sheet_json,
    show_cell,
    write,
)

SYMBOLS = ("hash", "slash", "bars", "triangle", "circle", "cross")
SYMBOL_NAMES = {
    "hash": {"fr": "dièse", "en": "hash"},
    "slash": {"fr": "barre oblique", "en": "slash"},
    "bars": {"fr": "triple trait", "en": "bars"},
    "triangle": {"fr": "triangle", "en": "triangle"},
    "circle": {"fr": "rond", "en": "circle"},
    "cross": {"fr": "croix", "en": "cross"},
}
START = (0, 0)
GIGAMIC = {"diagonal": True, "empty_line_penalty": 5}


def _symbol(value: Any, key: str) -> str:
    if value not in SYMBOLS:
        raise BadRecord(f'"{key}" must be one of {", ".join(SYMBOLS)}, not {value!r}')
    return value


@dataclass(frozen=True)
class Choose(Action):
    """A seat picks its symbol, written in its top-left cell (distinct for every seat)."""

    act: ClassVar[str] = "choose"
    undoable: ClassVar[bool] = True
    seat: int
    symbol: str

    @classmethod
    def from_json(cls, obj: Any) -> Choose:
        return cls(seat_field(obj), _symbol(field(obj, "symbol"), "symbol"))


@dataclass(frozen=True)
class Roll(Action):
    """The two symbol dice; their order is the order of `cells` in the placements that follow."""

    act: ClassVar[str] = "roll"
    dice: tuple[str, str]

    @classmethod
    def from_json(cls, obj: Any) -> Roll:
        dice = list_field(obj, "dice")
        if len(dice) != 2:
            raise BadRecord(f'"dice" must be two symbols, not {dice!r}')
        return cls((_symbol(dice[0], "dice"), _symbol(dice[1], "dice")))


@dataclass(frozen=True)
class Place(Action):
    """dice[0] goes to cells[0], dice[1] to cells[1]. Undoable until the next roll: the seed says
    nothing against it, and a mistaken tap on a phone is the common error."""

    act: ClassVar[str] = "place"
    undoable: ClassVar[bool] = True
    seat: int
    cells: tuple[Cell, Cell]

    @classmethod
    def from_json(cls, obj: Any) -> Place:
        cells = list_field(obj, "cells")
        if len(cells) != 2:
            raise BadRecord(f'"cells" must be two cells [[r1, c1], [r2, c2]], not {cells!r}')
        return cls(
            seat_field(obj), (cell_from_json(cells[0], "cells"), cell_from_json(cells[1], "cells"))
        )


@dataclass(frozen=True)
class DetrakState(RollWriteState):
    """`symbols` per seat (None until chosen); `blocked` seats have no two adjacent empty cells."""

    dice_kind: ClassVar[str] = "detrak"
    symbols: tuple[str | None, ...] = ()
    roll: tuple[str, str] | None = None
    blocked: tuple[int, ...] = ()
    rolled: int = 0

    def owed(self, seat: int) -> str:
        if self.phase == "choose":
            return "choose a symbol"
        return f"place {self.roll[0]} and {self.roll[1]}"

    def legal_actions(self) -> list[Action]:
        if self.phase == "choose":
            free = [s for s in SYMBOLS if s not in self.symbols]
            return [Choose(seat, symbol) for seat in self.waiting for symbol in free]
        if self.phase != "place":
            return []
        return [p for seat in self.waiting for p in placements(self, seat)]

    def apply(self, action: Action) -> State:
        if isinstance(action, Choose):
            return self._choose(action)
        if isinstance(action, Roll):
            return self._roll(action)
        if isinstance(action, Place):
            return self._place(action)
        raise BadRecord(f"detrak expects choose, roll or place, not {action.act!r}")

    def _choose(self, action: Choose) -> DetrakState:
        seat = action.seat
        expect(self.phase == "choose", "symbols are chosen before the first roll, not now")
        expect(seat in self.waiting, f"seat {seat} already chose {self.symbols[seat]}")
        if action.symbol in self.symbols:
            free = ", ".join(s for s in SYMBOLS if s not in self.symbols)
            raise IllegalAction(
                f"symbol {action.symbol} is already seat {self.symbols.index(action.symbol)}'s; "
                f"expected one of {free}"
            )
        symbols = self.symbols[:seat] + (action.symbol,) + self.symbols[seat + 1 :]
        state = self.written(seat, write(self.sheets[seat], START, action.symbol))
        state = replace(state, symbols=symbols)
        return state if state.waiting else replace(state, phase="roll")

    def _roll(self, action: Roll) -> DetrakState:
        self.expect_roll()
        playing = tuple(s for s in range(self.game.num_players) if s not in self.blocked)
        return replace(
            self, phase="place", roll=action.dice, waiting=playing, rolled=self.rolled + 1
        )

    def _place(self, action: Place) -> DetrakState:
        seat = action.seat
        if seat in self.blocked:
            raise IllegalAction(f"seat {seat} is blocked: its game is over")
        self.expect_place(seat)
        sheet = self.sheets[seat]
        first, second = action.cells
        for cell, die in zip(action.cells, self.roll, strict=True):
            if cell == START:
                raise IllegalAction(
                    f"cell [0, 0] of seat {seat} holds its symbol {sheet[0][0]}; "
                    f"expected two empty adjacent cells for {self.roll[0]} and {self.roll[1]}"
                )
            expect(
                sheet[cell[0]][cell[1]] is None,
                f"cell {show_cell(cell)} of seat {seat} already holds {sheet[cell[0]][cell[1]]}; "
                f"expected an empty cell for {die}",
            )
        expect(
            adjacent(first, second),
            f"cells {show_cell(first)} and {show_cell(second)} are not side by side; expected "
            "two orthogonally adjacent empty cells",
        )
        sheet = write(write(sheet, first, self.roll[0]), second, self.roll[1])
        state = self.written(seat, sheet)
        if not has_empty_pair(sheet):
            state = replace(state, blocked=tuple(sorted((*state.blocked, seat))))
        return state._after_write() if not state.waiting else state

    def _after_write(self) -> DetrakState:
        n = self.game.num_players
        if len(self.blocked) == n:
            return replace(self, phase="over", roll=None)
        playing = [s for s in range(n) if s not in self.blocked]
        return replace(self, phase="roll", roll=None, roller=next_seat(self.roller, playing, n))

    def scores(self) -> list[float]:
        options = self.game.options
        return [
            detrak_score.score(sheet, options, final=seat in self.blocked)
            for seat, sheet in enumerate(self.sheets)
        ]

    def winners(self) -> tuple[int, ...]:
        if self.phase != "over":
            return ()
        scores = self.scores()
        return tuple(seat for seat, s in enumerate(scores) if s == max(scores))

    def view(self, seat: int | None = None) -> dict[str, Any]:
        options = self.game.options
        return {
            "phase": self.phase,
            "dice": list(self.roll) if self.roll else None,
            "waiting": list(self.waiting),
            "sheets": [sheet_json(s) for s in self.sheets],
            "blocked": list(self.blocked),
            "scores": self.scores(),
            "winner": list(self.winners()),
            "symbols": list(self.symbols),
            "roller": self.roller,
            "rolls": self.rolled,
            "holes": [sum(v is None for row in s for v in row) for s in self.sheets],
            "lines": [
                detrak_score.breakdown(sheet, options, final=s in self.blocked)
                for s, sheet in enumerate(self.sheets)
            ],
        }


def placements(state: DetrakState, seat: int) -> list[Place]:
    """Every legal placement of the current roll for `seat` (one orientation if both dice match)."""
    a, b = state.roll
    found = []
    for first, second in empty_pairs(state.sheets[seat]):
        found.append(Place(seat, (first, second)))
        if a != b:
            found.append(Place(seat, (second, first)))
    return found


@registry.register
class Detrak(Game):
    name = "detrak"
    titles = {"fr": "Détrak", "en": "Detrak"}
    min_players = 1
    max_players = 6
    options_spec = {
        "diagonal": Option(
            False,
            choices=(False, True),
            help="score the bottom-left to top-right diagonal, doubled",
        ),
        "empty_line_penalty": Option(
            0, choices=(0, 5), help="points lost by a scored line without any run"
        ),
    }
    actions = {"choose": Choose, "roll": Roll, "place": Place}

    @classmethod
    def check_options(cls, given: dict[str, Any]) -> dict[str, Any]:
        """`"rules": "gigamic"` (or "seed") is a preset; options given beside it still win."""
        given = dict(given)
        preset = given.pop("rules", None)
        if preset is not None:
            if preset not in ("gigamic", "seed"):
                raise BadRecord(f'option "rules" must be "gigamic" or "seed", not {preset!r}')
            if preset == "gigamic":
                given = {**GIGAMIC, **given}
        return super().check_options(given)

    def initial_state(self) -> DetrakState:
        n = self.num_players
        return DetrakState(
            game=self,
            phase="choose",
            sheets=tuple(empty_sheet() for _ in range(n)),
            waiting=tuple(range(n)),
            symbols=(None,) * n,
        )
