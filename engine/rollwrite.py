"""What Knister and Détrak share: 5×5 sheets, the lines of a sheet, and simultaneous placement.

Both are roll-and-write games: one shared roll, then every seat still playing writes it on its own
sheet, in any order; the next roll waits for all of them. `RollWriteState` holds that rhythm so each
game only says what a seat writes and how a sheet scores.

A sheet is a tuple of 5 rows of 5 cells (None where empty): immutable, so states share them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.core import BadRecord, DiceRequest, Game, IllegalAction, State, expect

SIZE = 5
Cell = tuple[int, int]
Sheet = tuple[tuple[Any, ...], ...]

ROWS: tuple[tuple[Cell, ...], ...] = tuple(tuple((r, c) for c in range(SIZE)) for r in range(SIZE))
COLUMNS: tuple[tuple[Cell, ...], ...] = tuple(
    tuple((r, c) for r in range(SIZE)) for c in range(SIZE)
)
# Top-left to bottom-right, and bottom-left to top-right (Détrak's published diagonal).
DIAGONAL_DOWN: tuple[Cell, ...] = tuple((i, i) for i in range(SIZE))
DIAGONAL_UP: tuple[Cell, ...] = tuple((SIZE - 1 - i, i) for i in range(SIZE))


@dataclass(frozen=True)
class Line:
    """A scored line of a sheet: `kind` "row", "column" or "diagonal", its cells, its factor."""

    kind: str
    index: int
    cells: tuple[Cell, ...]
    factor: int = 1

    def values(self, sheet: Sheet) -> tuple[Any, ...]:
        return tuple(sheet[r][c] for r, c in self.cells)

    def label(self) -> str:
        return f"{self.kind} {self.index}"


def rows_and_columns() -> list[Line]:
    return [Line("row", i, cells) for i, cells in enumerate(ROWS)] + [
        Line("column", i, cells) for i, cells in enumerate(COLUMNS)
    ]


def empty_sheet() -> Sheet:
    return tuple((None,) * SIZE for _ in range(SIZE))


def write(sheet: Sheet, cell: Cell, value: Any) -> Sheet:
    r, c = cell
    row = sheet[r][:c] + (value,) + sheet[r][c + 1 :]
    return sheet[:r] + (row,) + sheet[r + 1 :]


def empty_cells(sheet: Sheet) -> list[Cell]:
    return [(r, c) for r in range(SIZE) for c in range(SIZE) if sheet[r][c] is None]


def is_full(sheet: Sheet) -> bool:
    return all(v is not None for row in sheet for v in row)


def neighbours(cell: Cell) -> Iterator[Cell]:
    r, c = cell
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
            yield (r + dr, c + dc)


def adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def empty_pairs(sheet: Sheet) -> list[tuple[Cell, Cell]]:
    """Every unordered pair of orthogonally adjacent empty cells (first cell first in reading order)."""
    pairs = []
    for r, c in empty_cells(sheet):
        if c + 1 < SIZE and sheet[r][c + 1] is None:
            pairs.append(((r, c), (r, c + 1)))
        if r + 1 < SIZE and sheet[r + 1][c] is None:
            pairs.append(((r, c), (r + 1, c)))
    return pairs


def has_empty_pair(sheet: Sheet) -> bool:
    return any(
        sheet[r][c] is None
        and (
            (c + 1 < SIZE and sheet[r][c + 1] is None) or (r + 1 < SIZE and sheet[r + 1][c] is None)
        )
        for r in range(SIZE)
        for c in range(SIZE)
    )


def sheet_json(sheet: Sheet) -> list[list[Any]]:
    return [list(row) for row in sheet]


def cell_from_json(value: Any, key: str = "cell") -> Cell:
    """A [row, col] pair of a record line, or BadRecord saying what was expected."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE for v in value)
    ):
        raise BadRecord(f'"{key}" must be [row, col] with each 0..{SIZE - 1}, not {value!r}')
    return (value[0], value[1])


def show_cell(cell: Cell) -> str:
    return f"[{cell[0]}, {cell[1]}]"


def next_seat(after: int, seats: Iterable[int], num_players: int) -> int | None:
    """The first of `seats` clockwise after `after` (wrapping round), None if there is none."""
    playing = set(seats)
    for step in range(1, num_players + 1):
        seat = (after + step) % num_players
        if seat in playing:
            return seat
    return None


@dataclass(frozen=True)
class RollWriteState(State):
    """The shared rhythm: phase "roll" waits for the dice, "place" for every seat in `waiting`.

    `roller` is the seat expected to throw the next roll (in "place": the seat that threw the roll
    being written). The roll action carries no seat: any hand may throw, the camera only sees dice.
    """

    game: Game
    phase: str
    sheets: tuple[Sheet, ...]
    waiting: tuple[int, ...] = ()
    roller: int = 0

    dice_kind: ClassVar[str] = "pips"

    def turn(self) -> tuple[int, ...]:
        return self.waiting if self.phase in ("place", "choose") else ()

    def dice(self) -> DiceRequest | None:
        if self.phase != "roll":
            return None
        return DiceRequest(kind=self.dice_kind, count=2, seat=self.roller, act="roll")

    def is_over(self) -> bool:
        return self.phase == "over"

    def owed(self, seat: int) -> str:
        """What `seat` still has to do this roll, as a verb phrase ("write 7")."""
        raise NotImplementedError

    def expect_roll(self) -> None:
        """IllegalAction unless a roll is expected now, naming who must act first."""
        expect(self.phase != "over", "the game is over: no more rolls")
        if self.phase in ("place", "choose"):
            seat = self.waiting[0]
            word = "first" if self.phase == "choose" else "next"
            raise IllegalAction(f"seat {seat} must {self.owed(seat)} before the {word} roll")

    def expect_place(self, seat: int) -> None:
        """IllegalAction unless `seat` may write now."""
        expect(self.phase != "over", "the game is over: nothing more to write")
        expect(self.phase != "roll", f"expected a roll (seat {self.roller} throws) before writing")
        if self.phase == "choose":
            first = self.waiting[0]
            raise IllegalAction(f"seat {first} must {self.owed(first)} before anyone writes")
        if seat not in self.waiting:
            raise IllegalAction(self.not_waiting(seat))

    def not_waiting(self, seat: int) -> str:
        waiting = ", ".join(str(s) for s in self.waiting)
        return f"seat {seat} already wrote this roll; waiting for seat {waiting}"

    def written(self, seat: int, sheet: Sheet) -> RollWriteState:
        """The state once `seat` wrote: its sheet replaced and it no longer waited for."""
        sheets = self.sheets[:seat] + (sheet,) + self.sheets[seat + 1 :]
        waiting = tuple(s for s in self.waiting if s != seat)
        return replace(self, sheets=sheets, waiting=waiting)
