"""Strike: a settled reading of the arena becomes the `start` or `throw` action, or a question.

The camera reports every die it sees; the engine's arena is what the record says is there. The
reader may miss a die, see one twice, or misjudge which side of the arena's edge a die lies on, so
a reading only goes to the record when the whole scene adds up against `before`: the last still
reading that agreed with the record (its arena faces were the engine's).

- Dice are conserved: after a throw of k dice, the dice in the arena plus the dice that landed
  outside (surely read, at a spot where `before` had none, away from the pile set aside) are
  exactly the arena's dice before plus k. A die gone from the arena must thus be seen outside;
  a die missed, or seen twice, makes the count wrong: the players check.
- Without `before` (the record changed through the players and no still reading agreed with it
  since, or the players tidied and threw with no still moment between) only the count can be
  checked: every die where it can be, and none showing a face the last throw removed (a scene
  caught while the players take a pair or set a cross aside adds up like a throw). Otherwise the
  players are asked.

A reading that shows the record's arena while the players were still tidying (no `before` yet) is
no throw: ignored. Once the table is tidy (`before` agrees with the record), dice move for a throw,
or are pushed together in the middle before one (the rules advise it): a reading of the same arena,
its dice gathered tighter than `before`'s, is no throw either; with its dice not gathered and the
thrown dice seen nowhere, it asks the players.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from engine.core import BadRecord, IllegalAction, State
from kiosk.controllers.decision import Decision, check, doubts, ignore, reroll, submit

Dice = list[dict[str, Any]]

PILE_REACH = 1.5  # in die sizes: a die this close to one already outside may be part of the pile
GATHERED = 0.8  # the arena's dice, pushed together, spread at most this share of what they did
PACKED = 0.6  # ...or as a pack: this many die sizes from their centre x sqrt(n) (0.5 for two)


def _arena_dice(dice: Dice) -> Dice:
    return [d for d in dice if d.get("in_arena", True)]


def _same_arena(faces: list[Any], state: State) -> bool:
    return Counter(map(str, faces)) == Counter(map(str, state.view()["arena"]))


def outside(dice: Dice) -> int:
    """How many dice lie outside the arena (thrown out, or set aside beside the box)."""
    return sum(1 for d in dice if not d.get("in_arena", True))


def agrees(state: State, dice: Dice) -> bool:
    """Whether a reading shows exactly the record's arena, every die read: such a reading can
    serve as `before` for the next throw. An unsure face that matches the record is fine (the
    record already knows it); dice set aside beside the box count by their place only."""
    inside = _arena_dice(dice)
    if any(d.get("face") is None or d.get("cocked") for d in inside):
        return False
    return _same_arena([d.get("face") for d in inside], state)


def _at(die: dict[str, Any], dice: Dice, share: float = 0.5) -> dict[str, Any] | None:
    """The die of `dice` lying within `share` of a die's size of `die`, if any."""
    reach = share * float(die.get("size") or 0.0)
    for other in dice:
        dx = float(other.get("x", 0.0)) - float(die.get("x", 0.0))
        dy = float(other.get("y", 0.0)) - float(die.get("y", 0.0))
        if dx * dx + dy * dy <= reach * reach:
            return other
    return None


def _spread(dice: Dice) -> float:
    """The dice's mean distance from their centre, in pixels."""
    if not dice:
        return 0.0
    cx = sum(float(d.get("x", 0.0)) for d in dice) / len(dice)
    cy = sum(float(d.get("y", 0.0)) for d in dice) / len(dice)
    return sum(
        math.hypot(float(d.get("x", 0.0)) - cx, float(d.get("y", 0.0)) - cy) for d in dice
    ) / len(dice)


def _gathered(inside: Dice, before: Dice) -> bool:
    """Whether the same arena's dice were pushed together since `before`: two or more, spread
    GATHERED or less of what they were, or lying in a pack (pushed together again: a throw's
    die lost from sight leaves them where they lay, or knocks them apart)."""
    if len(inside) < 2:
        return False
    side = sorted(float(d.get("size") or 0.0) for d in inside)[len(inside) // 2]
    spread = _spread(inside)
    return spread <= GATHERED * _spread(before) or spread <= PACKED * side * math.sqrt(len(inside))


def _leftover(state: State, dice: Dice) -> bool:
    """Whether a die the last throw removed may still lie in the arena: a scene caught while
    the players take the doubled values or set the crosses aside, one die short, adds up like
    a throw. The arena's dice beyond the record's are the throw's, or such a leftover when one
    shows a face the last throw removed (then the players are asked)."""
    view = state.view()
    last = view.get("last") or {}
    removed = {str(f) for f in last.get("taken") or ()} | ({"X"} if last.get("crosses") else set())
    new = Counter(str(d.get("face")) for d in _arena_dice(dice))
    new.subtract(Counter(map(str, view["arena"])))
    return any(n > 0 and face in removed for face, n in new.items())


def _many_left(left: int, thrown: int) -> bool:
    """Dice gone from the arena in one throw: one is common (the thrown die misses), two or more
    is rare enough that a die the camera lost is the likelier story (half a grand throw, idem)."""
    return left >= 2 and left > thrown // 2


def landed_outside(dice: Dice, before: Dice) -> Dice:
    """Dice outside the arena that were not there before: surely read, at a spot where `before`
    had no die, and away from the dice already lying outside (the pile set aside beside the box,
    where a die read twice or merged with its neighbour would look like a new one)."""
    pile = [d for d in before if not d.get("in_arena", True)]
    return [
        d
        for d in dice
        if not d.get("in_arena", True)
        and not doubts([d])
        and not d.get("cocked")
        and _at(d, before) is None
        and _at(d, pile, PILE_REACH) is None
    ]


def _scene_doubts(state: State, dice: Dice, before: Dice | None, room: int, left: int) -> list[str]:
    """Why the scene does not add up for a throw after which `room` dice can be in the arena,
    `left` of them gone; empty when it does."""
    if before is None:  # nothing to check the scene on but the count
        if left > 0:
            return ["vanished"]
        return ["leftover"] if _leftover(state, dice) else []
    inside = _arena_dice(dice)
    seen = len(inside) + len(landed_outside(dice, before))
    if seen != room:
        return ["vanished" if seen < room else "bad_count"]
    return []


def decide(state: State, dice: Dice, before: Dice | None = None) -> Decision:
    """The decision for one settled reading (contract-2 dice dicts) in this Strike state.

    before: the dice of the last still reading that agreed with the record since the dice last
    changed in it (see `agrees`), or None when there is none.
    """
    inside = _arena_dice(dice)
    faces = [d.get("face") for d in inside]
    request = state.dice()
    if request is None:
        return ignore("not_expected", dice)
    if request.act == "start":
        return _start(state, dice, inside)
    if any(d.get("cocked") for d in inside):
        return reroll(dice)
    line = {"act": "throw", "seat": request.seat, "arena": faces}
    if _same_arena(faces, state):
        if before is None:
            return ignore("no_change", dice)  # nothing thrown: dice tidied, gathered or taken
        if len(landed_outside(dice, before)) != request.count:
            if _gathered(inside, _arena_dice(before)):
                return ignore("no_change", dice)  # pushed together for the throw to come
            # The table was tidy, so the dice moved for a throw; its die is seen nowhere.
            return check(line, ["vanished"], dice)
    room = len(state.view()["arena"]) + request.count
    left = room - len(inside)
    reasons = doubts(inside)
    if len(inside) > room:
        reasons.append("bad_count")
    elif _many_left(left, request.count):
        reasons.append("many_left")
    else:
        reasons += _scene_doubts(state, dice, before, room, left)
    return _sure_or_check(state, line, reasons, dice)


def _start(state: State, dice: Dice, inside: Dice) -> Decision:
    if not inside:
        return ignore("no_change", dice)  # the start die is not in yet
    if any(d.get("cocked") for d in inside):
        return reroll(dice)
    line = {"act": "start", "arena": [d.get("face") for d in inside]}
    reasons = doubts(inside)
    if len(inside) != 1:
        reasons.append("bad_count")
    return _sure_or_check(state, line, reasons, dice)


def _sure_or_check(state: State, line: dict[str, Any], reasons: list[str], dice: Dice) -> Decision:
    if reasons:
        return check(line, reasons, dice)
    try:
        state.apply(state.game.parse_action(line))
    except (BadRecord, IllegalAction):
        return check(line, ["bad_count"], dice)
    return submit(line, dice)
