"""Strike (Dieter Nüßle, Ravensburger): the rules of ../shared/rules/strike.fr.txt as a pure engine.

The camera reports every face in the arena after each throw; the engine infers the rest: dice that
are missing left the arena, crosses leave the game, every doubled value is taken at once. See
docs/rules/strike.md for the rules as implemented and the choices made where the text is silent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from engine.core import (
    Action,
    BadRecord,
    DiceRequest,
    Game,
    IllegalAction,
    Option,
    State,
    expect,
    list_field,
    seat_field,
)
from engine.registry import register

FACES = ("X", 2, 3, 4, 5, 6)
EDITIONS = {
    # edition: (dice in the box, dice per player by number of players)
    "2012": (31, {2: 9, 3: 8, 4: 7, 5: 6}),
    "2022": (26, {2: 8, 3: 7, 4: 6, 5: 5}),
}


def parse_faces(obj: Mapping[str, Any], key: str = "arena") -> tuple[int | str, ...]:
    faces = list_field(obj, key)
    for face in faces:
        if face not in FACES or isinstance(face, bool):
            raise BadRecord(
                f'"{key}" faces must be 2..6 or "X" (the cross stands in place of the 1), '
                f"not {face!r}"
            )
    return tuple(faces)


@dataclass(frozen=True)
class Start(Action):
    act: ClassVar[str] = "start"
    arena: tuple[int | str, ...]

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Start:
        return cls(parse_faces(obj))


@dataclass(frozen=True)
class Throw(Action):
    act: ClassVar[str] = "throw"
    seat: int
    arena: tuple[int | str, ...]

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Throw:
        return cls(seat_field(obj), parse_faces(obj))


@dataclass(frozen=True)
class Stop(Action):
    act: ClassVar[str] = "stop"
    seat: int

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Stop:
        return cls(seat_field(obj))


@dataclass(frozen=True)
class LastThrow:
    """What the last throw did, for the kiosk's history and the table's messages."""

    seat: int
    thrown: int
    left: int
    crosses: int
    taken: tuple[int, ...]


@dataclass(frozen=True)
class StrikeState(State):
    game: StrikeGame = field(compare=False, repr=False)
    phase: str
    turn_seat: int | None
    arena: tuple[int, ...]
    reserves: tuple[int, ...]
    out_of_game: int
    eliminated: tuple[int, ...]
    winner: int | None = None
    round: int = 1
    points: tuple[int, ...] = ()
    last: LastThrow | None = None

    # --- the interface -------------------------------------------------------------------
    def turn(self) -> tuple[int, ...]:
        if self.turn_seat is None or self.phase == "start":
            return ()  # the start die is placed by the table, not by a seat
        return (self.turn_seat,)

    def dice(self) -> DiceRequest | None:
        if self.phase == "start":
            return DiceRequest("strike", 1, None, "start")
        if self.phase in ("throw", "choose"):
            return DiceRequest("strike", 1, self.turn_seat, "throw")
        if self.phase == "grand_throw":
            return DiceRequest("strike", self.reserves[self.turn_seat], self.turn_seat, "throw")
        return None

    def legal_actions(self) -> list[Action]:
        return [Stop(self.turn_seat)] if self.phase == "choose" else []

    def is_over(self) -> bool:
        return self.phase == "over"

    def winners(self) -> tuple[int, ...]:
        if not self.is_over():
            return ()
        if self.game.options["scoring"] == "points":
            best = min(self.points)
            return tuple(s for s, p in enumerate(self.points) if p == best)
        return (self.winner,)

    def scores(self) -> list[float] | None:
        return list(self.points) if self.points else None

    def apply(self, action: Action) -> StrikeState:
        if self.phase == "over":
            raise IllegalAction("the game is over: no more actions")
        if isinstance(action, Start):
            return self._start(action)
        expect(
            self.phase != "start", 'the start die comes first: {"act": "start", "arena": [face]}'
        )
        expect(
            action.seat == self.turn_seat,
            f"it is seat {self.turn_seat}'s turn, not seat {action.seat}'s",
        )
        if isinstance(action, Stop):
            return self._stop()
        return self._throw(action)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": "strike",
            "phase": self.phase,
            "turn": self.turn_seat,
            "arena": list(self.arena),
            "reserves": list(self.reserves),
            "out_of_game": self.out_of_game,
            "eliminated": list(self.eliminated),
            "winner": self.winner,
            "dice_in_play": self.game.dice_in_play,
            "edition": self.game.options["edition"],
            "last": None if self.last is None else _last_json(self.last),
        }
        if self.game.options["scoring"] == "points":
            out["round"] = self.round
            out["rounds"] = self.game.num_players
            out["points"] = list(self.points)
            if self.is_over():
                out["winners"] = list(self.winners())
        return out

    # --- the rules -----------------------------------------------------------------------
    def _start(self, action: Start) -> StrikeState:
        expect(self.phase == "start", "the start die is already in the arena")
        expect(len(action.arena) == 1, f"the start is one die, not {len(action.arena)}")
        if action.arena[0] == "X":
            raise IllegalAction(
                "the start die is placed on any face but the cross"
                if self.game.options["edition"] == "2012"
                else "the start die is thrown again while it shows the cross"
            )
        return replace(self, phase="throw", arena=(action.arena[0],))

    def _throw(self, action: Throw) -> StrikeState:
        seat, reserve = action.seat, self.reserves[action.seat]
        thrown = reserve if self.phase == "grand_throw" else 1
        room = len(self.arena) + thrown
        if len(action.arena) > room:
            raise IllegalAction(
                f"{len(action.arena)} dice seen in the arena, but only {room} can be there "
                f"({len(self.arena)} before + {thrown} thrown): a count that cannot be"
            )
        crosses = sum(1 for f in action.arena if f == "X")
        counts = Counter(f for f in action.arena if f != "X")
        taken = tuple(sorted(f for f, n in counts.items() if n >= 2))
        taken_dice = sum(counts[f] for f in taken)
        left = room - len(action.arena)
        arena = tuple(sorted(f for f in counts.elements() if f not in taken))
        reserves = list(self.reserves)
        reserves[seat] += taken_dice - thrown
        last = LastThrow(seat, thrown, left, crosses, taken)
        nxt = replace(
            self,
            arena=arena,
            reserves=tuple(reserves),
            out_of_game=self.out_of_game + crosses + left,
            last=last,
        )
        if taken:
            return nxt._end_turn()
        nxt = replace(nxt, phase="choose")
        if reserves[seat] == 0:  # stop is the only choice left: the turn ends by itself
            return nxt._end_turn()
        return nxt

    def _stop(self) -> StrikeState:
        expect(
            self.phase == "choose",
            f"seat {self.turn_seat} must throw "
            + (
                f"all {self.reserves[self.turn_seat]} dice at once (the grand throw)"
                if self.phase == "grand_throw"
                else "a die first: the first throw of a turn is mandatory"
            ),
        )
        return self._end_turn()

    def _end_turn(self) -> StrikeState:
        seat = self.turn_seat
        state = self
        if self.reserves[seat] == 0:
            state = state._eliminate(seat)
            if state.phase in ("over", "start"):
                return state
        nxt = state._next_seat(seat)
        return replace(state, turn_seat=nxt, phase="grand_throw" if not state.arena else "throw")

    def _next_seat(self, seat: int) -> int:
        n = self.game.num_players
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if candidate not in self.eliminated:
                return candidate
        raise AssertionError("no seat left")  # unreachable: the game ends with one seat left

    def _eliminate(self, seat: int) -> StrikeState:
        eliminated = (*self.eliminated, seat)
        still_in = [s for s in range(self.game.num_players) if s not in eliminated]
        points = list(self.points)
        if points:
            points[seat] += len(still_in)
        state = replace(self, eliminated=eliminated, points=tuple(points))
        if len(still_in) > 1:
            return state
        return state._round_won(still_in[0])

    def _round_won(self, seat: int) -> StrikeState:
        if not self.points or self.round == self.game.num_players:
            return replace(self, phase="over", turn_seat=None, winner=self._overall_winner(seat))
        fresh = self.game.initial_state()
        first = (self.game.options["first"] + self.round) % self.game.num_players
        return replace(
            fresh, turn_seat=first, round=self.round + 1, points=self.points, last=self.last
        )

    def _overall_winner(self, last_standing: int) -> int | None:
        if not self.points:
            return last_standing
        best = min(self.points)
        leaders = [s for s, p in enumerate(self.points) if p == best]
        return leaders[0] if len(leaders) == 1 else None


def _last_json(last: LastThrow) -> dict[str, Any]:
    return {
        "seat": last.seat,
        "thrown": last.thrown,
        "left": last.left,
        "crosses": last.crosses,
        "taken": list(last.taken),
    }


@register
class StrikeGame(Game):
    name = "strike"
    titles = {"fr": "Strike", "en": "Strike"}
    min_players = 2
    max_players = 5
    options_spec = {
        "edition": Option("2012", choices=("2012", "2022")),
        "first": Option(0, minimum=0, maximum=4),
        "scoring": Option("last-standing", choices=("last-standing", "points")),
    }
    actions = {"start": Start, "throw": Throw, "stop": Stop}

    def __init__(self, players, options=None):
        super().__init__(players, options)
        if self.options["first"] >= self.num_players:
            raise BadRecord(
                f'option "first" must be a seat 0..{self.num_players - 1}, '
                f"not {self.options['first']}"
            )
        box, per_player = EDITIONS[self.options["edition"]]
        self.dice_per_player = per_player[self.num_players]
        self.dice_in_box = box
        self.dice_in_play = self.dice_per_player * self.num_players + 1

    def initial_state(self) -> StrikeState:
        n = self.num_players
        return StrikeState(
            game=self,
            phase="start",
            turn_seat=self.options["first"],
            arena=(),
            reserves=(self.dice_per_player,) * n,
            out_of_game=0,
            eliminated=(),
            points=(0,) * n if self.options["scoring"] == "points" else (),
        )
