"""Joust (Joseph Huber, 2003): two knights charge, each driven by a secret stack of six cards.

The camera cannot see the order of a face-down stack, so Arbitre holds both stacks and tells each
seat only its own (boardgame.io's `playerView`). See docs/rules/joust.md for the rules as
implemented and the choices made where ../shared/rules/joust.fr.txt is silent.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from engine.core import (
    Action,
    BadRecord,
    Game,
    IllegalAction,
    Option,
    State,
    expect,
    list_field,
    seat_field,
)
from engine.registry import register

CARDS = (1, 2, 3, 4, 5, 6)
TARGET = 6  # points to win
DEFAULT_TRACK = 24
# Six cards a seat sum to 21: past 42 squares the knights never meet, every joust is void and the
# game never ends. Records may hold such tracks (the rules' tests do); a new game may not.
PLAYABLE_TRACK = 42


def joust_points(card0: int, card1: int) -> tuple[int, int]:
    """The points of one joust: a 1 unhorses a 6 (6 points), else the higher card 2, a tie 1 each."""
    if {card0, card1} == {1, 6}:
        return (6, 0) if card0 == 1 else (0, 6)
    if card0 == card1:
        return (1, 1)
    return (2, 0) if card0 > card1 else (0, 2)


@dataclass(frozen=True)
class Stack(Action):
    """A seat's secret stack for the next joust, top card first."""

    act: ClassVar[str] = "stack"
    undoable: ClassVar[bool] = True  # nothing was turned yet
    seat: int
    cards: tuple[int, ...]

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Stack:
        cards = list_field(obj, "cards")
        ints = all(isinstance(c, int) and not isinstance(c, bool) for c in cards)
        if not ints or sorted(cards) != list(CARDS):
            raise BadRecord(
                f'"cards" must be the six cards 1..6, each once, top card first, not {cards!r}'
            )
        return cls(seat_field(obj), tuple(cards))


@dataclass(frozen=True)
class Reveal(Action):
    """Both top cards are turned at once; either player or the table may trigger it."""

    act: ClassVar[str] = "reveal"

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Reveal:
        return cls()


@dataclass(frozen=True)
class JoustResult:
    """How the last joust ended, for the kiosk: the cards that met (None if void), the points."""

    cards: tuple[int, int] | None
    points: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": None if self.cards is None else list(self.cards),
            "points": list(self.points),
            "void": self.cards is None,
        }


@dataclass(frozen=True)
class JoustState(State):
    game: JoustGame = field(compare=False, repr=False)
    phase: str = "stack"
    stacks: tuple[tuple[int, ...] | None, ...] = (None, None)  # cards not yet turned, top first
    played: tuple[tuple[int, ...], ...] = ((), ())
    points: tuple[int, ...] = (0, 0)
    jousts: int = 0  # jousts finished, void ones included
    voids: int = 0
    last_joust: JoustResult | None = None
    winner: int | None = None

    # --- the interface -------------------------------------------------------------------
    def turn(self) -> tuple[int, ...]:
        if self.phase == "stack":
            return tuple(s for s in (0, 1) if self.stacks[s] is None)
        if self.phase == "reveal":
            return (0, 1)  # either player may turn the cards (the table may too)
        return ()

    def legal_actions(self) -> list[Action]:
        if self.phase == "reveal":
            return [Reveal()]
        if self.phase == "stack":
            perms = list(itertools.permutations(CARDS))
            return [Stack(seat, p) for seat in self.turn() for p in perms]
        return []

    def is_over(self) -> bool:
        return self.phase == "over"

    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    def scores(self) -> list[float] | None:
        return list(self.points)

    @property
    def positions(self) -> tuple[int, int]:
        """The distance each knight has ridden from its starting square in this joust."""
        return (sum(self.played[0]), sum(self.played[1]))

    def apply(self, action: Action) -> JoustState:
        expect(
            self.phase != "over",
            f"the game is over: seat {self.winner} won {self.points[0]}-{self.points[1]}",
        )
        if isinstance(action, Stack):
            return self._stack(action)
        if isinstance(action, Reveal):
            return self._reveal()
        raise IllegalAction(f"expected a stack or a reveal, not {action.act!r}")

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything with seat None; with a seat, its own stack but never the other's."""
        out = self.public_view()
        if seat is None:
            out["stacks"] = [None if s is None else list(s) for s in self.stacks]
        else:
            own = self.stacks[seat]
            out["stack"] = None if own is None else list(own)
        return out

    def public_view(self) -> dict[str, Any]:
        """What the table screen shows: the turned cards, never a stack's order."""
        return {
            "game": "joust",
            "phase": self.phase,
            "turn": list(self.turn()),
            "track": self.game.options["track"],
            "positions": list(self.positions),
            "played": [list(p) for p in self.played],
            "stacked": [s is not None for s in self.stacks],
            "scores": list(self.points),
            "jousts": self.jousts,
            "voids": self.voids,
            "last_joust": None if self.last_joust is None else self.last_joust.to_json(),
            "winner": self.winner,
        }

    # --- the rules -----------------------------------------------------------------------
    def _stack(self, action: Stack) -> JoustState:
        expect(action.seat in (0, 1), f"seat must be 0 or 1, not {action.seat!r}")
        expect(
            sorted(action.cards) == list(CARDS),
            f"a stack is the six cards 1..6, each once, not {list(action.cards)}",
        )
        expect(
            self.stacks[action.seat] is None,
            f"seat {action.seat} has already stacked for this joust; "
            + ("expected a reveal" if self.phase == "reveal" else "waiting for the other seat"),
        )
        stacks = list(self.stacks)
        stacks[action.seat] = action.cards
        ready = all(s is not None for s in stacks)
        return replace(self, stacks=tuple(stacks), phase="reveal" if ready else "stack")

    def _reveal(self) -> JoustState:
        waiting = [str(s) for s in self.turn()]
        expect(
            self.phase == "reveal",
            f"both seats must stack their six cards before the reveal (waiting for seat "
            f"{' and '.join(waiting)})",
        )
        cards = (self.stacks[0][0], self.stacks[1][0])
        state = replace(
            self,
            stacks=(self.stacks[0][1:], self.stacks[1][1:]),
            played=(self.played[0] + (cards[0],), self.played[1] + (cards[1],)),
        )
        if sum(state.positions) >= self.game.options["track"]:
            return state._score(cards)
        if not state.stacks[0]:
            return state._new_joust(JoustResult(None, (0, 0)))  # six cards and no meeting
        return state

    def _score(self, cards: tuple[int, int]) -> JoustState:
        gained = joust_points(*cards)
        points = (self.points[0] + gained[0], self.points[1] + gained[1])
        state = replace(self, points=points)._new_joust(JoustResult(cards, gained))
        if max(points) >= TARGET and points[0] != points[1]:
            return replace(state, phase="over", winner=0 if points[0] > points[1] else 1)
        return state

    def _new_joust(self, result: JoustResult) -> JoustState:
        """Knights back to their starting squares, both seats stack again."""
        return replace(
            self,
            phase="stack",
            stacks=(None, None),
            played=((), ()),
            jousts=self.jousts + 1,
            voids=self.voids + (result.cards is None),
            last_joust=result,
        )


@register
class JoustGame(Game):
    name = "joust"
    titles = {"fr": "Joute", "en": "Joust"}
    min_players = 2
    max_players = 2
    options_spec = {
        "track": Option(
            DEFAULT_TRACK,
            minimum=1,
            maximum=60,
            help="squares between the two knights' starting squares (the printed board sets it)",
        ),
    }
    actions = {"stack": Stack, "reveal": Reveal}

    @classmethod
    def setup_problem(cls, options: Mapping[str, Any]) -> dict[str, str] | None:
        """Why these options make no game to start from /setup (French and English), or None.

        The record format accepts any track up to 60, so replaying such a record still works;
        starting a new game on a track where the knights never meet would never end."""
        track = options.get("track", DEFAULT_TRACK)
        if isinstance(track, int) and track > PLAYABLE_TRACK:
            return {
                "fr": f"Piste de {track} cases : au plus {PLAYABLE_TRACK}. Au-delà, les chevaliers "
                "ne se rencontrent jamais, toutes les joutes sont nulles et la partie ne finit pas.",
                "en": f"A track of {track} squares: {PLAYABLE_TRACK} at most. Beyond, the knights "
                "never meet, every joust is void and the game never ends.",
            }
        return None

    def initial_state(self) -> JoustState:
        return JoustState(game=self)
