"""Knister and Détrak: while a roll is expected, exactly two settled dice become the `roll`.

Where the dice lie does not matter (no arena); a third die, a missing one, a cocked one or an unsure
face goes to the players. The runner only hands over readings that follow a motion since the last
roll, so dice still lying from the previous roll are never taken for a new one.
"""

from __future__ import annotations

from typing import Any

from engine.core import BadRecord, IllegalAction, State
from kiosk.controllers.decision import Decision, check, doubts, ignore, reroll, submit


def decide(state: State, dice: list[dict[str, Any]]) -> Decision:
    request = state.dice()
    if request is None:
        return ignore("not_expected", dice)
    if not dice:
        return ignore("no_change", dice)  # nothing on the table yet (the dice are in a hand)
    if any(d.get("cocked") for d in dice):
        return reroll(dice)
    line = {"act": "roll", "dice": [d.get("face") for d in dice]}
    reasons = doubts(dice)
    if len(dice) != request.count:
        return check(None, ["wrong_dice_count", *reasons], dice)
    if reasons:
        return check(line, reasons, dice)
    try:
        state.apply(state.game.parse_action(line))
    except (BadRecord, IllegalAction):
        return check(line, ["unreadable"], dice)
    return submit(line, dice)
