"""Who is asking: the table's own screen, a seat's phone (its token), the PIN holder, or anyone.

- the table PIN (header X-Table-Pin or ?pin=) sees everything and may do anything;
- a seat token (header X-Seat-Token or ?token=) sees that seat's view and acts for that seat;
- the table's own screen (a loopback client, when the app trusts it) sees the public view plus the
  PIN and the QR codes, and may act for any seat: it is the touch screen at the table;
- anyone else on the network sees the public view and may do nothing.
A wrong PIN or token is refused with 403 rather than quietly downgraded, so a phone knows.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request

from kiosk.moments import FULL, PUBLIC, TABLE
from kiosk.table import Table

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


@dataclass(frozen=True)
class Access:
    viewer: Any  # PUBLIC, TABLE, FULL or a seat number
    may_act: bool

    @property
    def seat(self) -> int | None:
        return self.viewer if isinstance(self.viewer, int) else None

    def check_line(self, line: dict[str, Any]) -> None:
        """A seat acts only for itself; the table screen and the PIN act for anyone."""
        if not self.may_act:
            raise HTTPException(403, "scan your seat's QR code, or give the table PIN, to play")
        seat = line.get("seat") if isinstance(line, dict) else None
        if self.seat is not None and seat is not None and seat != self.seat:
            raise HTTPException(
                403, f"this phone is seat {self.seat}: it cannot act for seat {seat}"
            )


def get_table(request: Request) -> Table:
    return request.app.state.table


def _given(request: Request, header: str, query: str) -> str | None:
    return request.headers.get(header) or request.query_params.get(query)


def is_local(request: Request) -> bool:
    client = request.client.host if request.client else ""
    return request.app.state.trust_local and client in LOOPBACK


def get_access(request: Request) -> Access:
    table: Table = request.app.state.table
    pin = _given(request, "x-table-pin", "pin")
    if pin is not None:
        if not secrets.compare_digest(pin, table.pin):
            raise HTTPException(403, "wrong table PIN: read it on the table's screen")
        return Access(FULL, True)
    token = _given(request, "x-seat-token", "token")
    if token is not None:
        seat = table.seat_of_token(token)
        if seat is None:
            raise HTTPException(403, "unknown seat token: scan your seat's QR code again")
        return Access(seat, True)
    if is_local(request):
        return Access(TABLE, True)
    return Access(PUBLIC, False)


def seat_access(n: int, access: Annotated[Access, Depends(get_access)]) -> Access:
    """For /api/seats/{n}/...: the token must be seat n's (the PIN or the table screen may act
    as any seat)."""
    if access.seat is not None and access.seat != n:
        raise HTTPException(403, f"this token is seat {access.seat}'s, not seat {n}'s")
    if access.viewer == PUBLIC:
        raise HTTPException(403, f"seat {n}'s page needs its token (scan its QR code)")
    return Access(n, True)


def require_admin(access: Annotated[Access, Depends(get_access)]) -> Access:
    """Starting or importing a game needs the PIN (or the table's own screen)."""
    if access.viewer not in (FULL, TABLE):
        raise HTTPException(403, "starting a game needs the table PIN shown on the table's screen")
    return access


TableDep = Annotated[Table, Depends(get_table)]
AccessDep = Annotated[Access, Depends(get_access)]
SeatDep = Annotated[Access, Depends(seat_access)]
AdminDep = Annotated[Access, Depends(require_admin)]
