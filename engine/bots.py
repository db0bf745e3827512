"""Bots and dice for every game, found by game name: for tests, demos and the solo mode.

Each game's bot module (listed below, imported on first use) defines:
- BOTS: {"random": class, "greedy": class, ...}; a bot is `Bot()` then `bot.act(state, seat, rng)`
  returning an Action for that seat (or None when the seat has nothing to do);
- chance(state, rng) -> Action, for dice games: a random outcome of `state.dice()`.
All randomness comes from the `random.Random` passed in, so a seed replays a game exactly.
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol

from engine.core import Action, State

BOT_MODULES = {
    "strike": "engine.strike_bots",
    "knister": "engine.knister_bots",
    "detrak": "engine.detrak_bots",
    "joust": "engine.joust_bots",
    "stratego": "engine.stratego_bots",
}


class Bot(Protocol):
    def act(self, state: State, seat: int, rng: random.Random) -> Action | None: ...


def _module(game: str):
    if game not in BOT_MODULES:
        raise KeyError(f"no bots for {game!r}, expected one of {', '.join(BOT_MODULES)}")
    return importlib.import_module(BOT_MODULES[game])


def bot(game: str, kind: str = "greedy") -> Bot:
    bots = _module(game).BOTS
    if kind not in bots:
        raise KeyError(f"no {kind!r} bot for {game}, expected one of {', '.join(bots)}")
    return bots[kind]()


def chance(state: State, rng: random.Random) -> Action:
    """A random outcome for the roll the state waits for (state.dice() must not be None)."""
    return _module(state.game.name).chance(state, rng)
