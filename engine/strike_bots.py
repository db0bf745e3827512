"""Strike bots (stop or go on) and the dice: the seeded throw model of engine.strike_throw."""

from __future__ import annotations

import random

from engine.core import Action
from engine.strike import Start, Stop, StrikeState, Throw
from engine.strike_throw import PlacedDie, arena_faces, reroll_cocked, start_die, throw


class RandomBot:
    """Goes on or stops at random: for property tests that must reach every corner of the rules."""

    def act(self, state: StrikeState, seat: int, rng: random.Random) -> Action | None:
        if state.phase == "choose" and state.turn_seat == seat and rng.random() < 0.4:
            return Stop(seat)
        return None


class GreedyBot:
    """Goes on while a pair is likely enough to be worth a die, as the rules' advice weighs it.

    A thrown die matches one of k distinct faces in the arena with chance about k/6 (knocked dice
    add to it); each die thrown without a pair stays for the neighbour. So: go on with three or more
    dice in the arena, or with two when the reserve is comfortable; never throw the last die.
    """

    def act(self, state: StrikeState, seat: int, rng: random.Random) -> Action | None:
        if state.phase != "choose" or state.turn_seat != seat:
            return None
        reserve, k = state.reserves[seat], len(state.arena)
        go_on = reserve > 1 and (k >= 3 or (k == 2 and reserve >= 4) or k == 0)
        return None if go_on else Stop(seat)


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def chance(state: StrikeState, rng: random.Random) -> Action:
    """A throw through the throw model, the arena gathered in the middle first (the rules' advice)."""
    request = state.dice()
    if request is None:
        raise ValueError(f"no dice expected in phase {state.phase!r}")
    if request.act == "start":
        return Start((start_die(rng, state.game.options["edition"]).face,))
    arena = [PlacedDie(face, 0.0, 0.0) for face in state.arena]
    result = throw(arena, request.count, rng, gather_first=True)
    return Throw(request.seat, tuple(arena_faces(reroll_cocked(result.after, rng))))
