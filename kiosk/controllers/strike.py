"""Strike: a settled reading of the arena becomes the `start` or `throw` action, or a question.

The camera reports every die it sees; the engine's arena is what the record says is there. A reading
whose arena equals the engine's is no throw (the player gathered the dice, or took a pair out), so it
is ignored — unless more dice now lie outside the arena than at the last still moment after the
record changed (`out_baseline`): then a die was thrown and flew out, changing nothing inside.
Anything else while a throw is expected is the throw's outcome.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.core import BadRecord, IllegalAction, State
from kiosk.controllers.decision import Decision, check, doubts, ignore, reroll, submit


def _arena_dice(dice: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [d for d in dice if d.get("in_arena", True)]


def _same_arena(faces: list[Any], state: State) -> bool:
    return Counter(faces) == Counter(state.view()["arena"])


def outside(dice: list[dict[str, Any]]) -> int:
    """How many dice lie outside the arena (thrown out, or set aside beside the box)."""
    return sum(1 for d in dice if not d.get("in_arena", True))


def _many_left(left: int, thrown: int) -> bool:
    """Dice gone from the arena in one throw: one is common (the thrown die misses), two or more
    is rare enough that a die the camera lost is the likelier story (half a grand throw, idem)."""
    return left >= 2 and left > thrown // 2


def _vanished(left: int, dice: list[dict[str, Any]], out_baseline: int | None) -> bool:
    """A die that left the arena lands beside it, where the camera sees it too; a die missing
    from the arena and not seen outside is more likely one the camera failed to see."""
    return left > 0 and out_baseline is not None and outside(dice) - out_baseline < left


def decide(state: State, dice: list[dict[str, Any]], out_baseline: int | None = None) -> Decision:
    """The decision for one settled reading (contract-2 dice dicts) in this Strike state.

    out_baseline: dice seen outside the arena at the last still moment since the record last
    changed, or None when there was none yet (that moment becomes the baseline).
    """
    inside = _arena_dice(dice)
    faces = [d.get("face") for d in inside]
    request = state.dice()
    if request is None:
        return ignore("not_expected", dice)
    if request.act == "start" and not inside:
        return ignore("no_change", dice)  # the start die is not in yet
    if any(d.get("cocked") for d in inside):
        return reroll(dice)
    flew_out = out_baseline is not None and outside(dice) > out_baseline
    if request.act == "throw" and _same_arena(faces, state) and not flew_out:
        return ignore("no_change", dice)
    if request.act == "start":
        line: dict[str, Any] = {"act": "start", "arena": faces}
        room = 1
    else:
        line = {"act": "throw", "seat": request.seat, "arena": faces}
        room = len(state.view()["arena"]) + request.count
    reasons = doubts(inside)
    if len(inside) > room or (request.act == "start" and len(inside) != 1):
        reasons.append("bad_count")
    elif request.act == "throw" and _many_left(room - len(inside), request.count):
        reasons.append("many_left")
    elif request.act == "throw" and _vanished(room - len(inside), dice, out_baseline):
        reasons.append("vanished")
    if reasons:
        return check(line, reasons, dice)
    try:
        state.apply(state.game.parse_action(line))
    except (BadRecord, IllegalAction):
        return check(line, ["bad_count"], dice)
    return submit(line, dice)
