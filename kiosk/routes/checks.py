"""«À vérifier»: the reading the table is unsure of, fixed by a tap and confirmed by the players,
and the latest camera picture."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Response
from pydantic import BaseModel

from kiosk.routes.access import AccessDep, TableDep
from kiosk.routes.game import judged

router = APIRouter(prefix="/api", tags=["check"])


class DieFix(BaseModel):
    check: int
    index: int
    face: int | str


class CheckRef(BaseModel):
    check: int


def _may_act(access) -> None:
    if not access.may_act:
        raise HTTPException(403, "scan your seat's QR code, or give the table PIN, to check")


@router.get("/check")
def get_check(table: TableDep) -> dict[str, Any] | None:
    """The open check (proposed line, reasons, dice), or null."""
    check = table.pending
    return check.public() if check else None


@router.post("/check/die")
def fix_die(fix: DieFix, table: TableDep, access: AccessDep) -> dict[str, Any]:
    """Set a die's true face: the proposed line follows."""
    _may_act(access)
    return judged(table.fix_die, fix.check, fix.index, fix.face).public()


@router.post("/check/confirm")
def confirm(ref: CheckRef, table: TableDep, access: AccessDep) -> dict[str, Any]:
    """Record the checked reading (422 with the reason if the rules refuse it)."""
    _may_act(access)
    judged(table.confirm, ref.check)
    return table.view(access.viewer)


@router.post("/check/reroll")
def reroll(ref: CheckRef, table: TableDep, access: AccessDep) -> dict[str, Any]:
    """Nothing is recorded: the players throw the doubtful die again."""
    _may_act(access)
    judged(table.reroll, ref.check)
    return {"ok": True}


@router.get("/check/frame.jpg")
def check_frame(table: TableDep) -> Response:
    check = table.pending
    if check is None or check.frame is None:
        raise HTTPException(404, "no picture is waiting to be checked")
    return Response(check.frame, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/frame.jpg")
def frame(table: TableDep) -> Response:
    """The latest camera picture (its reading is in the snapshot's "frame")."""
    latest = table.frame
    if latest is None:
        raise HTTPException(404, "no camera picture yet")
    return Response(latest.jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})
