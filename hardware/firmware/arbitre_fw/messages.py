"""The link's message types and the ring's modes: one byte each, shared with firmware_bridge.

A payload is [type, seq, body...]. Button events number their own seq (0..255, wrapping) so the
host can drop a resent event; other frames carry seq 0 except the host's, which the device echoes
in its ACK.
"""

HELLO = 0x01  # host -> device: [protocol, hold_ms hi, hold_ms lo]
WELCOME = 0x02  # device -> host: [protocol, boot_id hi, lo, n_leds, n_buttons, version ascii...]
ACK = 0x03  # both ways: [seq acknowledged]
RING = 0x10  # host -> device: the whole ring state (see RingState), safe to repeat
BUTTON = 0x20  # device -> host: [index, kind]
PING = 0x30  # host -> device, every heartbeat
PONG = 0x31  # device -> host, the reply

# Ring modes, in RING's first body byte.
OFF = 0
TURN = 1
WAITING_THROW = 2
GRAND_THROW = 3
CHECK = 4
SEAT_TAKES = 5
SEAT_OUT = 6
GAME_OVER = 7
MODES = 8

NO_SEAT = 255
MAX_SEATS = 8  # the out / highlight masks are one byte

# Button event kinds: a debounced press, a hold past hold_ms, a release that was not a hold.
PRESS = 0
HOLD = 1
SHORT_RELEASE = 2


class RingState:
    """What the ring shows: decoded from a RING body, or None when the body is malformed.

    Body: mode, seat (255 = none), n_seats, out mask, highlight mask, brightness 0..255,
    offset (the LED where seat 0's sector starts), then n_seats x (r, g, b).
    """

    def __init__(self, mode, seat, n_seats, out, highlight, brightness, offset, colours):
        self.mode = mode
        self.seat = seat
        self.n_seats = n_seats
        self.out = out
        self.highlight = highlight
        self.brightness = brightness
        self.offset = offset
        self.colours = colours


def decode_ring(body):
    if len(body) < 7:
        return None
    mode, seat, n_seats, out, highlight, brightness, offset = body[:7]
    if mode >= MODES or n_seats > MAX_SEATS or len(body) != 7 + 3 * n_seats:
        return None
    if seat != NO_SEAT and seat >= n_seats:
        return None
    colours = [tuple(body[7 + 3 * i : 10 + 3 * i]) for i in range(n_seats)]
    return RingState(mode, seat, n_seats, out, highlight, brightness, offset, colours)
