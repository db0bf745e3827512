"""Seat LEDs and buttons on the Pi's own pins, through gpiozero (real pins, or MockFactory off a Pi).

One LED per seat: [r, g, b] pins for an RGB LED, [pin] for a single-colour LED. One stop button
per seat and a table button: it confirms on a short press and undoes when held, unless a separate
undo button is wired, in which case it confirms as soon as it is pressed.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Sequence
from typing import Any

from .signals import DARK, ButtonPress, Pattern, PressHandler, Signals, TableSignal, seat_pattern

PULSE_S = 1.0  # fade in, fade out: a breathing LED, one breath every 2 s like the ring
BLINK_S = 0.5
FAST_S = 0.125


class GpioSignals(Signals):
    name = "gpio"

    def __init__(
        self,
        led_pins: Sequence[Sequence[int]] = (),
        colours: Sequence[str] = (),
        *,
        button_pins: Sequence[int] = (),
        table_pin: int | None = None,
        undo_pin: int | None = None,
        hold_time: float = 1.5,
        bounce_time: float = 0.05,
        active_high: bool = True,
        on_press: PressHandler | None = None,
        pin_factory: Any = None,
    ) -> None:
        super().__init__(on_press)
        from gpiozero import PWMLED, RGBLED  # imported here: not every install has gpiozero

        self.colours = list(colours)
        self.bounce_time = bounce_time
        self._lock = threading.Lock()
        self._shown: list[Pattern | None] = []
        self.leds: list[Any] = []
        self.buttons: list[Any] = []
        self._last_press: dict[int, float] = {}
        try:
            for pins in led_pins:
                if len(pins) == 3:
                    led = RGBLED(*pins, active_high=active_high, pin_factory=pin_factory)
                elif len(pins) == 1:
                    led = PWMLED(pins[0], active_high=active_high, pin_factory=pin_factory)
                else:
                    raise ValueError(f"a seat LED is [r, g, b] or [pin], not {list(pins)}")
                self.leds.append(led)
                self._shown.append(None)
            self._wire_buttons(button_pins, table_pin, undo_pin, hold_time, pin_factory)
        except Exception:
            self.close()
            raise

    # -- lights ----------------------------------------------------------------------------
    def show(self, signal: TableSignal) -> None:
        with self._lock:
            self.last = signal
            for seat, led in enumerate(self.leds):
                pattern = seat_pattern(signal, seat, self.colours)
                if pattern != self._shown[seat]:  # same pattern: leave a blink running smoothly
                    _apply(led, pattern)
                    self._shown[seat] = pattern

    # -- buttons ---------------------------------------------------------------------------
    def _wire_buttons(self, stop_pins, table_pin, undo_pin, hold_time, pin_factory) -> None:
        for seat, pin in enumerate(stop_pins):
            self._button(pin, hold_time, pin_factory).when_pressed = self._fire("stop", seat)
        if undo_pin is not None:
            self._button(undo_pin, hold_time, pin_factory).when_pressed = self._fire("undo")
        if table_pin is None:
            return
        table = self._button(table_pin, hold_time, pin_factory)
        if undo_pin is not None:
            table.when_pressed = self._fire("confirm")
            return
        held = threading.Event()
        undo, confirm = self._fire("undo"), self._fire("confirm")
        table.when_pressed = held.clear
        table.when_held = lambda: (held.set(), undo())
        table.when_released = lambda: None if held.is_set() else confirm()

    def _button(self, pin: int, hold_time: float, pin_factory: Any) -> Any:
        from gpiozero import Button

        button = Button(
            pin,
            pull_up=True,
            bounce_time=self.bounce_time,
            hold_time=hold_time,
            pin_factory=pin_factory,
        )
        self.buttons.append(button)
        return button

    def _fire(self, kind: str, seat: int | None = None):
        """A callback sending one press; a second edge within bounce_time is a bounce, dropped
        (the Pi's driver debounces too, but the mock pins do not)."""
        key = len(self._last_press)
        self._last_press[key] = -1e9

        def fire() -> None:
            now = time.monotonic()
            if now - self._last_press[key] < self.bounce_time:
                return
            self._last_press[key] = now
            self.press(ButtonPress(kind, seat, source="gpio"))

        return fire

    def status(self) -> dict[str, object]:
        return {"kind": self.name, "leds": len(self.leds), "buttons": len(self.buttons)}

    def close(self) -> None:
        for device in self.leds + self.buttons:
            with contextlib.suppress(Exception):  # best effort: one bad pin must not stop it
                device.close()
        self.leds, self.buttons, self._shown = [], [], []


def _apply(led: Any, pattern: Pattern) -> None:
    rgb = hasattr(led, "color")
    value: Any = pattern.rgb if rgb else pattern.level
    colour = {"on_color": value} if rgb else {}
    if pattern == DARK or pattern.effect == "off":
        led.off()
    elif pattern.effect == "on":
        if rgb:
            led.color = value
        else:
            led.value = value
    elif pattern.effect == "pulse":
        led.pulse(fade_in_time=PULSE_S, fade_out_time=PULSE_S, **colour)
    else:
        period = FAST_S if pattern.effect == "fast" else BLINK_S
        led.blink(on_time=period, off_time=period, **colour)
