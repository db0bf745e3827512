"""Find games by name.

Each game lives in its own module and registers itself with `@register`. The modules are listed
here by name and imported on first use, so a game is one file to add and importing the engine
stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.core import BadRecord, Game

GAME_MODULES = {
    "strike": "engine.strike",
    "knister": "engine.knister",
    "detrak": "engine.detrak",
    "joust": "engine.joust",
    "stratego": "engine.stratego",
}

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    _GAMES[cls.name] = cls
    return cls


def _load(name: str) -> None:
    module = GAME_MODULES.get(name)
    if module and name not in _GAMES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name != module:
                raise


def names() -> list[str]:
    """Names of the games that are installed, in the order above."""
    for name in GAME_MODULES:
        _load(name)
    return [name for name in GAME_MODULES if name in _GAMES]


def game_class(name: str) -> type[Game]:
    _load(name)
    if name not in _GAMES:
        raise BadRecord(f"unknown game {name!r}, expected one of {', '.join(names())}")
    return _GAMES[name]


def new_game(header: Any) -> Game:
    """A Game from a record header {"game", "players", "options"}; BadRecord if malformed."""
    if not isinstance(header, dict) or not isinstance(header.get("game"), str):
        raise BadRecord('the first line must be a header like {"game": "strike", "players": [...]}')
    if "players" not in header:
        raise BadRecord('the header needs "players": a list of names in playing order')
    options = header.get("options") or {}
    if not isinstance(options, dict):
        raise BadRecord('"options" must be a JSON object')
    return game_class(header["game"])(header["players"], options)
