"""COBS frames with a CRC-16/CCITT, the host's half (the firmware has its own, in MicroPython).

Why COBS + CRC rather than a text line with a checksum: a frame's only 0x00 is its end, so after
any noise (a REPL traceback, a glitch on unplug, random bytes) the next 0x00 resynchronises without
escaping rules; the binary body stays a few bytes (a whole ring state is 7 + 3 per seat); and the
16-bit CRC lets through about one damaged frame in 65,536, against one in 256 for a one-byte sum.
"""

from __future__ import annotations

import binascii

MAX_FRAME = 128


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF); the firmware computes the same by table."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    block = bytearray()
    for b in data:
        if b == 0:
            out += bytes((len(block) + 1,)) + block
            block.clear()
            continue
        block.append(b)
        if len(block) == 254:
            out += b"\xff" + block
            block.clear()
    out += bytes((len(block) + 1,)) + block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes | None:
    """The decoded bytes, or None when `data` is not valid COBS (a zero inside, a code too long)."""
    out = bytearray()
    i = 0
    while i < len(data):
        code, end = data[i], i + data[i]
        if code == 0 or end > len(data) or 0 in data[i + 1 : end]:
            return None
        out += data[i + 1 : end]
        i = end
        if code < 255 and i < len(data):
            out.append(0)
    return bytes(out)


def encode_frame(payload: bytes) -> bytes:
    return cobs_encode(payload + crc16(payload).to_bytes(2, "big")) + b"\x00"


class Deframer:
    """Bytes in, checked payloads out; damaged or overlong frames are counted in `dropped`."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self.buf = bytearray()
        self.skipping = False
        self.dropped = 0

    def feed(self, data: bytes) -> list[bytes]:
        payloads = []
        for chunk_end, part in _split_keep(data):
            if not self.skipping:
                self.buf += part
                if len(self.buf) > self.max_frame:
                    self.buf.clear()
                    self.skipping = True
                    self.dropped += 1
            if chunk_end:
                payload = self._check(bytes(self.buf)) if self.buf else None
                if payload is not None:
                    payloads.append(payload)
                elif self.buf:
                    self.dropped += 1
                self.buf.clear()
                self.skipping = False
        return payloads

    @staticmethod
    def _check(encoded: bytes) -> bytes | None:
        raw = cobs_decode(encoded)
        if raw is None or len(raw) < 4:
            return None
        body, crc = raw[:-2], int.from_bytes(raw[-2:], "big")
        return body if crc16(body) == crc else None


def _split_keep(data: bytes):
    """(ends_a_frame, bytes) pieces of data split at each 0x00."""
    parts = data.split(b"\x00")
    for k, part in enumerate(parts):
        yield k < len(parts) - 1, part
