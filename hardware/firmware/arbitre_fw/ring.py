"""The ring's picture at a moment: pure, so the PC tests check the very pixels the Pico shows.

The ring is cut into one sector per seat (seat 0 starts at `offset`, clockwise). Seats still in
play glow dimly in their colour, seats out are dark, and the mode animates on top.
"""

from .messages import (
    CHECK,
    GAME_OVER,
    GRAND_THROW,
    NO_SEAT,
    OFF,
    SEAT_OUT,
    SEAT_TAKES,
    TURN,
    WAITING_THROW,
)

DIM = 24  # of 255: a seat still in play
AMBER = (255, 150, 0)
RED = (255, 0, 0)
IDLE = (40, 40, 40)
DARK = (0, 0, 0)


def sectors(n_leds, n_seats, offset):
    """The LED indices of each seat's sector."""
    return [
        [(offset + i) % n_leds for i in range(s * n_leds // n_seats, (s + 1) * n_leds // n_seats)]
        for s in range(n_seats)
    ]


def scale(colour, level):
    return (colour[0] * level // 255, colour[1] * level // 255, colour[2] * level // 255)


def triangle(t, period, low=DIM):
    """A level going low -> 255 -> low once per period (a breathing LED)."""
    phase = t % period
    half = period // 2
    rise = phase if phase < half else period - phase
    return low + (255 - low) * rise // half


def blink(t, period):
    return t % period < period // 2


def idle(n_leds, t):
    """No host: one dim LED goes round, saying "powered, waiting for the Pi"."""
    px = [DARK] * n_leds
    px[(t // 80) % n_leds] = IDLE
    return px


def render(state, n_leds, t):
    """The n_leds (r, g, b) colours for `state` (a RingState, None = no host) at time t (ms)."""
    if state is None:
        return idle(n_leds, t)
    px = [DARK] * n_leds
    if state.mode == OFF or state.n_seats == 0:
        return px
    sect = sectors(n_leds, state.n_seats, state.offset)
    _base(px, state, sect)
    _mode(px, state, sect, t)
    return [scale(c, state.brightness) for c in px]


def _in_play(state, seat):
    return not (state.out >> seat) & 1


def _fill(px, leds, colour):
    for i in leds:
        px[i] = colour


def _base(px, state, sect):
    if state.mode == GAME_OVER:
        return
    for s in range(state.n_seats):
        if _in_play(state, s):
            _fill(px, sect[s], scale(state.colours[s], DIM))


def _mode(px, state, sect, t):
    mode, seat = state.mode, state.seat
    if seat == NO_SEAT and mode in (TURN, WAITING_THROW):
        _everyone(px, state, sect, t)
        return
    own = state.colours[seat] if seat != NO_SEAT else AMBER
    leds = sect[seat] if seat != NO_SEAT else []
    if mode == TURN:
        _fill(px, leds, own)
    elif mode == WAITING_THROW:
        _fill(px, leds, scale(own, triangle(t, 2000)))
    elif mode == GRAND_THROW:
        _grand_throw(px, own, t)
    elif mode == CHECK:
        if blink(t, 1000):
            _fill(px, range(len(px)), AMBER)
    elif mode == SEAT_TAKES:
        _fill(px, leds, own if blink(t, 250) else DARK)
    elif mode == SEAT_OUT:
        _fill(px, leds, RED if blink(t, 500) else DARK)
    elif mode == GAME_OVER:
        _game_over(px, state, sect, t)


def _everyone(px, state, sect, t):
    """No seat named: every seat in play may act (a first throw by anyone, a simultaneous turn)."""
    level = 255 if state.mode == TURN else triangle(t, 2000)
    for s in range(state.n_seats):
        if _in_play(state, s):
            _fill(px, sect[s], scale(state.colours[s], level))


def _grand_throw(px, colour, t):
    """The whole ring in the thrower's colour with a bright spot chasing round, once a second."""
    n = len(px)
    head = (t * n // 1000) % n
    _fill(px, range(n), scale(colour, DIM * 2))
    for k in range(3):
        px[(head - k) % n] = scale(colour, 255 >> k)


def _game_over(px, state, sect, t):
    level = triangle(t, 1500, 64)
    mask = state.highlight or (~state.out & 0xFF)  # no winner named: everyone still in play
    for s in range(state.n_seats):
        if (mask >> s) & 1:
            _fill(px, sect[s], scale(state.colours[s], level))
