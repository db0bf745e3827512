"""The serial link to the ring's microcontroller: handshake, ring state, heartbeat, button events,
and reconnection with back-off after an unplug.

One background thread owns the port: it finds it, says HELLO until WELCOME comes back, sends the
ring state (again after every reconnect, and until acknowledged), pings every `heartbeat` and
declares the link lost after `timeout` without a good frame. Button events are acknowledged every
time and delivered once: a resent event carries the same sequence number.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import protocol as p
from .framing import Deframer, encode_frame

log = logging.getLogger("arbitre.hardware")


class LinkError(Exception):
    """The device answered wrongly or not at all; the message says what was expected."""


@dataclass(frozen=True)
class LinkTiming:
    heartbeat: float = 0.5  # seconds between pings
    timeout: float = 2.0  # no good frame for this long: the link is lost
    handshake: float = 1.0  # no WELCOME after this long: not our firmware, try again later
    hello_every: float = 0.2
    ack_timeout: float = 0.3  # the ring state is sent again when not acknowledged by then
    backoff_min: float = 0.1  # first wait before looking for the port again
    backoff_max: float = 1.5  # the wait doubles up to this: a replug is seen within 2 s
    read_timeout: float = 0.02


def open_serial(port: str, baud: int = 115200, read_timeout: float = 0.02) -> Any:
    import serial

    return serial.Serial(port, baud, timeout=read_timeout, write_timeout=1.0, exclusive=True)


def _io_errors() -> tuple[type[BaseException], ...]:
    try:
        import serial

        return (OSError, serial.SerialException)
    except ImportError:
        return (OSError,)


class RingLink:
    """Keeps the device in sync; `on_event(index, kind)` gets each button event once."""

    def __init__(
        self,
        find_port: Callable[[], str | None],
        on_event: Callable[[int, int], None] | None = None,
        *,
        hold_ms: int = 1500,
        timing: LinkTiming | None = None,
        opener: Callable[[str], Any] | None = None,
    ) -> None:
        self.find_port = find_port
        self.on_event = on_event
        self.hold_ms = hold_ms
        self.timing = timing or LinkTiming()
        self.opener = opener or (
            lambda port: open_serial(port, read_timeout=self.timing.read_timeout)
        )
        self.connected = threading.Event()
        self.lost = threading.Event()
        self.welcome: p.Welcome | None = None
        self.port: str | None = None
        self.error = ""
        self.connects = 0
        self._lock = threading.Lock()
        self._ring: bytes | None = None
        self._ring_version = 0
        self._boot_id: int | None = None
        self._last_event: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the table's side ------------------------------------------------------------------
    def set_ring(self, body: bytes) -> None:
        """The ring state to show; sent at once if connected, else on connection."""
        with self._lock:
            if body != self._ring:
                self._ring = body
                self._ring_version += 1

    def start(self) -> RingLink:
        self._thread = threading.Thread(target=self._run, name="arbitre-ring-link", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def status(self) -> dict[str, Any]:
        w = self.welcome
        return {
            "kind": "ring",
            "connected": self.connected.is_set(),
            "port": self.port,
            "firmware": w.version if w else None,
            "leds": w.leds if w else None,
            "connects": self.connects,
            "error": self.error,
        }

    # -- the link thread -------------------------------------------------------------------
    def _run(self) -> None:
        delay = self.timing.backoff_min
        while not self._stop.is_set():
            port = self.find_port()
            if port is None:
                self.error = "no device found"
            elif self._serve(port):
                delay = self.timing.backoff_min
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, self.timing.backoff_max)

    def _serve(self, port: str) -> bool:
        """One connection, until it is lost; True when the handshake had succeeded."""
        try:
            ser = self.opener(port)
        except _io_errors() as err:
            self.error = f"cannot open {port}: {err}"
            return False
        self.port = port
        session = _Session(self, ser)
        try:
            session.serve()
        except (LinkError, *_io_errors()) as err:
            self.error = str(err) or type(err).__name__
            log.info("ring link on %s lost: %s", port, self.error)
        finally:
            if self.connected.is_set():
                self.lost.set()
            self.connected.clear()
            try:
                ser.close()
            except _io_errors():
                pass
        return session.welcomed

    def _welcomed(self, welcome: p.Welcome) -> None:
        if welcome.protocol != p.PROTOCOL:
            raise LinkError(
                f"the firmware speaks protocol {welcome.protocol}, this Arbitre speaks "
                f"{p.PROTOCOL}: copy hardware/firmware to the Pico again"
            )
        if welcome.boot_id != self._boot_id:  # a new boot numbers its events afresh
            self._boot_id, self._last_event = welcome.boot_id, None
        self.welcome, self.error = welcome, ""
        self.connects += 1
        self.lost.clear()
        self.connected.set()
        log.info(
            "ring link up on %s: firmware %s, %d LEDs", self.port, welcome.version, welcome.leds
        )

    def _event(self, seq: int, body: bytes) -> None:
        if seq == self._last_event or len(body) < 2:
            return
        self._last_event = seq
        if self.on_event is not None:
            try:
                self.on_event(body[0], body[1])
            except Exception:  # noqa: BLE001 - a handler's bug must not take the link down
                log.exception("button handler failed")


class _Session:
    """One open port: the handshake, then the heartbeat and the ring state."""

    def __init__(self, link: RingLink, ser: Any) -> None:
        self.link, self.ser, self.t = link, ser, link.timing
        self.deframer = Deframer()
        self.welcomed = False
        self.seq = 0
        self.ring_seq: int | None = None
        self.ring_version: int | None = None
        self.ring_acked = False
        self.ring_sent_at = 0.0

    def serve(self) -> None:
        start = self.last_rx = time.monotonic()
        last_hello = last_ping = float("-inf")
        while not self.link._stop.is_set():
            now = time.monotonic()
            if not self.welcomed:
                if now - start > self.t.handshake:
                    raise LinkError(f"no answer to hello within {self.t.handshake:g} s")
                if now - last_hello >= self.t.hello_every:
                    self._send(p.HELLO, p.hello_body(self.link.hold_ms))
                    last_hello = now
            else:
                if now - self.last_rx > self.t.timeout:
                    raise LinkError(f"no heartbeat for {self.t.timeout:g} s")
                if now - last_ping >= self.t.heartbeat:
                    self._send(p.PING)
                    last_ping = now
                self._sync_ring(now)
            self._receive()

    def _send(self, kind: int, body: bytes = b"") -> int:
        self.seq = (self.seq + 1) & 0xFF
        self.ser.write(encode_frame(p.payload(kind, self.seq, body)))
        return self.seq

    def _sync_ring(self, now: float) -> None:
        with self.link._lock:
            body, version = self.link._ring, self.link._ring_version
        if body is None:
            return
        stale = not self.ring_acked and now - self.ring_sent_at > self.t.ack_timeout
        if version != self.ring_version or stale:
            self.ring_seq = self._send(p.RING, body)
            self.ring_version, self.ring_acked, self.ring_sent_at = version, False, now

    def _receive(self) -> None:
        data = self.ser.read(max(1, self.ser.in_waiting))
        for payload in self.deframer.feed(data):
            self.last_rx = time.monotonic()
            self._handle(payload[0], payload[1], payload[2:])

    def _handle(self, kind: int, seq: int, body: bytes) -> None:
        if kind == p.WELCOME and not self.welcomed:
            welcome = p.Welcome.parse(body)
            if welcome is None:
                raise LinkError("malformed WELCOME from the device")
            self.link._welcomed(welcome)
            self.welcomed, self.ring_version = True, None  # send the whole state again
        elif kind == p.ACK and body and body[0] == self.ring_seq:
            self.ring_acked = True
        elif kind == p.BUTTON and self.welcomed:
            self._send(p.ACK, bytes((seq,)))
            self.link._event(seq, body)


def probe(port: str, timeout: float = 2.0, opener: Callable[[str], Any] | None = None) -> p.Welcome:
    """Open `port`, say hello, return the device's WELCOME, or raise LinkError / OSError."""
    ser = (opener or open_serial)(port)
    try:
        deframer = Deframer()
        deadline = time.monotonic() + timeout
        next_hello = 0.0
        while time.monotonic() < deadline:
            if time.monotonic() >= next_hello:
                ser.write(encode_frame(p.payload(p.HELLO, 1, p.hello_body(1500))))
                next_hello = time.monotonic() + 0.2
            for payload in deframer.feed(ser.read(max(1, ser.in_waiting))):
                welcome = p.Welcome.parse(payload[2:]) if payload[0] == p.WELCOME else None
                if welcome is not None:
                    return welcome
        raise LinkError(f"no answer to hello within {timeout:g} s: is the Arbitre firmware on it?")
    finally:
        ser.close()
