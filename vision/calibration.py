"""What `arbitre calibrate` learns once from a frame of the empty arena, saved as a small JSON file.

The arena's ellipse and the dice's side, in the pixels of the frame it was taken from; a frame of
another size is read with both scaled to it (the camera's view is assumed the same, only resized).
`below`, the point of the frame straight below the camera, is what the table's watcher learns
from its throws (vision/camera_point.py); a calibration without it reads about the frame's centre.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.readings import Ellipse

VERSION = 1


@dataclass(frozen=True)
class Calibration:
    frame_size: tuple[int, int]  # width, height of the calibration frame
    arena: Ellipse | None = None
    die_size: float | None = None
    below: tuple[float, float] | None = None  # the point below the camera, if known

    def for_frame(self, width: int, height: int) -> Calibration:
        """The same calibration in the pixels of a frame of another size."""
        fw, fh = self.frame_size
        if (fw, fh) == (width, height) or fw <= 0:
            return self
        k = width / fw
        return Calibration(
            (width, height),
            self.arena.scaled(k) if self.arena else None,
            self.die_size * k if self.die_size else None,
            (self.below[0] * k, self.below[1] * k) if self.below else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "frame_size": list(self.frame_size),
            "arena": self.arena.to_json() if self.arena else None,
            "die_size": None if self.die_size is None else round(self.die_size, 1),
            "below": None if self.below is None else [round(v, 1) for v in self.below],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Calibration:
        if not isinstance(obj, dict) or obj.get("version") != VERSION:
            raise ValueError(f"a calibration is a JSON object with version {VERSION}")
        try:
            w, h = (int(v) for v in obj["frame_size"])
            size = obj.get("die_size")
            die_size = None if size is None else float(size)
            point = obj.get("below")
            below = None if point is None else (float(point[0]), float(point[1]))
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise ValueError(
                "a calibration needs frame_size [w, h], die_size (number) and below [x, y] or null"
            ) from err
        arena = Ellipse.from_json(obj["arena"]) if obj.get("arena") else None
        return cls((w, h), arena, die_size, below)


def save(calibration: Calibration, path: str | Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(calibration.to_json(), indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)  # never leave a half-written calibration behind


def load(path: str | Path) -> Calibration:
    path = Path(path)
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not JSON ({err.msg}, line {err.lineno})") from err
    try:
        return Calibration.from_json(obj)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from err
