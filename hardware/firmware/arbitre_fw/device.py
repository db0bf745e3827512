"""The device's side of the link: handshake, ring state, heartbeat, button events until acked.

Pure logic: bytes in with `feed`, bytes out from `tick`, time passed in as ticks (ms). The Pico's
loop (pico.py) and the PC emulator drive the same object.
"""

from . import PROTOCOL, VERSION
from .framing import Deframer, encode_frame
from .messages import ACK, BUTTON, HELLO, PING, PONG, RING, WELCOME, decode_ring
from .ring import render
from .ticks import ticks_diff

HOST_TIMEOUT_MS = 3000  # no frame from the host for this long: the Pi is gone, show "waiting"
RESEND_MS = 250  # an unacknowledged button event is sent again after this
EVENT_TTL_MS = 2000  # ... and dropped after this: a stale "stop" must not hit a later turn
MAX_EVENTS = 8


class Device:
    def __init__(self, n_leds, n_buttons, boot_id, hold_ms=1500):
        self.n_leds = n_leds
        self.n_buttons = n_buttons
        self.boot_id = boot_id & 0xFFFF
        self.hold_ms = hold_ms
        self.deframer = Deframer()
        self.out = bytearray()
        self.ring = None
        self.host_seen = None
        self.event_seq = 0
        self.events = []  # [seq, index, kind, born, last_sent or None], oldest first

    # -- from the host ---------------------------------------------------------------------
    def feed(self, data, now):
        for payload in self.deframer.feed(data):
            self._handle(payload, now)

    def _handle(self, payload, now):
        kind, seq, body = payload[0], payload[1], payload[2:]
        if kind in (WELCOME, PONG, BUTTON):
            return  # our own frames echoed back by a terminal that is not in raw mode yet
        self.host_seen = now
        if kind == HELLO:
            if len(body) >= 3:
                self.hold_ms = (body[1] << 8) | body[2]
            self._send(WELCOME, 0, self._welcome())
        elif kind == RING:
            state = decode_ring(body)
            if state is not None:
                self.ring = state
                self._send(ACK, 0, bytes((seq,)))
        elif kind == PING:
            self._send(PONG, 0, b"")
        elif kind == ACK and body and self.events and self.events[0][0] == body[0]:
            self.events.pop(0)

    def _welcome(self):
        head = (PROTOCOL, self.boot_id >> 8, self.boot_id & 0xFF, self.n_leds, self.n_buttons)
        return bytes(head) + VERSION.encode()

    def _send(self, kind, seq, body):
        self.out.extend(encode_frame(bytes((kind, seq)) + body))

    # -- from the buttons ------------------------------------------------------------------
    def linked(self, now):
        return self.host_seen is not None and ticks_diff(now, self.host_seen) <= HOST_TIMEOUT_MS

    def press(self, index, kind, now):
        """Queue a button event for the host; False when no host listens or the queue is full."""
        if not self.linked(now) or len(self.events) >= MAX_EVENTS:
            return False
        self.event_seq = (self.event_seq + 1) & 0xFF
        self.events.append([self.event_seq, index, kind, now, None])
        return True

    # -- to the host -----------------------------------------------------------------------
    def tick(self, now):
        """The bytes to send now: replies, and the oldest button event when due."""
        if not self.linked(now):
            self.events = []
        while self.events and ticks_diff(now, self.events[0][3]) > EVENT_TTL_MS:
            self.events.pop(0)
        if self.events:
            head = self.events[0]
            if head[4] is None or ticks_diff(now, head[4]) >= RESEND_MS:
                head[4] = now
                self._send(BUTTON, head[0], bytes((head[1], head[2])))
        data = bytes(self.out)
        self.out = bytearray()
        return data

    def pixels(self, now):
        return render(self.ring if self.linked(now) else None, self.n_leds, now)
