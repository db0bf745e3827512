"""Dice thrown on the simulated table: Strike's throws (with the dice they knock, the cocked dice
leaning on a neighbour or the wall, rerolls of cocked dice, the end of a turn) and the two dice
of Knister and Détrak.

A mixin of SimCamera over the hand's actions (vision/sim/hand.py). Where the dice end and on
which face is the engine's throw model (engine/strike_throw.py), drawn from the camera's
model_rng; how they fly there is drawn from its rng.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from engine import strike_throw as st
from vision.sim.dice import DIE_MM, KINDS, pose
from vision.sim.hand import HAND_H, HandActions
from vision.sim.motion import Move, closest_progress
from vision.sim.scene import Plan, SimDie


class ThrowActions(HandActions):
    """Throws and rolls; SimCamera provides the state below and HandActions the scheduling."""

    game: str
    edition: str
    model_rng: random.Random
    _neighbours: list[tuple[float, float]]  # where the last throw left the arena's dice
    # and SimCamera's `arena_dice()` and `_plan_in_arena()`

    # --- Strike ----------------------------------------------------------------------------
    def place_start(self, face: int | str | None = None, seat: int = 0) -> int | str:
        """The start die, placed in the arena by hand (its face from the throw model)."""
        die = st.start_die(self.model_rng, self.edition)
        if face is not None:
            die = replace(die, face=face)
        t = self._start() + 0.5
        plan = Plan(die.face, die.x, die.y, die.angle)
        rot = pose(self.kind, die.face, die.angle)
        sx, sy = self.shoulder(seat)
        new = self.scene.add(self.kind, plan, rot, shown=t)
        new.moves.append(
            Move(t, t + 0.6, (sx * 0.3, sy * 0.3), (die.x, die.y), rot, rot, ease=0, arch=50.0)
        )
        self._hand(seat, [(t, sx * 0.3, sy * 0.3, 60.0), (t + 0.6, die.x, die.y, HAND_H)])
        return die.face

    def throw(self, count: int = 1, gather: bool = False, seat: int = 0) -> st.ThrowResult:
        """Throw `count` dice into the arena; the throw model decides where they end."""
        dice = self.arena_dice()
        before = [
            st.PlacedDie(d.plan.face, d.plan.x, d.plan.y, d.plan.yaw, d.plan.cocked) for d in dice
        ]
        result = st.throw(before, count, self.model_rng, gather_first=gather)
        self._neighbours = [(d.x, d.y) for d in result.after if d.in_arena]
        if gather and dice:
            self._gather(dice, result.before, seat)
        t = self._start() + 0.5
        moves = [self._throw_one(result.after[i], t, seat) for i in result.thrown]
        for i in result.knocked:
            self._knock(dice[i], result.after[i], moves)
        self._release(seat, t, moves[0])
        return result

    def _release(self, seat: int, t: float, first: Move) -> None:
        """The throwing hand: it swings in over the first die's start and lets go at `t`."""
        x, y = first.start
        self._hand(seat, [(t - 0.15, x * 1.2, y * 1.2, 90.0), (t + 0.05, x, y, 80.0)])

    def _gather(self, dice: list[SimDie], spots, seat: int) -> None:
        t = self._start() + 0.45
        for d, spot in zip(dice, spots, strict=True):
            centre, rot = d.pose(t)
            plan = replace(d.plan, x=spot.x, y=spot.y)
            d.moves.append(
                Move(
                    t,
                    t + 0.6,
                    (float(centre[0]), float(centre[1])),
                    (spot.x, spot.y),
                    rot,
                    rot,
                    ease=2.0,
                )
            )
            d.plan = plan
        sx, sy = self.shoulder(seat)
        d = math.hypot(sx, sy)
        edge = (sx / d * st.ARENA_B, sy / d * st.ARENA_B)
        self._hand(seat, [(t, -edge[0], -edge[1], 20.0), (t + 0.6, 0.0, 0.0, 20.0)])

    def _landing(self, placed: st.PlacedDie) -> Plan:
        if placed.in_arena and placed.cocked:
            return self._lean(placed)
        if placed.in_arena:
            return Plan(placed.face, placed.x, placed.y, placed.angle)
        x, y = self.layout.beside_box(placed.x, placed.y, self.rng)
        return Plan(placed.face, x, y, placed.angle, False)

    def _lean(self, placed: st.PlacedDie) -> Plan:
        """A cocked die rests against its nearest neighbour, or else against the wall."""
        others = [
            (x, y) for x, y in self._neighbours if math.dist((x, y), (placed.x, placed.y)) > 1
        ]
        near = min(others, key=lambda p: math.dist(p, (placed.x, placed.y)), default=None)
        x, y = placed.x, placed.y
        if near is not None and math.dist(near, (x, y)) < 1.8 * DIE_MM:
            lean = math.atan2(near[1] - y, near[0] - x)
            gap = 1.3 * DIE_MM  # its top edge rests on the neighbour's side
            nx, ny = near[0] - math.cos(lean) * gap, near[1] - math.sin(lean) * gap
            if st.inside_oval(nx, ny, margin=DIE_MM / 2):
                x, y = nx, ny
        else:
            r = math.hypot(x / st.ARENA_A, y / st.ARENA_B) or 1.0
            scale = 1.0 - 0.75 * DIE_MM / min(st.ARENA_A, st.ARENA_B)
            x, y = x / r * scale * 0.999, y / r * scale * 0.999
            lean = math.atan2(y / st.ARENA_B**2, x / st.ARENA_A**2)  # the wall's outward normal
        return Plan(placed.face, x, y, placed.angle, True, lean=lean)

    def _throw_one(self, placed: st.PlacedDie, t: float, seat: int) -> Move:
        sx, sy = self.shoulder(seat)
        d = math.hypot(sx, sy)
        reach = max(self.layout.box_half) + 10
        jitter = self.rng.uniform(-40, 40)
        start = (sx / d * reach - sy / d * jitter, sy / d * reach + sx / d * jitter)
        t0 = t + float(self.rng.uniform(0, 0.2))
        plan = self._landing(placed)
        rot1 = self._rest_rot(plan)
        hops = tuple(float(h) for h in sorted(self.rng.uniform(3, 30, 3), reverse=True))
        move = Move(
            t0,
            t0 + float(self.rng.uniform(1.0, 1.5)),
            start,
            (plan.x, plan.y),
            self._random_rot(),
            rot1,
            lift=80.0,
            hops=hops,
            quarter_turns=int(self.rng.integers(4, 10)),
            arch=0.0 if placed.in_arena else 45.0,
        )
        die = self.scene.add(self.kind, plan, rot1, shown=t0)
        die.moves.append(move)
        return move

    def _knock(self, die: SimDie, placed: st.PlacedDie, throws: list[Move]) -> None:
        here = (die.plan.x, die.plan.y)
        hitter = min(throws, key=lambda m: math.dist(m.end, here))
        t0 = max(closest_progress(hitter, here), hitter.t0 + 0.3 * (hitter.t1 - hitter.t0))
        centre, rot0 = die.pose(t0)
        plan = self._landing(placed)
        rot1 = self._rest_rot(plan)
        turns = int(self.rng.integers(0, 3)) if placed.face != die.plan.face else 0
        die.moves.append(
            Move(
                t0,
                t0 + float(self.rng.uniform(0.45, 0.9)),
                (float(centre[0]), float(centre[1])),
                (plan.x, plan.y),
                rot0,
                rot1,
                quarter_turns=turns,
                arch=0.0 if placed.in_arena else 40.0,
            )
        )
        die.plan, die.rest_rot = plan, rot1

    def reroll_cocked(self, seat: int = 0) -> list[SimDie]:
        """Each cocked die is thrown again beside the box and put back in its place, new face."""
        cocked = [d for d in self.arena_dice() if d.plan.cocked]
        placed = [st.PlacedDie(d.plan.face, d.plan.x, d.plan.y, d.plan.yaw, True) for d in cocked]
        fresh = st.reroll_cocked(placed, self.model_rng)
        t = self._start() + 0.45
        for d, new in zip(cocked, fresh, strict=True):
            home = Plan(new.face, d.plan.x, d.plan.y, new.angle)
            bx, by = self.layout.beside_box(d.plan.x, d.plan.y, self.rng)
            mid = Plan(new.face, bx, by, new.angle)
            rot = pose(self.kind, new.face, new.angle)
            self._carry(d, t, t + 0.6, mid, self._random_rot(), arch=45.0)
            d.moves.append(
                Move(t + 0.6, t + 1.1, (bx + 30, by), (bx, by), d.rest_rot, rot, quarter_turns=3)
            )
            self._carry(d, t + 1.4, t + 2.0, home, rot, arch=45.0)
            self._hand(
                seat,
                [
                    (t, home.x, home.y, HAND_H),
                    (t + 0.6, bx, by, HAND_H),
                    (t + 1.4, bx, by, HAND_H),
                    (t + 2.0, home.x, home.y, HAND_H),
                ],
            )
            t += 2.4
        return cocked

    def settle_turn(self, seat: int = 0) -> dict[str, list[SimDie]]:
        """Mirror the engine after a throw: crosses and dice out set aside, doubled values taken."""
        dice = self.arena_dice()
        out = [
            d
            for d in self.resting()
            if not d.plan.aside and not self._plan_in_arena(d.plan) and d.hidden == float("inf")
        ]
        crosses = [d for d in dice if d.plan.face == "X"]
        counts: dict[Any, int] = {}
        for d in dice:
            if d.plan.face != "X":
                counts[d.plan.face] = counts.get(d.plan.face, 0) + 1
        taken = [d for d in dice if d.plan.face != "X" and counts[d.plan.face] >= 2]
        self.set_aside([d.id for d in out + crosses], seat)
        self.take([d.id for d in taken], seat)
        return {"out": out, "crosses": crosses, "taken": taken}

    # --- Knister and Détrak ----------------------------------------------------------------
    def roll_two(self, faces=None, seat: int = 0) -> tuple:
        """Pick up the dice on the table, if any, and roll two (faces given, or random)."""
        values = KINDS[self.kind]
        if faces is None:
            faces = tuple(self.model_rng.choice(values) for _ in range(2))
        faces = tuple(faces)
        for f in faces:
            if f not in values:
                raise ValueError(f"a {self.kind} die shows one of {list(values)}, not {f!r}")
        self.clear(seat)
        t = self._start() + 0.5
        a, b = self.layout.box_half
        moves = []
        for face in faces:
            placed = st.PlacedDie(
                face,
                float(self.rng.uniform(-a + 25, a - 25)),
                float(self.rng.uniform(-b + 25, b - 25)),
                float(self.rng.uniform(0, 90)),
            )
            moves.append(self._throw_one(placed, t, seat))
        _separate_two(self.scene.dice[-2:])
        self._release(seat, t, moves[0])
        return faces


def _separate_two(dice: list[SimDie]) -> None:
    """Two dice rolled together must not end on the same spot: nudge the second one away."""
    a, b = dice
    dx, dy = b.plan.x - a.plan.x, b.plan.y - a.plan.y
    dist = math.hypot(dx, dy)
    need = DIE_MM * 1.6
    if dist >= need:
        return
    ux, uy = (dx / dist, dy / dist) if dist > 1e-6 else (1.0, 0.0)
    x, y = a.plan.x + ux * need, a.plan.y + uy * need
    move = b.moves[-1]
    b.moves[-1] = replace(move, end=(x, y))
    b.plan = replace(b.plan, x=x, y=y)
