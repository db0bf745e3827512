"""A seat's own endpoints (its token from its QR code): its view, its actions, its QR code."""

from __future__ import annotations

import io
from typing import Any

import segno
from fastapi import APIRouter, HTTPException, Request, Response

from kiosk.moments import FULL, TABLE
from kiosk.netaddr import table_url
from kiosk.routes.access import AccessDep, SeatDep, TableDep
from kiosk.routes.game import LineBody, judged, post_line

router = APIRouter(prefix="/api/seats", tags=["seats"])


def _known_seat(table, n: int) -> None:
    if table.game is None or not 0 <= n < table.game.num_players:
        count = table.game.num_players if table.game else 0
        raise HTTPException(404, f"no seat {n}: this game has seats 0..{count - 1}")


@router.get("/{n}/state")
def seat_state(n: int, table: TableDep, access: SeatDep) -> dict[str, Any]:
    """What seat n may see, as `arbitre replay --seat n`, plus seq."""
    _known_seat(table, n)
    return judged(table.view, n)


@router.get("/{n}/snapshot")
def seat_snapshot(n: int, table: TableDep, access: SeatDep) -> dict[str, Any]:
    _known_seat(table, n)
    return table.snapshot(n)


@router.post("/{n}/actions")
def seat_action(n: int, table: TableDep, access: SeatDep, body: LineBody) -> dict[str, Any]:
    """An action by seat n: a line naming another seat is refused with 403."""
    _known_seat(table, n)
    return post_line(table, access, body, "phone")


@router.post("/{n}/go-on")
def seat_goes_on(n: int, table: TableDep, access: SeatDep) -> dict[str, Any]:
    """Strike: the seat chooses to throw again (nothing to record; the table says so)."""
    _known_seat(table, n)
    table.notice(f"go_on:{n}")
    return {"ok": True}


@router.get("/{n}/qr.svg")
def seat_qr(n: int, request: Request, table: TableDep, access: AccessDep) -> Response:
    """The QR code that opens seat n's page with its token: only for the table's screen or the
    PIN holder, since it is the seat's key."""
    if access.viewer not in (TABLE, FULL):
        raise HTTPException(403, "a seat's QR code is shown on the table's screen only")
    _known_seat(table, n)
    url = f"{table_url(request, table.config.port)}/seat/{n}?t={table.tokens[n]}"
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False, svgns=True)
    return Response(out.getvalue(), media_type="image/svg+xml", headers={"X-Seat-Url": url})
