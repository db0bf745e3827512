"""The one interface every game implements.

Learned from OpenSpiel (one API, explicit chance) and python-chess (actions as value objects with a
parse/print pair, specific errors). States are immutable: `apply` returns a new state, so undo is
replaying one action fewer and a bot can explore without copying by hand.

Dice outcomes are ordinary actions that carry the faces. Who produced the faces (camera, simulator,
test) is none of the engine's business; `State.dice()` says what roll the state is waiting for.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar


class IllegalAction(ValueError):
    """An action the rules forbid in this state; the message says what was expected instead."""


class BadRecord(ValueError):
    """A record line or header that is not well formed; the message says what was expected."""


@dataclass(frozen=True)
class DiceRequest:
    """What roll a state waits for, so a camera controller knows what to look for.

    kind: "strike", "pips" or "detrak"; count: how many dice are thrown; seat: who throws (None when
    anyone may roll); act: the name of the action that carries the outcome.
    """

    kind: str
    count: int
    seat: int | None
    act: str


class Action:
    """Base of every game's actions: frozen dataclasses with an `act` name.

    `to_json` is generic; each subclass parses its own fields in `from_json` (the pair round-trips).
    """

    act: ClassVar[str]
    # A placement (writing on a sheet, say) can be taken back; a dice outcome never can.
    undoable: ClassVar[bool] = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"act": self.act}
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            out[field.name] = _jsonable(getattr(self, field.name))
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Action:
        raise NotImplementedError


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Option:
    """One game option: its default and what values it takes (choices, or an int range)."""

    default: Any
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def check(self, name: str, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices or isinstance(value, bool) != isinstance(
                self.default, bool
            ):
                raise BadRecord(
                    f'option "{name}" must be one of {_show(self.choices)}, not {value!r}'
                )
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadRecord(f'option "{name}" must be a whole number, not {value!r}')
        if self.minimum is not None and value < self.minimum:
            raise BadRecord(f'option "{name}" must be at least {self.minimum}, not {value}')
        if self.maximum is not None and value > self.maximum:
            raise BadRecord(f'option "{name}" must be at most {self.maximum}, not {value}')
        return value


def _show(choices: Sequence[Any]) -> str:
    import json

    return ", ".join(json.dumps(c) for c in choices)


class Game(ABC):
    """A game's fixed setup: its players and options. It makes the first state and parses actions."""

    name: ClassVar[str]
    titles: ClassVar[dict[str, str]] = {}
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_spec: ClassVar[dict[str, Option]] = {}
    actions: ClassVar[dict[str, type[Action]]] = {}

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        self.players = _check_players(self, players)
        self.options = self.check_options(dict(options or {}))

    @classmethod
    def check_options(cls, given: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults and reject unknown or out-of-range options (games may add presets)."""
        unknown = sorted(set(given) - set(cls.options_spec))
        if unknown:
            raise BadRecord(
                f'unknown option "{unknown[0]}" for {cls.name}, expected one of '
                f"{_show(sorted(cls.options_spec)) or 'none'}"
            )
        return {
            key: spec.check(key, given[key]) if key in given else spec.default
            for key, spec in cls.options_spec.items()
        }

    @property
    def num_players(self) -> int:
        return len(self.players)

    def header(self) -> dict[str, Any]:
        return {"game": self.name, "players": list(self.players), "options": dict(self.options)}

    def parse_action(self, obj: Any) -> Action:
        """Turn a record line (a dict) into an action, or raise BadRecord saying what was expected."""
        if not isinstance(obj, Mapping):
            raise BadRecord('expected a JSON object such as {"act": ...}')
        act = obj.get("act")
        cls = self.actions.get(act) if isinstance(act, str) else None
        if cls is None:
            raise BadRecord(
                f"unknown act {act!r} for {self.name}, expected one of {_show(list(self.actions))}"
            )
        action = cls.from_json(obj)
        for field in ("seat",):
            seat = getattr(action, field, None)
            if seat is not None and not 0 <= seat < self.num_players:
                raise BadRecord(f"seat must be 0..{self.num_players - 1}, not {seat}")
        return action

    @abstractmethod
    def initial_state(self) -> State: ...


def _check_players(game: Game, players: Any) -> tuple[str, ...]:
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise BadRecord('"players" must be a list of names')
    if not all(isinstance(p, str) and p.strip() for p in players):
        raise BadRecord('"players" must be a list of non-empty names')
    n = len(players)
    if not game.min_players <= n <= game.max_players:
        span = (
            f"{game.min_players}"
            if game.min_players == game.max_players
            else f"{game.min_players} to {game.max_players}"
        )
        raise BadRecord(f"{game.name} is played by {span} players, not {n}")
    return tuple(players)


class State(ABC):
    """A position of a game. Immutable: `apply` returns the next state.

    Subclasses implement the abstract methods; `game` is the Game they belong to.
    """

    game: Game

    @abstractmethod
    def turn(self) -> tuple[int, ...]:
        """Seats that may act now: one seat, several for simultaneous placement, () for nobody."""

    def dice(self) -> DiceRequest | None:
        """The roll this state waits for, or None when no dice are expected."""
        return None

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The player decisions possible now.

        Dice outcomes are not listed (see `dice()`), nor are choices too many to enumerate (a
        Stratego setup, say): `apply` still judges those.
        """

    @abstractmethod
    def apply(self, action: Action) -> State:
        """The next state, or IllegalAction saying what is wrong and what was expected."""

    @abstractmethod
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The state as JSON-ready data: everything (seat None), or only what `seat` may see."""

    def public_view(self) -> dict[str, Any]:
        """What every seat may see (the table screen): games with secrets override this."""
        return self.view(None)

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """Winning seats once over (several on a tie), () before."""

    def scores(self) -> list[float] | None:
        """Per-seat scores where the game keeps them (for hints, bots and the kiosk)."""
        return None


def expect(condition: bool, message: str) -> None:
    """Raise IllegalAction(message) unless condition holds: rules read as a list of expectations."""
    if not condition:
        raise IllegalAction(message)


def field(obj: Mapping[str, Any], key: str) -> Any:
    """A required field of a record line, or BadRecord naming it."""
    if key not in obj:
        raise BadRecord(f'"{obj.get("act", "line")}" needs a "{key}" field')
    return obj[key]


def int_field(obj: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = field(obj, key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise BadRecord(f'"{key}" must be a whole number {lo}..{hi}, not {value!r}')
    return value


def list_field(obj: Mapping[str, Any], key: str) -> list[Any]:
    value = field(obj, key)
    if not isinstance(value, list):
        raise BadRecord(f'"{key}" must be a list, not {value!r}')
    return value


def seat_field(obj: Mapping[str, Any]) -> int:
    return int_field(obj, "seat", 0, 5)
