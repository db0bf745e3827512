"""The table's one configuration file (TOML): camera, seats' colours, pins, serial link, storage.

Every field has a default that works off a Pi (simulated camera, mock pins, no serial device), so
`arbitre run` needs no file at all. Unknown keys are an error that names them: a typo in a pin
name must not silently leave a LED dark. Settings may sit at the top level or, for readability, in
any of the tables of SECTIONS (`[pins] seat_button_pins = [...]`): a table only groups its keys.
The documented example is arbitre.example.toml at the repository root.
"""

from __future__ import annotations

import os
import tomllib
import types
import typing
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

# One colour per seat, the same on the page and on the LEDs (colour-blind-safe order).
SEAT_COLOURS = ["#e6194b", "#4363d8", "#3cb44b", "#ffe119", "#f58231", "#911eb4"]
SEAT_COLOUR_NAMES = {
    "fr": ["rouge", "bleu", "vert", "jaune", "orange", "violet"],
    "en": ["red", "blue", "green", "yellow", "orange", "purple"],
}
SECTIONS = ("kiosk", "camera", "seats", "pins", "buttons", "serial", "ring", "storage")
CHOICES = {
    "gpio": ("auto", "mock", "none"),
    "language": ("fr", "en"),
}


@dataclass(frozen=True)
class Config:
    camera: str = "auto"
    port: int = 8000
    host: str = "0.0.0.0"
    data_dir: str = "~/.local/share/arbitre"
    language: str = "fr"
    seat_colours: list[str] = field(default_factory=lambda: list(SEAT_COLOURS))
    # gpiozero pin names (BCM) per seat; an entry is [r, g, b] for an RGB LED or [pin] for one LED.
    seat_led_pins: list[list[int]] = field(default_factory=list)
    seat_button_pins: list[int] = field(default_factory=list)
    table_button_pin: int | None = None
    serial_port: str = "auto"  # "auto", "none" or a device path
    ring_leds: int = 24
    calibration: str = ""  # path of `arbitre calibrate`'s output; "" = data_dir/calibration.json
    # -- hardware (firmware_bridge); see docs/hardware.md --
    gpio: str = "auto"  # "auto": real pins on a Pi, mock pins elsewhere; "mock"; "none"
    undo_button_pin: int | None = None  # none: holding the table button undoes
    button_hold_seconds: float = 1.5
    button_bounce_seconds: float = 0.05
    led_active_high: bool = True  # false for common-anode RGB LEDs
    ring_brightness: float = 0.3  # 0..1: a 24-LED ring at full white draws 1.4 A
    ring_offset: int = 0  # the ring LED where seat 0's sector starts
    # what each of the microcontroller's buttons (GP10, GP11, ...) is: "stop:N", "confirm",
    # "undo", or "table" (a short press confirms, a hold undoes)
    ring_buttons: list[str] = field(
        default_factory=lambda: ["stop:0", "stop:1", "stop:2", "stop:3", "stop:4", "table"]
    )

    def __post_init__(self) -> None:
        _check_types(self)
        for name, allowed in CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(
                    f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}"
                )
        _check_hardware(self)

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser()

    @property
    def calibration_path(self) -> Path:
        """Where `arbitre calibrate` saves and `arbitre run` and `arbitre doctor` look: one
        answer, "~" expanded (run once looked for "~/…" as written, and read no calibration)."""
        if self.calibration:
            return Path(self.calibration).expanduser()
        return self.data_path / "calibration.json"


def find_config_file() -> Path | None:
    """The config file to use when none is named: $ARBITRE_CONFIG, else
    ~/.config/arbitre/arbitre.toml when it exists (where the Pi install puts it), else None."""
    named = os.environ.get("ARBITRE_CONFIG")
    if named:
        return Path(named).expanduser()
    home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    path = home / "arbitre" / "arbitre.toml"
    return path if path.is_file() else None


def load_config(path: str | Path | None = None, **overrides: Any) -> Config:
    """The config from a TOML file (or defaults when path is None), then explicit overrides."""
    values: dict[str, Any] = {}
    if path is not None:
        with open(path, "rb") as f:
            values = _flatten(tomllib.load(f), path)
    known = {f.name for f in fields(Config)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"{path}: unknown setting {unknown[0]!r}, expected one of {sorted(known)}")
    try:
        config = Config(**values)
        return replace(config, **{k: v for k, v in overrides.items() if v is not None})
    except ValueError as err:
        raise ValueError(f"{path}: {err}" if path is not None else str(err)) from None


def _flatten(doc: dict[str, Any], path: str | Path) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in doc.items():
        if isinstance(value, dict):
            if key not in SECTIONS:
                raise ValueError(f"{path}: unknown table [{key}], expected one of {list(SECTIONS)}")
            inner = value.items()
        else:
            inner = [(key, value)]
        for name, item in inner:
            if name in values:
                raise ValueError(f"{path}: {name!r} is set twice")
            values[name] = item
    return values


def _check_types(config: Config) -> None:
    hints = typing.get_type_hints(Config)
    for f in fields(Config):
        value = getattr(config, f.name)
        if not _is(value, hints[f.name]):
            raise ValueError(f"{f.name} must be {_describe(hints[f.name])}, not {value!r}")


def _is(value: Any, hint: Any) -> bool:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return any(_is(value, a) for a in args)
    if origin is list:
        return isinstance(value, list) and all(_is(v, args[0]) for v in value)
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def _describe(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_describe(a) for a in args if a is not type(None)) + " (or left out)"
    if origin is list:
        return f"a list of {_describe(args[0])}"
    return {int: "a whole number", float: "a number", str: "text", bool: "true or false"}.get(
        hint, str(hint)
    )


def _check_hardware(config: Config) -> None:
    """Pins that exist and are not used twice, colours, ring buttons: a mistake here would only
    show as a dark LED or a dead button on the table."""
    pins = [p for led in config.seat_led_pins for p in led] + list(config.seat_button_pins)
    pins += [p for p in (config.table_button_pin, config.undo_button_pin) if p is not None]
    for pin in pins:
        if not 0 <= pin <= 27:
            raise ValueError(f"GPIO pins are BCM numbers 0..27, not {pin}")
    twice = sorted({p for p in pins if pins.count(p) > 1})
    if twice:
        raise ValueError(f"GPIO {twice[0]} is used twice")
    for led in config.seat_led_pins:
        if len(led) not in (1, 3):
            raise ValueError(f"a seat LED is [r, g, b] or [pin], not {led}")
    for colour in config.seat_colours:
        if len(colour) != 7 or colour[0] != "#" or not _is_hex(colour[1:]):
            raise ValueError(f"seat colours are #rrggbb, not {colour!r}")
    if not config.seat_colours:
        raise ValueError("seat_colours must name at least one colour")
    if not 0 <= config.ring_brightness <= 1:
        raise ValueError(f"ring_brightness must be 0..1, not {config.ring_brightness}")
    for role in config.ring_buttons:
        kind, _, seat = role.partition(":")
        if not (role in ("confirm", "undo", "table") or (kind == "stop" and seat.isdigit())):
            raise ValueError(
                f"ring_buttons entries are stop:N, confirm, undo or table, not {role!r}"
            )


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)
