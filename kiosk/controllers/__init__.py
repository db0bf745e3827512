"""Table controllers: one per dice game, from a settled reading to a decision (pure, no I/O).

`decide(state, dice)` takes the engine state and the dice of contract 2 (face, x, y, size,
in_arena, cocked, confidence) and returns a `Decision`. Games read from phones only (Joust,
Stratego) have no controller: their dice readings are always ignored.
"""

from __future__ import annotations

from typing import Any

from engine.core import State
from kiosk.controllers import pair_dice, strike
from kiosk.controllers.decision import CONFIDENT, REASONS, Decision, ignore

DICE_KIND = {"strike": "strike", "knister": "pips", "detrak": "detrak"}


def decide(
    state: State, dice: list[dict[str, Any]], before: list[dict[str, Any]] | None = None
) -> Decision:
    """before: Strike's last still reading that agreed with the record (strike.decide)."""
    name = state.game.name
    if name == "strike":
        return strike.decide(state, dice, before)
    if name in ("knister", "detrak"):
        return pair_dice.decide(state, dice)
    return ignore("not_expected", dice)


__all__ = ["CONFIDENT", "DICE_KIND", "REASONS", "Decision", "decide"]
