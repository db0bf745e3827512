"""What the table tells the players through lights, and what buttons tell the table.

`TableSignal` is a whole state, not a change: showing the same signal twice changes nothing, so the
table can call `show` from every state listener without bookkeeping. `seat_pattern` is the pure
rule that turns it into one seat LED's colour and effect; the ring draws its own (firmware).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass

MODES = (
    "off",  # everything dark
    "turn",  # whose turn it is, nothing more specific
    "waiting_throw",  # the seat should throw now
    "grand_throw",  # the seat must throw all its dice at once
    "check",  # the camera is unsure: someone must look (confirm on the kiosk or the table button)
    "seat_takes",  # `seat` takes dice
    "seat_out",  # `seat` is out of the game
    "game_over",  # `highlight` holds the winners
)
PRESS_KINDS = ("stop", "confirm", "undo")
MAX_SEATS = 8


@dataclass(frozen=True)
class TableSignal:
    """The lights' whole state. seat: whose turn (or who takes / goes out); seats: how many play;
    out: seats already out; highlight: seats to celebrate at game over (empty = all in play)."""

    mode: str = "off"
    seat: int | None = None
    seats: int = 0
    out: tuple[int, ...] = ()
    highlight: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"signal mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if not 0 <= self.seats <= MAX_SEATS:
            raise ValueError(f"seats must be 0..{MAX_SEATS}, not {self.seats}")
        named = [("seat", self.seat)] + [("out", s) for s in self.out]
        for name, seat in named + [("highlight", s) for s in self.highlight]:
            if seat is not None and not 0 <= seat < self.seats:
                raise ValueError(f"{name} must be a seat 0..{self.seats - 1}, not {seat}")
        object.__setattr__(self, "out", tuple(sorted(set(self.out))))
        object.__setattr__(self, "highlight", tuple(sorted(set(self.highlight))))


OFF = TableSignal()


@dataclass(frozen=True)
class ButtonPress:
    """A press the table acts on: "stop" for `seat`, or the table button's "confirm" / "undo"."""

    kind: str
    seat: int | None = None
    source: str = ""  # "gpio" or "ring": where it came from, for logs

    def __post_init__(self) -> None:
        if self.kind not in PRESS_KINDS:
            raise ValueError(
                f"press kind must be one of {', '.join(PRESS_KINDS)}, not {self.kind!r}"
            )
        if (self.kind == "stop") != (self.seat is not None):
            raise ValueError("a stop press names its seat; confirm and undo name none")


PressHandler = Callable[[ButtonPress], None]


@dataclass(frozen=True)
class Pattern:
    """One seat LED: an effect (off, on, pulse, blink, fast), a colour (0..1 per channel) and a
    level (0..1): an RGB LED shows colour x level, a single-colour LED just the level."""

    effect: str
    colour: tuple[float, float, float] = (0.0, 0.0, 0.0)
    level: float = 1.0

    @property
    def rgb(self) -> tuple[float, float, float]:
        return _scale(self.colour, self.level)


DARK = Pattern("off")
DIM = 0.1
AMBER = (1.0, 0.6, 0.0)
RED = (1.0, 0.0, 0.0)


def hex_rgb(colour: str) -> tuple[float, float, float]:
    """'#e6194b' -> (0.90, 0.10, 0.29)."""
    text = colour.lstrip("#")
    try:
        if len(text) == 6:
            return tuple(int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]
    except ValueError:
        pass
    raise ValueError(f"a colour is #rrggbb, not {colour!r}")


def seat_pattern(signal: TableSignal, seat: int, colours: list[str]) -> Pattern:
    """What seat `seat`'s LED shows for `signal` (the same rules as the ring's sectors)."""
    if signal.mode == "off" or seat >= signal.seats:
        return DARK
    own = hex_rgb(colours[seat % len(colours)])
    mode, at_seat = signal.mode, signal.seat == seat
    if mode == "game_over":
        winners = signal.highlight or tuple(s for s in range(signal.seats) if s not in signal.out)
        return Pattern("pulse", own) if seat in winners else DARK
    if mode == "check":
        return Pattern("blink", AMBER)
    if mode == "grand_throw" and seat not in signal.out and signal.seat is not None:
        return Pattern("fast" if at_seat else "pulse", hex_rgb(colours[signal.seat % len(colours)]))
    if at_seat or (signal.seat is None and mode in ("turn", "waiting_throw")):
        if seat in signal.out:
            return DARK
        return _at_seat(mode, own)  # no seat named: every seat in play may act
    return DARK if seat in signal.out else Pattern("on", own, DIM)


def _at_seat(mode: str, own: tuple[float, float, float]) -> Pattern:
    return {
        "turn": Pattern("on", own),
        "waiting_throw": Pattern("pulse", own),
        "seat_takes": Pattern("fast", own),
        "seat_out": Pattern("blink", RED),
    }[mode]


def _scale(colour: tuple[float, float, float], level: float) -> tuple[float, float, float]:
    return (colour[0] * level, colour[1] * level, colour[2] * level)


class Signals(ABC):
    """The table's lights and buttons. `show` may be called from any thread, as often as wished;
    presses reach `on_press` from a background thread (hand them to your own loop)."""

    name = "signals"

    def __init__(self, on_press: PressHandler | None = None) -> None:
        self.on_press = on_press
        self.last: TableSignal = OFF

    @abstractmethod
    def show(self, signal: TableSignal) -> None: ...

    def press(self, press: ButtonPress) -> None:
        """Deliver a press to the handler (drivers call this; tests may too)."""
        if self.on_press is not None:
            self.on_press(press)

    def status(self) -> dict[str, object]:
        return {"kind": self.name}

    def close(self) -> None:
        """Lights off and pins / link released; no press is delivered after it."""
        self.on_press = None

    def __enter__(self) -> Signals:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class NullSignals(Signals):
    """No lights, no buttons: the table works from the kiosk alone."""

    name = "none"

    def show(self, signal: TableSignal) -> None:
        self.last = signal


class MultiSignals(Signals):
    """Several outputs at once (seat LEDs and the ring); presses from any of them."""

    name = "multi"

    def __init__(self, parts: Iterable[Signals], on_press: PressHandler | None = None) -> None:
        super().__init__(on_press)
        self.parts = list(parts)
        for part in self.parts:
            part.on_press = self.press

    def show(self, signal: TableSignal) -> None:
        self.last = signal
        for part in self.parts:
            part.show(signal)

    def status(self) -> dict[str, object]:
        return {"kind": self.name, "parts": [p.status() for p in self.parts]}

    def close(self) -> None:
        for part in self.parts:
            part.close()
