"""Game records (JSON Lines): a header, then one action per line. Parse, replay, write.

The record is the event log's export format and the only thing `arbitre replay` reads, so every
error names its line and what was expected there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.core import Action, BadRecord, Game, IllegalAction, State
from engine.registry import new_game


class RecordError(ValueError):
    """A record that cannot be replayed: `line` (1-based) and `reason` say where and why."""

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass
class Replay:
    """A replayed record: the game, its actions, and every state from the first to the last."""

    game: Game
    actions: list[Action]
    states: list[State]

    @property
    def state(self) -> State:
        return self.states[-1]


def _lines(text_or_lines: str | Iterable[str]) -> Iterator[tuple[int, str]]:
    lines = text_or_lines.splitlines() if isinstance(text_or_lines, str) else text_or_lines
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield number, line


def _decode(number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as err:
        raise RecordError(number, f"not valid JSON ({err.msg} at column {err.colno})") from None


def replay(text_or_lines: str | Iterable[str], keep_states: bool = True) -> Replay:
    """Replay a record; RecordError(line, reason) at the first bad line."""
    lines = _lines(text_or_lines)
    first = next(lines, None)
    if first is None:
        raise RecordError(1, 'empty record, expected a header like {"game": "strike", ...}')
    try:
        game = new_game(_decode(*first))
    except BadRecord as err:
        raise RecordError(first[0], str(err)) from None
    state = game.initial_state()
    result = Replay(game, [], [state])
    for number, line in lines:
        try:
            action = game.parse_action(_decode(number, line))
            state = state.apply(action)
        except (BadRecord, IllegalAction) as err:
            raise RecordError(number, str(err)) from None
        result.actions.append(action)
        if keep_states:
            result.states.append(state)
        else:
            result.states[-1:] = [state]
    return result


def dumps(game: Game, actions: Iterable[Action]) -> str:
    """The record of a game as JSON Lines text (header first)."""
    rows = [game.header(), *(a.to_json() for a in actions)]
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def play(game: Game, actions: Iterable[Action]) -> State:
    """Apply actions from the first state; IllegalAction propagates."""
    state = game.initial_state()
    for action in actions:
        state = state.apply(action)
    return state
