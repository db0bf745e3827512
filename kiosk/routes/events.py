"""GET /api/events: Server-Sent Events. A snapshot on connect, then every change, numbered.

Each message is a full snapshot for the viewer (public, table screen, seat or PIN), so a page just
redraws. The browser's EventSource reconnects by itself with Last-Event-ID; the table then sends
the events that client missed, or a fresh snapshot when they are no longer kept (after a restart).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from kiosk.moments import Event
from kiosk.routes.access import AccessDep, TableDep
from kiosk.table import Table

router = APIRouter(prefix="/api", tags=["events"])

PING_SECONDS = 15.0


@router.get("/events")
async def events(
    request: Request, table: TableDep, access: AccessDep, limit: int | None = None
) -> StreamingResponse:
    """text/event-stream of snapshots; `limit` closes the stream after that many (for tools)."""
    last_id = request.headers.get("last-event-id") or request.query_params.get("last_event_id")
    queue, first = table.subscribe(asyncio.get_running_loop(), last_id)
    stream = _stream(table, access.viewer, queue, first, limit, table.game_id)
    return StreamingResponse(
        stream,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _message(event: Event, viewer, table: Table) -> str:
    return f"id: {event.id}\nevent: snapshot\ndata: {event.json(viewer, table)}\n\n"


def _other_game(event: Event, viewer, game_id: int | None) -> bool:
    """A seat's token belongs to one game: when another starts, its stream ends (the seat page
    says so), so a phone never sees the seat of the same number in the next game."""
    return isinstance(viewer, int) and event.moment.game_id != game_id


GONE = "event: gone\ndata: {}\n\n"


async def _stream(
    table: Table,
    viewer,
    queue: asyncio.Queue,
    first: list[Event],
    limit: int | None,
    game_id: int | None,
) -> AsyncIterator[str]:
    sent, last = 0, 0
    try:
        yield "retry: 1000\n\n"
        for event in first:
            if _other_game(event, viewer, game_id):
                yield GONE
                return
            yield _message(event, viewer, table)
            sent, last = sent + 1, event.n
            if limit is not None and sent >= limit:
                return
        while limit is None or sent < limit:
            try:
                event = await asyncio.wait_for(queue.get(), PING_SECONDS)
            except TimeoutError:
                yield ": ping\n\n"
                continue
            if event.n <= last:
                continue
            if _other_game(event, viewer, game_id):
                yield GONE
                return
            yield _message(event, viewer, table)
            sent, last = sent + 1, event.n
    finally:
        table.unsubscribe(queue)
