"""The player's hand on the simulated table: the actions of any game (a hand passing over the
table, clearing it, taking dice, setting them aside) and the scheduling they share with the
throws (vision/sim/throws.py).

A mixin of SimCamera, kept apart so that the camera's module holds the frame source and what is
on the table, and this one what the hand does to it. It uses the camera's scene, random
generators, layout and clock (the attributes declared below).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.sim.dice import exp_rotation, pose
from vision.sim.motion import HandPath, Move
from vision.sim.scene import Plan, Scene, SimDie
from vision.sim.table import Layout

SHOULDER_MM = 470.0
HAND_H = 45.0  # mm above the table where the hand hovers to pick or push dice
COCK_TILT = (18.0, 30.0)


class HandActions:
    """What the hand does on any table; SimCamera provides the state below."""

    scene: Scene
    rng: np.random.Generator
    layout: Layout
    kind: str
    players: int
    _aside_count: int
    # and SimCamera's `now` and `resting()`

    # --- scheduling helpers --------------------------------------------------------------
    def _start(self) -> float:
        return max(self.now, self.scene.busy_until())

    def shoulder(self, seat: int) -> tuple[float, float]:
        angle = math.pi / 2 + 2 * math.pi * seat / self.players
        return SHOULDER_MM * math.cos(angle) * 1.2, SHOULDER_MM * math.sin(angle)

    def _rest_rot(self, plan: Plan) -> np.ndarray:
        if plan.cocked:
            tilt = float(self.rng.uniform(*COCK_TILT))
            # Leaning towards v means turning about up x v: axis (-vy, vx), at angle lean + 90°.
            return pose(self.kind, plan.face, plan.yaw, tilt, plan.lean + math.pi / 2)
        return pose(self.kind, plan.face, plan.yaw)

    def _random_rot(self) -> np.ndarray:
        return exp_rotation(self.rng.normal(0, 2.0, 3))

    def _hand(self, seat: int, keys: list[tuple[float, float, float, float]]) -> None:
        sx, sy = self.shoulder(seat)
        t0, t1 = keys[0][0] - 0.45, keys[-1][0] + 0.45
        full = [(t0, sx * 0.8, sy * 0.8, 150.0), *keys, (t1, sx * 0.8, sy * 0.8, 150.0)]
        self.scene.hands.append(HandPath(tuple(full), (sx, sy)))

    def _carry(self, die: SimDie, t0: float, t1: float, plan: Plan, rot1, arch: float = 40.0):
        centre, rot0 = die.pose(t0)
        die.moves.append(
            Move(
                t0,
                t1,
                (float(centre[0]), float(centre[1])),
                (plan.x, plan.y),
                rot0,
                rot1,
                ease=0,
                arch=arch,
            )
        )
        die.plan, die.rest_rot = plan, rot1

    # --- actions for any game ------------------------------------------------------------
    def hand_in_view(self, seat: int = 0, duration: float = 1.5, at=None) -> float:
        """The player's hand reaches over the table and back (a distraction for the watcher)."""
        t = self._start()
        x, y = (
            at
            if at is not None
            else (float(self.rng.uniform(-60, 60)), float(self.rng.uniform(-40, 40)))
        )
        self._hand(seat, [(t + 0.3, x, y, 70.0), (t + 0.3 + duration, x + 10, y + 5, 80.0)])
        return self.scene.busy_until()

    def clear(self, seat: int = 0) -> None:
        """Every die leaves the table (a new round): swept away by the hand."""
        dice = [d for d in self.resting() if d.hidden == float("inf")]
        if dice:
            self._take(dice, seat)
        self._aside_count = 0

    def take(self, ids, seat: int = 0) -> list[SimDie]:
        """The hand takes these dice (by id) off the table."""
        wanted = set(ids)
        dice = [d for d in self.resting() if d.id in wanted]
        self._take(dice, seat)
        return dice

    def _take(self, dice: list[SimDie], seat: int) -> None:
        if not dice:
            return
        t = self._start() + 0.45
        cx = float(np.mean([d.plan.x for d in dice]))
        cy = float(np.mean([d.plan.y for d in dice]))
        sweep = 0.35
        for d in dice:
            centre, rot = d.pose(t)
            d.moves.append(
                Move(
                    t,
                    t + sweep,
                    (float(centre[0]), float(centre[1])),
                    (cx, cy),
                    rot,
                    rot,
                    ease=0,
                    arch=12.0,
                )
            )
            d.hidden = t + sweep
        self._hand(seat, [(t, cx, cy, HAND_H), (t + sweep + 0.1, cx, cy, HAND_H + 10)])

    def set_aside(self, ids, seat: int = 0) -> list[SimDie]:
        """The hand puts these dice beside the box, one by one (crosses, dice out of the arena)."""
        wanted = set(ids)
        dice = [d for d in self.resting() if d.id in wanted and not d.plan.aside]
        t = self._start() + 0.45
        keys = []
        for d in dice:
            spot = self.layout.aside_spot(self._aside_count)
            self._aside_count += 1
            plan = replace(
                d.plan,
                x=spot[0],
                y=spot[1],
                yaw=float(self.rng.uniform(0, 90)),
                cocked=False,
                aside=True,
            )
            rot1 = pose(self.kind, plan.face, plan.yaw)
            keys += [(t, d.plan.x, d.plan.y, HAND_H), (t + 0.6, spot[0], spot[1], HAND_H)]
            self._carry(d, t, t + 0.6, plan, rot1, arch=45.0)
            t += 0.85
        if keys:
            self._hand(seat, keys)
        return dice
