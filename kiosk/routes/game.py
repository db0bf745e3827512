"""The game: start or import one, read its state, post actions, undo, download the record."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import PlainTextResponse

from engine.core import BadRecord, IllegalAction
from engine.record import RecordError
from engine.registry import game_class, names
from kiosk.routes.access import AccessDep, AdminDep, TableDep
from kiosk.table import NoGame, StaleSeq, Table

router = APIRouter(prefix="/api", tags=["game"])

ACTION_EXAMPLE = {"act": "place", "seat": 0, "cell": [2, 3], "seq": 7}
HEADER_EXAMPLE = {"game": "knister", "players": ["Ana", "Ben"], "options": {}}
LineBody = Annotated[Any, Body(examples=[ACTION_EXAMPLE])]
HeaderBody = Annotated[dict[str, Any], Body(examples=[HEADER_EXAMPLE])]


def judged(call, *args, **kwargs):
    """Run a table call, turning the rules' refusals into HTTP answers: 422 with the reason,
    409 for a stale seq or when no game is running."""
    try:
        return call(*args, **kwargs)
    except (IllegalAction, BadRecord, RecordError) as err:
        raise HTTPException(422, str(err)) from None
    except (StaleSeq, NoGame) as err:
        raise HTTPException(409, str(err)) from None


def split_line(body: Any) -> tuple[dict[str, Any], int | None]:
    """A posted action: {"line": {...}, "seq": N} or the record line itself with an optional
    "seq" key."""
    if not isinstance(body, dict):
        raise HTTPException(422, 'expected a JSON object: a record line such as {"act": ...}')
    if isinstance(body.get("line"), dict):
        line, seq = body["line"], body.get("seq")
    else:
        line = {k: v for k, v in body.items() if k != "seq"}
        seq = body.get("seq")
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
        raise HTTPException(422, f'"seq" must be a whole number, not {seq!r}')
    return line, seq


def post_line(table: Table, access, body: Any, source: str) -> dict[str, Any]:
    line, seq = split_line(body)
    access.check_line(line)
    judged(table.submit, line, seq=seq, source=source)
    return table.view(access.viewer)


@router.get("/health")
def health(table: TableDep) -> dict[str, Any]:
    """Liveness for the Pi's kiosk start script and monitors: answers as soon as the app serves."""
    return {"ok": True, "game": table.game.name if table.game else None, "seq": table.seq}


@router.get("/catalog")
def catalog() -> dict[str, Any]:
    """The installed games with their player counts and options (what /setup offers)."""
    out = {}
    for name in names():
        cls = game_class(name)
        out[name] = {
            "titles": dict(cls.titles),
            "min_players": cls.min_players,
            "max_players": cls.max_players,
            "options": {
                key: {
                    "default": spec.default,
                    "choices": list(spec.choices) if spec.choices is not None else None,
                    "minimum": spec.minimum,
                    "maximum": spec.maximum,
                    "help": spec.help,
                }
                for key, spec in cls.options_spec.items()
            },
        }
    return out


@router.post("/games")
def start_game(
    table: TableDep,
    access: AdminDep,
    header: HeaderBody,
) -> dict[str, Any]:
    """Start a game from a record header (needs the table PIN); the previous game stays logged.

    Options a record may hold but no new game should start with (a Joust track where the
    knights never meet) are refused here, in French then English, as /setup does."""
    problem = _setup_problem(header)
    if problem:
        raise HTTPException(422, f"{problem['fr']} / {problem['en']}")
    judged(table.new_game, header)
    return table.view(access.viewer)


def _setup_problem(header: dict[str, Any]) -> dict[str, str] | None:
    try:
        cls = game_class(str(header.get("game")))
    except (KeyError, ValueError):
        return None  # an unknown game: the table says so itself
    check = getattr(cls, "setup_problem", None)
    options = header.get("options")
    return check(options) if check and isinstance(options, dict) else None


@router.post("/games/import")
async def import_game(request: Request, table: TableDep, access: AdminDep) -> dict[str, Any]:
    """Start a game from a whole JSONL record (the body); 422 "line N: reason" if it is bad."""
    text = (await request.body()).decode("utf-8", errors="replace")
    judged(table.import_record, text)
    return table.view(access.viewer)


@router.get("/state")
def get_state(table: TableDep, access: AccessDep) -> dict[str, Any]:
    """The state as `arbitre replay` prints it, plus "seq": the public view without credentials,
    a seat's view with its token, everything with the PIN."""
    return judged(table.view, access.viewer)


@router.get("/snapshot")
def get_snapshot(table: TableDep, access: AccessDep) -> dict[str, Any]:
    """What the pages draw: state, turn, dice, history, check, frame, notices (as the event
    stream's first message)."""
    return table.snapshot(access.viewer)


@router.post("/actions")
def post_action(table: TableDep, access: AccessDep, body: LineBody) -> dict[str, Any]:
    """One record line, optionally with the "seq" it was decided on: 200 with the new state,
    422 with the reason when illegal, 409 when seq is stale."""
    return post_line(table, access, body, "phone" if access.seat is not None else "kiosk")


@router.post("/undo")
def undo(table: TableDep, access: AccessDep, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """Take back the last placement (never a dice outcome): 422 when it cannot be undone."""
    if not access.may_act:
        raise HTTPException(403, "scan your seat's QR code, or give the table PIN, to play")
    _, seq = split_line(body or {})
    last = table.last_line or {}
    if access.seat is not None and last.get("seat") != access.seat:
        raise HTTPException(403, f"seat {access.seat} may only take back its own placement")
    judged(table.undo, seq=seq, source="phone" if access.seat is not None else "kiosk")
    return table.view(access.viewer)


@router.get("/record", response_class=PlainTextResponse)
def get_record(table: TableDep, access: AccessDep) -> PlainTextResponse:
    """The game as a JSONL record. Games with secrets (Joust, Stratego) need the PIN until over."""
    text = judged(table.record_text)
    state = table.state
    secret = state is not None and state.public_view() != state.view(None)
    if access.viewer != "full" and secret and not state.is_over():
        raise HTTPException(403, "this game has secrets: its record needs the table PIN")
    name = f"arbitre-{table.game.name}-{table.game_id}.jsonl"
    return PlainTextResponse(
        text,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
