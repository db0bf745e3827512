"""The three pages (table, seat, setup) and their files: plain HTML/JS/CSS, no build step."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from kiosk.i18n import LANGUAGES, STRINGS

router = APIRouter(tags=["pages"])
STATIC = Path(__file__).parent.parent / "static"


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


@router.get("/", include_in_schema=False)
def table_page() -> FileResponse:
    return _page("table.html")


@router.get("/seat/{n}", include_in_schema=False)
def seat_page(n: int) -> FileResponse:
    """The page reads its token from ?t= (the QR code) and keeps it for the API calls."""
    return _page("seat.html")


@router.get("/setup", include_in_schema=False)
def setup_page() -> FileResponse:
    return _page("setup.html")


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/api/i18n", tags=["pages"])
def i18n() -> dict:
    """Every string of the pages, per language (French first)."""
    return {"languages": list(LANGUAGES), "strings": STRINGS}


def mount_static(app: FastAPI, folder: Path) -> None:
    app.mount("/static", StaticFiles(directory=folder), name="static")
