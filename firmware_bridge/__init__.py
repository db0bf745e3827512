"""Arbitre's hardware bridge: seat LEDs and buttons on the Pi's pins, the LED ring over serial.

API (what the table uses)::

    from firmware_bridge import ButtonPress, TableSignal, make_signals

    signals = make_signals(config, on_press=handle)   # config: kiosk.config.Config
    signals.show(TableSignal("waiting_throw", seat=1, seats=4, out=(3,)))
    ...
    signals.close()

- `TableSignal(mode, seat=None, seats=0, out=(), highlight=())` is the lights' *whole* state, a
  frozen value; `show` may be called with the same one again and again (nothing restarts), from any
  thread. Modes: off, turn, waiting_throw, grand_throw, check, seat_takes, seat_out, game_over
  (`highlight` = the winners). Bad values raise ValueError naming what was expected.
- `on_press(ButtonPress)` is called from a background thread with kind "stop" (and its seat),
  "confirm" or "undo"; hand it over to your own loop (e.g. `loop.call_soon_threadsafe`).
- `make_signals` picks: `GpioSignals` when pins are configured (gpiozero; MockFactory off a Pi,
  passed as pin_factory, never set globally), `RingSignals` when a serial port is found or named
  (a background thread keeps the link: handshake, heartbeat, reconnect with back-off, state resent),
  `MultiSignals` for both, `NullSignals` for none. `signals.status()` is a dict for a status page.
- `seat_pattern(signal, seat, colours)` is the pure rule for one seat LED (colour + effect).
- `emulator.EmulatedDevice` runs the real Pico firmware under CPython over a pseudo-terminal.
"""

from .factory import make_signals
from .signals import (
    MODES,
    ButtonPress,
    MultiSignals,
    NullSignals,
    Pattern,
    Signals,
    TableSignal,
    seat_pattern,
)

__all__ = [
    "MODES",
    "ButtonPress",
    "MultiSignals",
    "NullSignals",
    "Pattern",
    "Signals",
    "TableSignal",
    "make_signals",
    "seat_pattern",
]
