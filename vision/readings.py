"""What the reader saw in one frame, as plain records, and its contract-2 JSON form.

Like supervision's Detections, results are data and drawing them is someone else's job
(vision/overlay.py). A die's face is None when the die is cocked or unreadable: the reader never
guesses, it says how sure it is and lets the table ask the players.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

KINDS = ("pips", "strike", "detrak")
DETRAK_FACES = ("hash", "slash", "bars", "triangle", "circle", "cross")
# Two dice lying flat and touching are a side apart: two readings nearer than this share of a
# side are of one die (a cocked die leaning on a flat one stays a little farther).
SAME_DIE = 0.8
FACES: dict[str, tuple[Any, ...]] = {
    "pips": (1, 2, 3, 4, 5, 6),
    "strike": ("X", 2, 3, 4, 5, 6),
    "detrak": DETRAK_FACES,
}


def check_kind(kind: str) -> str:
    """The dice kind, or a ValueError naming the kinds expected."""
    if kind not in KINDS:
        raise ValueError(f"dice kind must be one of {', '.join(KINDS)}, not {kind!r}")
    return kind


@dataclass(frozen=True)
class Ellipse:
    """The Strike arena: centre, semi-axes (a >= b) and the angle of the a axis, in image pixels."""

    cx: float
    cy: float
    a: float
    b: float
    angle: float  # degrees, of the a axis from the image x axis, as cv2.ellipse draws it

    def radius_ratio(self, x: float, y: float) -> float:
        """1.0 on the border, < 1 inside: how far a point is from the centre, in ellipse units."""
        t = math.radians(self.angle)
        dx, dy = x - self.cx, y - self.cy
        u = dx * math.cos(t) + dy * math.sin(t)
        v = -dx * math.sin(t) + dy * math.cos(t)
        return math.hypot(u / max(self.a, 1e-9), v / max(self.b, 1e-9))

    def contains(self, x: float, y: float) -> bool:
        return self.radius_ratio(x, y) <= 1.0

    def scaled(self, k: float) -> Ellipse:
        return Ellipse(self.cx * k, self.cy * k, self.a * k, self.b * k, self.angle)

    def to_json(self) -> dict[str, float]:
        return {k: round(v, 1) for k, v in vars(self).items()}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Ellipse:
        try:
            return cls(*(float(obj[k]) for k in ("cx", "cy", "a", "b", "angle")))
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"an arena needs numbers cx, cy, a, b, angle; got {obj!r}") from err


@dataclass(frozen=True)
class Die:
    """One die as seen from above. x, y: the top face's centre; size: its side; angle: degrees."""

    face: int | str | None
    x: float
    y: float
    size: float
    in_arena: bool = True  # True when there is no arena: every die on the table counts
    cocked: bool = False
    confidence: float = 0.0
    angle: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "face": self.face,
            "x": round(self.x, 1),
            "y": round(self.y, 1),
            "size": round(self.size, 1),
            "in_arena": self.in_arena,
            "cocked": self.cocked,
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class Readings:
    """Every die found in one frame, the arena if any, and the milliseconds the reading took."""

    kind: str
    dice: tuple[Die, ...] = ()
    arena: Ellipse | None = None
    ms: float = 0.0
    frame_size: tuple[int, int] = (0, 0)  # width, height
    notes: tuple[str, ...] = field(default=())

    def faces(self, min_confidence: float = 0.0) -> list[int | str | None]:
        """Faces of the dice in the arena (or all when there is none), None where unsure."""
        return [d.face if d.confidence >= min_confidence else None for d in self.dice if d.in_arena]

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": [d.to_json() for d in self.dice],
            "arena": self.arena.to_json() if self.arena else None,
            "ms": round(self.ms, 1),
        }
