"""Knister: 25 rolls of two pip dice; everyone writes the sum in an empty cell of their own sheet.

Rules as implemented (and every choice the seed leaves open) are in docs/rules/knister.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine import knister_score, registry
from engine.core import (
    Action,
    BadRecord,
    Game,
    Option,
    State,
    expect,
    list_field,
    seat_field,
)
from engine.rollwrite import (
    Cell,
    RollWriteState,
    cell_from_json,
    empty_cells,
    empty_sheet,
    is_full,
    next_seat,
    sheet_json,
    show_cell,
    write,
)

ROLLS_PER_ROUND = 25


@dataclass(frozen=True)
class Roll(Action):
    """The two pip dice as the table read them."""

    act: ClassVar[str] = "roll"
    dice: tuple[int, int]

    @classmethod
    def from_json(cls, obj: Any) -> Roll:
        dice = list_field(obj, "dice")
        if len(dice) != 2 or not all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice
        ):
            raise BadRecord(f'"dice" must be two faces, each 1..6, not {dice!r}')
        return cls((dice[0], dice[1]))


@dataclass(frozen=True)
class Place(Action):
    """A seat writes the current sum in one empty cell.

    Undoable only as the table's last action, i.e. before the next roll: that mends a mis-tap on a
    phone, which is not the seed's "rewriting a number" (once the next roll is recorded, the
    number is there for good, as on paper)."""

    act: ClassVar[str] = "place"
    undoable: ClassVar[bool] = True
    seat: int
    cell: Cell

    @classmethod
    def from_json(cls, obj: Any) -> Place:
        return cls(seat_field(obj), cell_from_json(list_field(obj, "cell"), "cell"))


@dataclass(frozen=True)
class KnisterState(RollWriteState):
    """`total` is the sum being written (None between rolls); `past` the finished rounds' scores."""

    total: int | None = None
    last_roll: tuple[int, int] | None = None
    round: int = 1
    rolled: int = 0
    past: tuple[tuple[int, ...], ...] = ()

    @property
    def straight_without_7(self) -> int:
        return self.game.options["straight_without_7"]

    def owed(self, seat: int) -> str:
        return f"write {self.total}"

    def legal_actions(self) -> list[Action]:
        if self.phase != "place":
            return []
        return [
            Place(seat, cell) for seat in self.waiting for cell in empty_cells(self.sheets[seat])
        ]

    def apply(self, action: Action) -> State:
        if isinstance(action, Roll):
            return self._roll(action)
        if isinstance(action, Place):
            return self._place(action)
        raise BadRecord(f"knister expects roll or place, not {action.act!r}")

    def _roll(self, action: Roll) -> KnisterState:
        self.expect_roll()
        seats = tuple(range(self.game.num_players))
        return replace(
            self,
            phase="place",
            total=sum(action.dice),
            last_roll=action.dice,
            waiting=seats,
            rolled=self.rolled + 1,
        )

    def _place(self, action: Place) -> KnisterState:
        self.expect_place(action.seat)
        sheet = self.sheets[action.seat]
        r, c = action.cell
        expect(
            sheet[r][c] is None,
            f"cell {show_cell(action.cell)} of seat {action.seat} already holds {sheet[r][c]}; "
            f"expected an empty cell for {self.total}",
        )
        state = self.written(action.seat, write(sheet, action.cell, self.total))
        return state._after_write() if not state.waiting else state

    def _after_write(self) -> KnisterState:
        """Everyone wrote: next roll, next round, or the end."""
        roller = next_seat(self.roller, range(self.game.num_players), self.game.num_players)
        state = replace(self, phase="roll", total=None, roller=roller)
        if not is_full(self.sheets[0]):
            return state
        if self.round < self.game.options["rounds"]:
            return replace(
                state,
                round=self.round + 1,
                rolled=0,
                past=(*self.past, tuple(self.round_scores())),
                sheets=tuple(empty_sheet() for _ in self.sheets),
            )
        return replace(state, phase="over")

    def round_scores(self) -> list[int]:
        """This round's scores: lines complete so far."""
        return [knister_score.score(sheet, self.straight_without_7) for sheet in self.sheets]

    def scores(self) -> list[float]:
        current = self.round_scores()
        return [sum(r[seat] for r in self.past) + current[seat] for seat in range(len(current))]

    def winners(self) -> tuple[int, ...]:
        if self.phase != "over":
            return ()
        scores = self.scores()
        return tuple(seat for seat, s in enumerate(scores) if s == max(scores))

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "sum": self.total,
            "waiting": list(self.waiting),
            "sheets": [sheet_json(s) for s in self.sheets],
            "scores": self.scores(),
            "winner": list(self.winners()),
            "dice": list(self.last_roll) if self.phase == "place" and self.last_roll else None,
            "roller": self.roller,
            "round": self.round,
            "rounds": self.game.options["rounds"],
            "rolls": self.rolled,
            "rolls_left": ROLLS_PER_ROUND - self.rolled,
            "round_scores": [list(r) for r in self.past] + [self.round_scores()],
            "lines": [knister_score.breakdown(s, self.straight_without_7) for s in self.sheets],
        }


@registry.register
class Knister(Game):
    name = "knister"
    titles = {"fr": "Knister", "en": "Knister"}
    min_players = 1
    max_players = 6
    options_spec = {
        "straight_without_7": Option(
            10, choices=(10, 12), help="points of a straight without a 7 (seed 10, published 12)"
        ),
        "rounds": Option(1, minimum=1, maximum=10, help="rounds played, scores added up"),
    }
    actions = {"roll": Roll, "place": Place}

    def initial_state(self) -> KnisterState:
        sheets = tuple(empty_sheet() for _ in self.players)
        return KnisterState(game=self, phase="roll", sheets=sheets)
