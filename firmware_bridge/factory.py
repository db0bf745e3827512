"""`make_signals(config)`: the right lights for this machine, from the one config file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .link import LinkTiming, RingLink
from .ports import find_port
from .signals import MultiSignals, NullSignals, PressHandler, Signals

PI_MODEL = Path("/proc/device-tree/model")


def is_raspberry_pi(model_file: Path = PI_MODEL) -> bool:
    try:
        return "raspberry pi" in model_file.read_text(errors="replace").lower()
    except OSError:
        return False


def default_pin_factory(gpio: str = "auto") -> Any:
    """gpiozero's own choice on a Pi (lgpio), MockFactory with PWM pins elsewhere or when asked.

    Returned rather than set globally, so nothing else in the process changes its pins."""
    if gpio == "mock" or (gpio == "auto" and not is_raspberry_pi()):
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)
    return None


def wants_gpio(config: Any) -> bool:
    pins = config.seat_led_pins or config.seat_button_pins
    return config.gpio != "none" and bool(
        pins or config.table_button_pin is not None or config.undo_button_pin is not None
    )


def make_signals(
    config: Any,
    on_press: PressHandler | None = None,
    *,
    pin_factory: Any = None,
    port_finder: Callable[[], str | None] | None = None,
    timing: LinkTiming | None = None,
) -> Signals:
    """Seat LEDs when pins are configured, the ring when a serial port is found (or named), both,
    or nothing. The ring link runs in its own thread from here on; `close()` stops it."""
    parts: list[Signals] = []
    if wants_gpio(config):
        parts.append(_gpio(config, pin_factory or default_pin_factory(config.gpio)))
    finder = port_finder or (lambda: find_port(config.serial_port))
    if config.serial_port != "none" and (config.serial_port != "auto" or finder() is not None):
        parts.append(_ring(config, finder, timing))
    if not parts:
        return NullSignals(on_press)
    if len(parts) == 1:
        parts[0].on_press = on_press
        return parts[0]
    return MultiSignals(parts, on_press)


def _gpio(config: Any, pin_factory: Any) -> Signals:
    from .gpio import GpioSignals

    return GpioSignals(
        config.seat_led_pins,
        config.seat_colours,
        button_pins=config.seat_button_pins,
        table_pin=config.table_button_pin,
        undo_pin=config.undo_button_pin,
        hold_time=config.button_hold_seconds,
        bounce_time=config.button_bounce_seconds,
        active_high=config.led_active_high,
        pin_factory=pin_factory,
    )


def _ring(config: Any, finder: Callable[[], str | None], timing: LinkTiming | None) -> Signals:
    from .ring import RingSignals

    hold_ms = round(config.button_hold_seconds * 1000)
    link = RingLink(finder, hold_ms=hold_ms, timing=timing)
    signals = RingSignals(
        link,
        config.seat_colours,
        buttons=config.ring_buttons,
        brightness=config.ring_brightness,
        offset=config.ring_offset,
    )
    link.start()
    return signals
