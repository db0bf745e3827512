"""A seeded model of throwing dice into the Strike arena: where dice land, which ones get knocked.

The engine only needs the faces after a throw; this model also keeps positions so the simulated
camera can draw the same table the engine keeps. It is a caricature of the physics, tuned to the
feel of the real box: the thrown die lands anywhere in the oval and now and then bounces out; dice
near its path are knocked, often turn to a new face, and sometimes leave the arena.

Coordinates are millimetres from the centre of the oval, x to the right, y down (as the camera sees).
Pure: every random draw comes from the `random.Random` passed in.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

ARENA_A = 120.0  # semi-axis of the oval along x (mm)
ARENA_B = 80.0  # semi-axis along y (mm)
DIE_MM = 16.0
FACES: tuple[int | str, ...] = ("X", 2, 3, 4, 5, 6)

MISS_CHANCE = 0.04  # a thrown die that bounces out of the box
KNOCK_RADIUS = 2.6 * DIE_MM  # dice this close to the thrown die's path get hit
TURN_CHANCE = 0.65  # a hit die turns to a new random face
COCK_CHANCE = 0.02  # a die that comes to rest on an edge (against a wall or another die)
GAP = 1.02  # dice pushed apart rest this much farther than touching (of their reaches)


@dataclass(frozen=True)
class PlacedDie:
    face: int | str
    x: float
    y: float
    angle: float = 0.0
    cocked: bool = False

    @property
    def in_arena(self) -> bool:
        return inside_oval(self.x, self.y)


@dataclass(frozen=True)
class ThrowResult:
    """A throw: the arena before (after any gathering), every die after, and what moved."""

    before: tuple[PlacedDie, ...]
    after: tuple[PlacedDie, ...]  # the old dice in their order, then the thrown ones
    thrown: tuple[int, ...]  # indices in `after` of the thrown dice
    knocked: tuple[int, ...]  # indices in `after` of old dice that moved

    def arena_faces(self) -> list[int | str]:
        """The faces in the arena: what the engine's throw action carries (no cocked die left)."""
        return arena_faces(self.after)


def inside_oval(x: float, y: float, margin: float = 0.0) -> bool:
    a, b = ARENA_A - margin, ARENA_B - margin
    return (x / a) ** 2 + (y / b) ** 2 <= 1.0


def arena_faces(dice: Sequence[PlacedDie]) -> list[int | str]:
    if any(d.cocked for d in dice if d.in_arena):
        raise ValueError("a cocked die has no face: re-roll it first (reroll_cocked)")
    return [d.face for d in dice if d.in_arena]


def _random_point_in_oval(rng: random.Random, margin: float) -> tuple[float, float]:
    while True:
        x = rng.uniform(-ARENA_A, ARENA_A)
        y = rng.uniform(-ARENA_B, ARENA_B)
        if inside_oval(x, y, margin):
            return x, y


def _random_point_outside(rng: random.Random) -> tuple[float, float]:
    angle = rng.uniform(0, 2 * math.pi)
    scale = rng.uniform(1.12, 1.35)
    return ARENA_A * scale * math.cos(angle), ARENA_B * scale * math.sin(angle)


def start_die(rng: random.Random, edition: str = "2012") -> PlacedDie:
    """The start die: placed near the middle on any face but X (2012), or thrown in until not X."""
    if edition == "2012":
        x, y = _random_point_in_oval(rng, margin=ARENA_B * 0.6)
        return PlacedDie(rng.choice(FACES[1:]), x, y, rng.uniform(0, 90))
    while True:
        x, y = _random_point_in_oval(rng, margin=DIE_MM)
        face = rng.choice(FACES)
        if face != "X":
            return PlacedDie(face, x, y, rng.uniform(0, 90))


def gather(dice: Sequence[PlacedDie], rng: random.Random) -> tuple[PlacedDie, ...]:
    """Push the arena's dice together in the middle, faces unchanged (the rules allow it); the
    dice keep their turn, so the cluster is as tight as their corners let it be."""
    spots = _cluster_spots(len(dice))
    rng.shuffle(spots)
    jitter = DIE_MM * 0.08
    packed = [
        replace(d, x=sx + rng.uniform(-jitter, jitter), y=sy + rng.uniform(-jitter, jitter))
        for d, (sx, sy) in zip(dice, spots, strict=True)
    ]
    return tuple(_separate(packed))


def _cluster_spots(n: int) -> list[tuple[float, float]]:
    """Centres of a tight hexagonal cluster of n dice around the oval's centre."""
    step = DIE_MM * 1.08
    spots = []
    ring = 0
    while len(spots) < n:
        for i in range(-ring, ring + 1):
            for j in range(-ring, ring + 1):
                if max(abs(i), abs(j), abs(i + j)) == ring:
                    spots.append(((i + j / 2) * step, j * step * 0.87))
        ring += 1
    spots.sort(key=lambda p: math.hypot(*p))
    return spots[:n]


def _land(rng: random.Random) -> PlacedDie:
    if rng.random() < MISS_CHANCE:
        x, y = _random_point_outside(rng)
    else:
        x, y = _random_point_in_oval(rng, margin=DIE_MM * 0.5)
    return PlacedDie(rng.choice(FACES), x, y, rng.uniform(0, 90), rng.random() < COCK_CHANCE)


def _knock(die: PlacedDie, hit: PlacedDie, rng: random.Random) -> PlacedDie:
    dx, dy = die.x - hit.x, die.y - hit.y
    dist = math.hypot(dx, dy) or 1.0
    push = rng.uniform(0.3, 3.5) * DIE_MM * (KNOCK_RADIUS / max(dist, DIE_MM)) ** 0.5
    x, y = die.x + dx / dist * push, die.y + dy / dist * push
    face = rng.choice(FACES) if rng.random() < TURN_CHANCE else die.face
    return PlacedDie(face, x, y, rng.uniform(0, 90), rng.random() < COCK_CHANCE)


def throw(
    arena: Sequence[PlacedDie], count: int, rng: random.Random, gather_first: bool = False
) -> ThrowResult:
    """Throw `count` dice (1, or the whole reserve for the grand throw) into the arena."""
    if count < 1:
        raise ValueError(f"a throw is at least one die, not {count}")
    before = gather(arena, rng) if gather_first else tuple(arena)
    dice = list(before)
    knocked: set[int] = set()
    for _ in range(count):
        new = _land(rng)
        for i, die in enumerate(dice):
            if die.in_arena and math.hypot(die.x - new.x, die.y - new.y) < KNOCK_RADIUS:
                dice[i] = _knock(die, new, rng)
                knocked.add(i)
        dice.append(new)
    dice = _separate(dice)
    old = len(before)
    moved = tuple(sorted(i for i in range(old) if i in knocked or dice[i] != before[i]))
    return ThrowResult(before, tuple(dice), tuple(range(old, len(dice))), moved)


def _reach(die: PlacedDie, ux: float, uy: float) -> float:
    """How far a die reaches from its centre along the unit direction (ux, uy): half a side face
    to face, half a diagonal corner first."""
    t = math.radians(die.angle)
    c, s = math.cos(t), math.sin(t)
    return DIE_MM / 2 * (abs(ux * c + uy * s) + abs(uy * c - ux * s))


def _separate(dice: list[PlacedDie], rounds: int = 40) -> list[PlacedDie]:
    """Push overlapping dice apart along the line between their centres, until each pair's
    reaches along it no longer overlap (keeps each die's side and turn): two dice touch corner
    to face or face to face, never one drawn over the other."""
    pos = [[d.x, d.y] for d in dice]
    for _ in range(rounds):
        moved = False
        for i in range(len(pos)):
            for j in range(i + 1, len(pos)):
                dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
                dist = math.hypot(dx, dy)
                ux, uy = (dx / dist, dy / dist) if dist > 1e-6 else (1.0, 0.0)
                need = (_reach(dice[i], ux, uy) + _reach(dice[j], ux, uy)) * GAP
                if dist < need - 1e-6:
                    shift = (need - dist) / 2
                    pos[i][0] -= ux * shift
                    pos[i][1] -= uy * shift
                    pos[j][0] += ux * shift
                    pos[j][1] += uy * shift
                    moved = True
        if not moved:
            break
    out = []
    for die, (x, y) in zip(dice, pos, strict=True):
        if die.in_arena and not inside_oval(x, y):
            x, y = _pull_inside(x, y)
        out.append(replace(die, x=x, y=y))
    return out


def _pull_inside(x: float, y: float) -> tuple[float, float]:
    scale = 1.0 / math.sqrt((x / (ARENA_A - 2)) ** 2 + (y / (ARENA_B - 2)) ** 2)
    return x * scale, y * scale


def reroll_cocked(dice: Sequence[PlacedDie], rng: random.Random) -> tuple[PlacedDie, ...]:
    """A cocked die is thrown again beside the box and put back in its place with its new face."""
    return tuple(
        replace(d, face=rng.choice(FACES), cocked=False, angle=rng.uniform(0, 90))
        if d.cocked
        else d
        for d in dice
    )


def settle_turn(dice: Sequence[PlacedDie]) -> tuple[tuple[PlacedDie, ...], dict[str, list]]:
    """What stays in the arena once the rules are applied: crosses, dice out and pairs removed.

    Mirrors the engine so a simulated table removes the same dice the engine does. Returns the dice
    left and what went where: {"taken": [...], "crosses": [...], "out": [...]}.
    """
    inside = [d for d in dice if d.in_arena]
    counts = Counter(d.face for d in inside if d.face != "X")
    doubled = {face for face, n in counts.items() if n >= 2}
    gone: dict[str, list] = {
        "out": [d for d in dice if not d.in_arena],
        "crosses": [d for d in inside if d.face == "X"],
        "taken": [d for d in inside if d.face in doubled],
    }
    stay = tuple(d for d in inside if d.face != "X" and d.face not in doubled)
    return stay, gone
