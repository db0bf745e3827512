"""Frames on the serial link: COBS-encoded payload + CRC-16/CCITT, ended by one 0x00 byte.

COBS leaves no 0x00 inside a frame, so after any garbage the next 0x00 is a frame boundary again:
sync is never lost for more than one frame. The CRC (CCITT-FALSE: poly 0x1021, init 0xFFFF, as
CPython's `binascii.crc_hqx(data, 0xFFFF)`) rejects damaged frames. MicroPython's binascii has no
crc_hqx, hence the table here.
"""

MAX_FRAME = 128  # encoded bytes; anything longer is garbage and is skipped up to the next 0x00


def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def crc16(data, crc=0xFFFF):
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ b) & 0xFF]
    return crc


def cobs_encode(data):
    out = bytearray()
    block = bytearray()
    for b in data:
        if b == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data):
    """The decoded bytes, or None when `data` is not valid COBS."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        for b in data[i + 1 : end]:
            if b == 0:
                return None
        out.extend(data[i + 1 : end])
        i = end
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(payload):
    crc = crc16(payload)
    return cobs_encode(bytes(payload) + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


class Deframer:
    """Turns a byte stream into checked payloads; anything damaged is counted and dropped."""

    def __init__(self, max_frame=MAX_FRAME):
        self.max_frame = max_frame
        self.buf = bytearray()
        self.skipping = False
        self.dropped = 0

    def feed(self, data):
        """The good payloads completed by `data`, in order."""
        payloads = []
        for b in data:
            if b != 0:
                if self.skipping:
                    continue
                self.buf.append(b)
                if len(self.buf) > self.max_frame:
                    self.buf = bytearray()
                    self.skipping = True
                    self.dropped += 1
                continue
            if self.buf:
                payload = self._check(bytes(self.buf))
                if payload is None:
                    self.dropped += 1
                else:
                    payloads.append(payload)
            self.buf = bytearray()
            self.skipping = False
        return payloads

    def _check(self, encoded):
        raw = cobs_decode(encoded)
        if raw is None or len(raw) < 4:
            return None
        body, crc = raw[:-2], (raw[-2] << 8) | raw[-1]
        return body if crc16(body) == crc else None
