"""The simulated table's contents over time: dice with their planned moves, and the hand.

A die is a list of moves; its pose at any time is the pose of the last move begun (or that move's
start, before it). It appears at `shown` and disappears at `hidden` (taken away by the hand).
`plan` is where the die will rest once its moves are done: what the throw model decided.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.sim.dice import KINDS, top_slot
from vision.sim.motion import HandPath, Move


@dataclass
class Plan:
    """A die at rest, in the throw model's terms (mm from the oval's centre)."""

    face: int | str
    x: float
    y: float
    yaw: float = 0.0
    cocked: bool = False
    aside: bool = False  # set beside the box (a cross, a die that left the arena)
    lean: float = 0.0  # a cocked die leans towards this direction (radians, on the table)


@dataclass
class SimDie:
    id: int
    kind: str
    plan: Plan
    rest_rot: np.ndarray
    moves: list[Move] = field(default_factory=list)
    shown: float = 0.0
    hidden: float = float("inf")

    def visible(self, t: float) -> bool:
        return self.shown <= t < self.hidden

    def active(self, t: float) -> Move | None:
        current = None
        for move in self.moves:
            if move.t0 <= t:
                current = move
        return current

    def pose(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        move = self.active(t) or (self.moves[0] if self.moves else None)
        if move is None:
            from vision.sim.dice import support

            return np.array([self.plan.x, self.plan.y, support(self.rest_rot)]), self.rest_rot
        return move.pose(t)

    def moving(self, t: float) -> bool:
        return any(m.moving(t) for m in self.moves)

    def busy_until(self) -> float:
        ends = [m.t1 for m in self.moves]
        if self.hidden != float("inf"):
            ends.append(self.hidden)
        return max(ends, default=self.shown)

    def top_face(self, rot: np.ndarray) -> int | str:
        return KINDS[self.kind][top_slot(rot)]


@dataclass
class Scene:
    dice: list[SimDie] = field(default_factory=list)
    hands: list[HandPath] = field(default_factory=list)
    next_id: int = 0

    def add(self, kind: str, plan: Plan, rest_rot: np.ndarray, shown: float) -> SimDie:
        die = SimDie(self.next_id, kind, plan, rest_rot, shown=shown)
        self.next_id += 1
        self.dice.append(die)
        return die

    def hand_at(self, t: float):
        """(x, y, h) of the hand and its shoulder, or None when no hand is over the table."""
        for hand in self.hands:
            at = hand.at(t)
            if at is not None:
                return at, hand.shoulder
        return None

    def busy_until(self) -> float:
        ends = [d.busy_until() for d in self.dice] + [h.t1 for h in self.hands]
        return max(ends, default=0.0)

    def forget_before(self, t: float) -> None:
        """Drop dice taken away and hands gone before t: a long game keeps a short list."""
        self.dice = [d for d in self.dice if d.hidden > t]
        self.hands = [h for h in self.hands if h.t1 >= t]
