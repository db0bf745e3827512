"""The LED ring as `Signals`: table signals become ring states on the link, button events become
presses according to what each of the microcontroller's buttons is for (config `ring_buttons`)."""

from __future__ import annotations

from collections.abc import Sequence

from . import protocol as p
from .link import RingLink
from .signals import ButtonPress, PressHandler, Signals, TableSignal

ROLES = ("stop:N", "confirm", "undo", "table")


def parse_role(text: str) -> tuple[str, int | None]:
    """'stop:2' -> ('stop', 2); 'confirm', 'undo', 'table' (short press confirms, a hold undoes)."""
    kind, _, seat = text.partition(":")
    if kind == "stop" and seat.isdigit():
        return "stop", int(seat)
    if text in ("confirm", "undo", "table"):
        return text, None
    raise ValueError(f"a button is one of {', '.join(ROLES)}, not {text!r}")


def press_for(role: str, kind: int) -> ButtonPress | None:
    """The press a button event means, or None (a table button's press waits for its release)."""
    name, seat = parse_role(role)
    if name == "table":
        if kind == p.HOLD:
            return ButtonPress("undo", source="ring")
        return ButtonPress("confirm", source="ring") if kind == p.SHORT_RELEASE else None
    if kind != p.PRESS:
        return None
    return ButtonPress(name, seat, source="ring")


class RingSignals(Signals):
    name = "ring"

    def __init__(
        self,
        link: RingLink,
        colours: Sequence[str],
        *,
        buttons: Sequence[str] = (),
        brightness: float = 0.3,
        offset: int = 0,
        on_press: PressHandler | None = None,
    ) -> None:
        super().__init__(on_press)
        for role in buttons:
            parse_role(role)
        self.link, self.colours, self.buttons = link, list(colours), list(buttons)
        self.brightness, self.offset = brightness, offset
        link.on_event = self._event

    def show(self, signal: TableSignal) -> None:
        self.last = signal
        self.link.set_ring(p.ring_body(signal, self.colours, self.brightness, self.offset))

    def _event(self, index: int, kind: int) -> None:
        if index < len(self.buttons):
            press = press_for(self.buttons[index], kind)
            if press is not None:
                self.press(press)

    def status(self) -> dict[str, object]:
        return self.link.status()

    def close(self) -> None:
        self.link.close()
