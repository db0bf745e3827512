"""Table controllers: one per dice game, from a settled reading to a decision (pure, no I/O).

`decide(state, dice)` takes the engine state and the dice of contract 2 (face, x, y, size,
in_arena, cocked, confidence) and returns a `Decision`. Games read from phones only (Joust,
Stratego) have no controller: their dice readings are always ignored.
"""

from __future__ import annotations

from typing import Any

from engine.core import State
from kiosk.controllers import pair_dice, strike
from kiosk.controllers.decision import CONFIDENT, REASONS, Decision, check, ignore

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


def still_cocked(state: State, dice: list[dict[str, Any]]) -> Decision:
    """A die read as cocked that nobody threw again: the players say what it shows (or throw
    it), on the check page, rather than the table waiting for ever."""
    request = state.dice()
    counted = [d for d in dice if d.get("in_arena", True) or state.game.name != "strike"]
    faces = [d.get("face") for d in counted]
    if request is None:
        return ignore("not_expected", dice)
    if request.act == "roll":
        line: dict[str, Any] = {"act": "roll", "dice": faces}
    else:
        line = {"act": request.act, "arena": faces}
        if request.seat is not None:
            line["seat"] = request.seat
    return check(line, ["cocked"], dice)


__all__ = ["CONFIDENT", "DICE_KIND", "REASONS", "Decision", "decide", "still_cocked"]
