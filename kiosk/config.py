"""The table's one configuration file (TOML): camera, seats' colours, pins, serial link, storage.

Every field has a default that works off a Pi (simulated camera, mock pins, no serial device), so
`arbitre run` needs no file at all. Unknown keys are an error that names them: a typo in a pin
name must not silently leave a LED dark.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

# One colour per seat, the same on the page and on the LEDs (colour-blind-safe order).
SEAT_COLOURS = ["#e6194b", "#4363d8", "#3cb44b", "#ffe119", "#f58231", "#911eb4"]
SEAT_COLOUR_NAMES = {
    "fr": ["rouge", "bleu", "vert", "jaune", "orange", "violet"],
    "en": ["red", "blue", "green", "yellow", "orange", "purple"],
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

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser()


def load_config(path: str | Path | None = None, **overrides: Any) -> Config:
    """The config from a TOML file (or defaults when path is None), then explicit overrides."""
    values: dict[str, Any] = {}
    if path is not None:
        with open(path, "rb") as f:
            values = tomllib.load(f)
    known = {f.name for f in fields(Config)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"{path}: unknown setting {unknown[0]!r}, expected one of {sorted(known)}")
    config = Config(**values)
    return replace(config, **{k: v for k, v in overrides.items() if v is not None})
