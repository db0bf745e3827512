"""The table's events and who hears them: numbered events, the last few kept for clients that
reconnect, async subscribers (the event stream of every page) and plain listeners (LEDs, the
camera controller, the bridge).

Events are numbered per process ("<boot>.<n>"), so a client that reconnects with the
Last-Event-ID of an older process gets a fresh snapshot rather than a wrong replay. The Fanout
keeps no lock of its own: the Table calls it under its lock, except `tell`, which it calls
outside, so that a slow listener cannot hold up the table.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from collections.abc import Callable

from kiosk.moments import Event, Moment

log = logging.getLogger(__name__)

EVENTS_KEPT = 512


class Fanout:
    def __init__(self, kept: int = EVENTS_KEPT):
        self.boot = secrets.token_hex(3)
        self._listeners: list[Callable[[Event], None]] = []
        self._subscribers: dict[asyncio.Queue, asyncio.AbstractEventLoop] = {}
        self._events: deque[Event] = deque(maxlen=kept)
        self._n = 0

    def add_listener(self, callback: Callable[[Event], None]) -> None:
        self._listeners.append(callback)

    def remove_listener(self, callback: Callable[[Event], None]) -> None:
        self._listeners.remove(callback)

    def subscribe(
        self, loop: asyncio.AbstractEventLoop, last_id: str | None, moment: Callable[[], Moment]
    ) -> tuple[asyncio.Queue, list[Event]]:
        """A queue of future events plus what to send first: the events after `last_id` when
        still kept, else one snapshot of `moment()` (made only then)."""
        queue: asyncio.Queue = asyncio.Queue()
        self._subscribers[queue] = loop
        missed = self._events_after(last_id)
        return queue, missed if missed is not None else [self.snapshot(moment())]

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        self._subscribers.pop(queue, None)

    def snapshot(self, moment: Moment) -> Event:
        """The table now, numbered as the last event (it is what that event left)."""
        return Event(self._id(self._n), self._n, "snapshot", moment)

    def publish(self, kind: str, moment: Moment) -> Event:
        """Number an event, keep it and queue it to every async subscriber (cheap, and done
        under the table's lock, which keeps every subscriber's events in order)."""
        self._n += 1
        event = Event(self._id(self._n), self._n, kind, moment)
        self._events.append(event)
        for queue, loop in list(self._subscribers.items()):
            try:
                loop.call_soon_threadsafe(queue.put_nowait, event)
            except RuntimeError:  # the loop is closed: its client is gone
                self._subscribers.pop(queue, None)
        return event

    def tell(self, event: Event) -> None:
        """Run the listeners; one that fails is logged and the others still hear the event."""
        for callback in list(self._listeners):
            try:
                callback(event)
            except Exception:
                log.exception("table listener %r failed", callback)

    def _id(self, n: int) -> str:
        return f"{self.boot}.{n}"

    def _events_after(self, last_id: str | None) -> list[Event] | None:
        """The kept events after `last_id`, or None when they cannot be told: another
        process's id, a garbled one, one from the future or older than what is kept."""
        if not last_id or not last_id.startswith(self.boot + "."):
            return None
        try:
            n = int(last_id.split(".", 1)[1])
        except ValueError:
            return None
        if n > self._n or (self._events and n < self._events[0].n - 1):
            return None
        return [e for e in self._events if e.n > n]
