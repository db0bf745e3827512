"""Détrak bots: a random one and a greedy one that follows the placement helper.

Both also choose a symbol in the "choose" phase (the first one still free, or a random one): the
symbol a seat plays has no bearing on its score, only on what it starts with.
"""

from __future__ import annotations

import random

from engine import hints
from engine.core import Action, State
from engine.detrak import SYMBOLS, Choose, Roll


def _choose(state: State, seat: int, rng: random.Random | None) -> Action:
    free = [s for s in SYMBOLS if s not in state.symbols]
    return Choose(seat, rng.choice(free) if rng else free[0])


class RandomBot:
    """A random free symbol, then a random legal placement of each roll."""

    def act(self, state: State, seat: int, rng: random.Random) -> Action | None:
        if seat not in state.waiting:
            return None
        if state.phase == "choose":
            return _choose(state, seat, rng)
        if state.phase != "place":
            return None
        return rng.choice([a for a in state.legal_actions() if a.seat == seat])


class GreedyBot:
    """The placement the helper's exact baseline values most (it avoids leaving isolated holes)."""

    def act(self, state: State, seat: int, rng: random.Random) -> Action | None:
        if seat not in state.waiting:
            return None
        if state.phase == "choose":
            return _choose(state, seat, None)
        if state.phase != "place":
            return None
        return hints.rank(state, seat)[0].action


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def chance(state: State, rng: random.Random) -> Action:
    """Two fair symbol dice."""
    return Roll((rng.choice(SYMBOLS), rng.choice(SYMBOLS)))
