"""Joust bots: a random stacker and a greedy one. Both only read their own seat's view."""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

from engine.core import Action
from engine.joust import CARDS, JoustState, Reveal, Stack, joust_points

PERMUTATIONS = tuple(itertools.permutations(CARDS))
OPPONENTS_SAMPLED = 120  # stacks a candidate is tried against: enough to rank, fast once per track
SHORTLIST = 8  # the greedy bot picks among the best few so that it cannot be read


def _wants(view: dict, seat: int) -> str | None:
    """What the seat has to do: "stack", "reveal" or nothing."""
    if view["phase"] == "stack" and not view["stacked"][seat]:
        return "stack"
    if view["phase"] == "reveal":
        return "reveal"
    return None


class RandomBot:
    """Stacks at random and reveals as soon as it can."""

    def act(self, state: JoustState, seat: int, rng: random.Random) -> Action | None:
        wants = _wants(state.view(seat), seat)
        if wants == "stack":
            return Stack(seat, tuple(rng.sample(CARDS, len(CARDS))))
        return Reveal() if wants == "reveal" else None


def joust_margin(mine: tuple[int, ...], theirs: tuple[int, ...], track: int) -> int:
    """My points minus theirs for one joust of these two stacks (0 when the joust is void)."""
    a = b = 0
    for x, y in zip(mine, theirs, strict=True):
        a, b = a + x, b + y
        if a + b >= track:
            p, q = joust_points(x, y)
            return p - q
    return 0


@lru_cache(maxsize=8)
def ranked_stacks(track: int) -> tuple[tuple[int, ...], ...]:
    """Every stack, best first, by its mean margin against a fixed sample of random stacks.

    The sample comes from its own seeded generator so the ranking is the same in every process.
    """
    sample = random.Random(track).sample(PERMUTATIONS, OPPONENTS_SAMPLED)
    score = {p: sum(joust_margin(p, q, track) for q in sample) for p in PERMUTATIONS}
    return tuple(sorted(PERMUTATIONS, key=lambda p: (-score[p], p)))


class GreedyBot:
    """Picks one of the stacks that score best against a random opponent on this track."""

    def act(self, state: JoustState, seat: int, rng: random.Random) -> Action | None:
        view = state.view(seat)
        wants = _wants(view, seat)
        if wants == "stack":
            return Stack(seat, rng.choice(ranked_stacks(view["track"])[:SHORTLIST]))
        return Reveal() if wants == "reveal" else None


BOTS = {"random": RandomBot, "greedy": GreedyBot}
