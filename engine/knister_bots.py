"""Knister bots: a random writer and a greedy one that follows the placement helper."""

from __future__ import annotations

import random

from engine import hints
from engine.core import Action, State
from engine.knister import Roll


class RandomBot:
    """Writes the sum in a random empty cell."""

    def act(self, state: State, seat: int, rng: random.Random) -> Action | None:
        if state.phase != "place" or seat not in state.waiting:
            return None
        return rng.choice([a for a in state.legal_actions() if a.seat == seat])


class GreedyBot:
    """Writes where the helper's exact baseline expects the best final score (ties: reading order)."""

    def act(self, state: State, seat: int, rng: random.Random) -> Action | None:
        if state.phase != "place" or seat not in state.waiting:
            return None
        return hints.rank(state, seat)[0].action


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def chance(state: State, rng: random.Random) -> Action:
    """Two fair pip dice."""
    return Roll((rng.randint(1, 6), rng.randint(1, 6)))
