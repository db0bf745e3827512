"""The table's lights and buttons: the table state becomes a TableSignal, a press an action.

`signal_for(table)` is pure: the whole light state for the table as it is (whose turn, a throw
awaited, the grand throw, a check open, game over), so it can be sent again and again. The
buttons reach the table the way a tap on the kiosk does: stop for a seat, confirm the open check,
undo the last placement.
"""

from __future__ import annotations

import logging
from typing import Any

from firmware_bridge import ButtonPress, TableSignal

log = logging.getLogger(__name__)


def signal_for(table: Any) -> TableSignal:
    state = table.state
    if state is None:
        return TableSignal("off")
    seats = state.game.num_players
    view = state.view()
    out = _out_seats(view)
    if state.is_over():
        return TableSignal("game_over", seats=seats, out=out, highlight=tuple(state.winners()))
    if table.pending is not None:
        return TableSignal("check", seats=seats, out=out)
    request = state.dice()
    turn = state.turn()
    if view.get("phase") == "grand_throw":
        return TableSignal("grand_throw", seat=request.seat, seats=seats, out=out)
    if request is not None and request.seat is not None and view.get("phase") != "choose":
        return TableSignal("waiting_throw", seat=request.seat, seats=seats, out=out)
    if request is not None and not turn:
        return TableSignal("waiting_throw", seat=request.seat, seats=seats, out=out)
    seat = turn[0] if len(turn) == 1 else None
    return TableSignal("turn", seat=seat, seats=seats, out=out)


def _out_seats(view: dict[str, Any]) -> tuple[int, ...]:
    """Seats out of the game: Strike's eliminated, Détrak's blocked (a list of seats or of flags)."""
    seats = view.get("eliminated") or view.get("blocked") or []
    if seats and all(isinstance(s, bool) for s in seats):
        return tuple(i for i, flag in enumerate(seats) if flag)
    return tuple(s for s in seats if isinstance(s, int))


def press_to_table(table: Any, press: ButtonPress) -> None:
    """Carry out a button press; a press the rules refuse is logged and shown, never fatal."""
    try:
        if press.kind == "stop":
            table.submit({"act": "stop", "seat": press.seat}, source="button")
        elif press.kind == "confirm" and table.pending is not None:
            table.confirm(table.pending.id, source="button")
        elif press.kind == "undo":
            table.undo(source="button")
    except Exception as err:  # a wrong press must not stop the button thread
        log.info("button %s refused: %s", press.kind, err)
        table.notice(str(err))


def follow_table(table: Any, signals: Any) -> None:
    """Keep the lights in step with the table from now on (and show the current state)."""
    last: list[TableSignal | None] = [None]

    def update(_event: Any = None) -> None:
        signal = signal_for(table)
        if signal != last[0]:
            last[0] = signal
            signals.show(signal)

    table.add_listener(update)
    update()
