"""The link's messages, host side: the same numbers as hardware/firmware/arbitre_fw/messages.py
(a test holds the two together), and the encoding of a TableSignal as a ring state."""

from __future__ import annotations

from dataclasses import dataclass

from .signals import TableSignal, hex_rgb

PROTOCOL = 1

HELLO = 0x01
WELCOME = 0x02
ACK = 0x03
RING = 0x10
BUTTON = 0x20
PING = 0x30
PONG = 0x31

MODE_CODES = {
    "off": 0,
    "turn": 1,
    "waiting_throw": 2,
    "grand_throw": 3,
    "check": 4,
    "seat_takes": 5,
    "seat_out": 6,
    "game_over": 7,
}
NO_SEAT = 255

PRESS, HOLD, SHORT_RELEASE = 0, 1, 2


def payload(kind: int, seq: int, body: bytes = b"") -> bytes:
    return bytes((kind, seq & 0xFF)) + body


def hello_body(hold_ms: int) -> bytes:
    return bytes((PROTOCOL,)) + max(0, min(hold_ms, 0xFFFF)).to_bytes(2, "big")


def ring_body(signal: TableSignal, colours: list[str], brightness: float, offset: int) -> bytes:
    """A RING body: the whole state, so sending it twice is harmless."""
    head = (
        MODE_CODES[signal.mode],
        NO_SEAT if signal.seat is None else signal.seat,
        signal.seats,
        _mask(signal.out),
        _mask(signal.highlight),
        max(0, min(255, round(brightness * 255))),
        offset & 0xFF,
    )
    rgb = b"".join(
        bytes(round(c * 255) for c in hex_rgb(colours[s % len(colours)]))
        for s in range(signal.seats)
    )
    return bytes(head) + rgb


def _mask(seats: tuple[int, ...]) -> int:
    return sum(1 << s for s in seats)


@dataclass(frozen=True)
class Welcome:
    """The device's answer to HELLO."""

    protocol: int
    boot_id: int
    leds: int
    buttons: int
    version: str

    @classmethod
    def parse(cls, body: bytes) -> Welcome | None:
        if len(body) < 5:
            return None
        version = body[5:].decode("ascii", "replace")
        return cls(body[0], int.from_bytes(body[1:3], "big"), body[3], body[4], version)
