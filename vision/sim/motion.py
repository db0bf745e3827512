"""How a die moves between two rest poses: flight, bounces, rolling, sliding, settling.

The throw model (engine.strike_throw) says where each die ends and on which face; a `Move` says
how it gets there, as a function of time, so any frame can be drawn without stepping a physics
simulation (and the same seed gives the same frame, however the frames are asked for).

- Position eases out (fast, then slowing down: friction on the foam).
- Height: a first fall from `lift` then bounces of decreasing height (`hops`), each a parabola.
- Rotation: a roll about the horizontal axis across the path, `quarter_turns` quarter turns that
  unwind to zero at the end, on top of a smooth turn from the start orientation to the end one;
  so the face on top changes as the die rolls, and it ends exactly on the planned face.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.sim.dice import exp_rotation, log_rotation, rotation, support


@dataclass(frozen=True)
class Move:
    t0: float
    t1: float
    start: tuple[float, float]
    end: tuple[float, float]
    rot0: np.ndarray
    rot1: np.ndarray
    lift: float = 0.0  # height (mm) of the die's base when the move starts
    hops: tuple[float, ...] = ()  # heights of the bounces after the first landing
    quarter_turns: int = 0
    ease: float = 2.0  # exponent of the ease-out: 1 is uniform speed, 2 slows to a stop; 0 eases
    # in and out (a die carried by the hand)
    arch: float = 0.0  # extra height in the middle of the move (carried over a wall)

    def progress(self, t: float) -> float:
        if self.t1 <= self.t0:
            return 1.0
        return min(1.0, max(0.0, (t - self.t0) / (self.t1 - self.t0)))

    def travelled(self, u: float) -> float:
        if self.ease == 0:
            return u * u * (3 - 2 * u)
        return 1.0 - (1.0 - u) ** self.ease

    def position(self, t: float) -> tuple[float, float]:
        s = self.travelled(self.progress(t))
        return (
            self.start[0] + (self.end[0] - self.start[0]) * s,
            self.start[1] + (self.end[1] - self.start[1]) * s,
        )

    def height(self, t: float) -> float:
        """The die's base above the table: first fall, then the bounces, then rolling flat."""
        u = self.progress(t)
        return self._bounce(u) + self.arch * math.sin(math.pi * u)

    def _bounce(self, u: float) -> float:
        n = len(self.hops)
        fall = 0.3 if self.lift > 0 else 0.0
        if u < fall:
            return self.lift * (1.0 - (u / fall) ** 2)
        span = 0.55 - fall if n else 0.0
        w = (u - fall) / span if span > 0 else 1.0
        if w < 1.0:
            # Bounce i lasts in proportion to the square root of its height (time of flight).
            lengths = np.sqrt(np.maximum(self.hops, 1e-6))
            edges = np.concatenate([[0.0], np.cumsum(lengths) / lengths.sum()])
            i = int(np.searchsorted(edges, w, side="right") - 1)
            i = min(max(i, 0), n - 1)
            v = (w - edges[i]) / (edges[i + 1] - edges[i])
            return 4.0 * self.hops[i] * v * (1.0 - v)
        return 0.0

    def axis(self) -> np.ndarray:
        dx, dy = self.end[0] - self.start[0], self.end[1] - self.start[1]
        length = math.hypot(dx, dy)
        if length < 1e-9:
            return np.array([1.0, 0.0, 0.0])
        # Rolling along v without slipping turns the die about up x v, at a positive rate.
        return np.array([-dy / length, dx / length, 0.0])

    def rotation(self, t: float) -> np.ndarray:
        u = self.progress(t)
        theta0 = self.quarter_turns * math.pi / 2
        axis = self.axis()
        unwound = rotation(axis, theta0) @ self.rot0  # rot0 with the roll still to come taken out
        rel = log_rotation(self.rot1 @ unwound.T)
        s = self.travelled(u)
        blend = exp_rotation(rel * s) @ unwound
        return rotation(axis, -theta0 * (1.0 - s)) @ blend

    def pose(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """(centre x, y, h in mm; orientation) at time t."""
        rot = self.rotation(t)
        x, y = self.position(t)
        return np.array([x, y, self.height(t) + support(rot)]), rot

    def moving(self, t: float) -> bool:
        return self.t0 <= t < self.t1


def closest_progress(move: Move, point: tuple[float, float]) -> float:
    """The time at which a moving die passes nearest a point (when a die in its path is hit)."""
    ax, ay = move.start
    bx, by = move.end
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    s = 0.0 if length2 < 1e-9 else ((point[0] - ax) * dx + (point[1] - ay) * dy) / length2
    s = min(1.0, max(0.0, s))
    u = s if move.ease == 0 else 1.0 - (1.0 - s) ** (1.0 / move.ease)
    return move.t0 + u * (move.t1 - move.t0)


HAND_DRIFT_MM = 3.0


@dataclass(frozen=True)
class HandPath:
    """The player's hand: keyframes (t, x, y, h) in mm, the arm reaching from `shoulder`."""

    keys: tuple[tuple[float, float, float, float], ...]
    shoulder: tuple[float, float]

    @property
    def t0(self) -> float:
        return self.keys[0][0]

    @property
    def t1(self) -> float:
        return self.keys[-1][0]

    def at(self, t: float) -> tuple[float, float, float] | None:
        if not self.keys or t < self.t0 or t > self.t1:
            return None
        for (ta, *a), (tb, *b) in zip(self.keys, self.keys[1:], strict=False):
            if ta <= t <= tb:
                w = 0.0 if tb <= ta else (t - ta) / (tb - ta)
                w = w * w * (3 - 2 * w)  # smoothstep: the hand eases in and out of each stop
                x, y, h = (p + (q - p) * w for p, q in zip(a, b, strict=True))
                return _drift(t, x, y, h)
        return _drift(t, *self.keys[-1][1:])


def _drift(t: float, x: float, y: float, h: float) -> tuple[float, float, float]:
    """A hovering hand is never still: a few millimetres of slow drift and tremor (deterministic in
    t), which is what tells a watching camera that the hand has not left."""
    dx = HAND_DRIFT_MM * (math.sin(2 * math.pi * 2.3 * t) + 0.5 * math.sin(2 * math.pi * 7.1 * t))
    dy = HAND_DRIFT_MM * (math.cos(2 * math.pi * 1.7 * t) + 0.5 * math.sin(2 * math.pi * 5.3 * t))
    return x + dx, y + dy, h
