"""Whether a seat's line decided on an older seq still stands.

Every line a phone sends carries the seq it was decided on; a line decided before the table
moved on is stale (HTTP 409), so that nobody acts on a state they did not see. But in Knister
and Détrak every seat writes the same roll at once («tous les joueurs jouent simultanément et
inscrivent toujours le même résultat», the Knister rules): the second phone's tap lands after
the first one's and would be refused although nothing it saw has changed for it. Such a line
stands when only other seats have written since and it was legal on the state it was decided
on; a roll, an undo or the seat's own line since keeps it stale. (Turn-based games gain nothing
and lose nothing: a seat whose turn it was not at that seq made an illegal line there.)
"""

from __future__ import annotations

from typing import Any

from engine.core import Action, IllegalAction, State


def still_stands(
    seq: int, current: int, entries: list[dict[str, Any]], states: list[State], action: Action
) -> bool:
    """`entries`: the table's lines, oldest first, each with its "seq" and "line"; `states`: the
    state before the first of them, then after each (one more than entries)."""
    since = current - seq
    seat = action.to_json().get("seat")
    if seat is None or not 0 < since <= len(entries):
        return False
    later = entries[len(entries) - since :]
    if [e["seq"] for e in later] != list(range(seq + 1, current + 1)):
        return False  # (an undo since: it took a seq and an entry away)
    if any(e["line"].get("seat") in (None, seat) for e in later):
        return False  # (a roll since, or this seat's own line)
    try:
        states[len(states) - 1 - since].apply(action)
    except IllegalAction:
        return False
    return True
