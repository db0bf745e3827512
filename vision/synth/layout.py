"""Where the dice lie: flat dice without overlap, clusters that touch, cocked dice leaning on a
die or on the Strike arena's wall; all in world mm on the table.

`Placer(kind, c, cam, side, arena, rng, in_frame).place()` returns the dice (vision.synth.dice.Die),
flat ones first. `in_frame(pixels)` says whether a point drawn by `cam` lands far enough inside the
output frame (the lens may move it). The order of random draws is fixed, so a seed gives a layout.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from . import conditions as cond_mod
from .camera import Camera
from .dice import Die, other_faces, resting_height

ARENA_RIM_MM = 14.0
FACES = {
    "pips": (1, 2, 3, 4, 5, 6),
    "strike": ("X", 2, 3, 4, 5, 6),
    "detrak": ("hash", "slash", "bars", "triangle", "circle", "cross"),
}
TRIES = 30


def ellipse_level(arena: dict, xy) -> float:
    """< 1 inside the arena's oval, 1 on it, > 1 outside (world mm)."""
    (cx, cy), (a, b), angle = arena["centre"], arena["axes"], arena["angle"]
    t = math.radians(angle)
    dx, dy = xy[0] - cx, xy[1] - cy
    u = dx * math.cos(t) + dy * math.sin(t)
    v = -dx * math.sin(t) + dy * math.cos(t)
    return (u / a) ** 2 + (v / b) ** 2


def on_oval(arena: dict, t: float, shrink: float = 0.0) -> np.ndarray:
    """The point at parameter t of the oval whose semi-axes are shortened by `shrink` mm."""
    a, b = (x - shrink for x in arena["axes"])
    ang = math.radians(arena["angle"])
    u, v = a * math.cos(t), b * math.sin(t)
    cx, cy = arena["centre"]
    return np.array(
        [cx + u * math.cos(ang) - v * math.sin(ang), cy + u * math.sin(ang) + v * math.cos(ang)]
    )


class Placer:
    def __init__(self, kind, c: dict, cam: Camera, side: float, arena, rng, in_frame):
        self.faces = FACES[kind]
        self.c, self.cam, self.side, self.arena, self.rng = c, cam, side, arena, rng
        self.in_frame = in_frame
        self.margin = 0.9 * c["die_size"] + 4
        self.dice: list[Die] = []
        self.out_level = (1 + (ARENA_RIM_MM + side) / min(arena["axes"])) ** 2 if arena else None

    def place(self) -> list[Die]:
        for _ in range(self.c["n_dice"]):
            inside = None if not self.arena else bool(self.rng.random() >= self.c["out_of_arena"])
            placed = self._flat(inside)
            if placed is not None:
                self.dice.append(placed)
        for _ in range(self.c["cocked"]):
            placed = self._cocked()
            if placed is not None:
                self.dice.append(placed)
        return self.dice

    def visible(self, xy) -> bool:
        return self.in_frame(self.cam.project(np.array([[xy[0], xy[1], self.side / 2]])))

    def free(self, d: Die) -> bool:
        reach = d.side * 1.75  # two half-diagonals of a cube: nearer centres may overlap
        fp = d.footprint()
        return all(
            abs(o.centre[0] - d.centre[0]) > reach
            or abs(o.centre[1] - d.centre[1]) > reach
            or cv2.intersectConvexConvex(fp, o.footprint())[0] <= 1e-3
            for o in self.dice
        )

    def new_die(self, xy, tip=0.0, yaw=None) -> Die:
        rng = self.rng
        face = self.faces[rng.integers(len(self.faces))]
        die_c, mark_c = cond_mod.die_colours(self.c, rng)
        return Die(
            face,
            np.array([xy[0], xy[1], resting_height(self.side, tip)]),
            self.side,
            float(rng.uniform(0, 360) if yaw is None else yaw),
            tip,
            die_c,
            mark_c,
            other_faces(face, rng),
            int(rng.integers(1 << 30)),
        )

    def _flat(self, inside: bool | None) -> Die | None:
        rng = self.rng
        for _ in range(TRIES):
            if self.dice and rng.random() < self.c["cluster"]:
                cand = self.touching(self.dice[rng.integers(len(self.dice))])
                if cand is not None and self.arena and not self._on_its_side(cand, inside):
                    cand = None
            else:
                xy = self.sample_xy(inside)
                cand = self.new_die(xy) if xy is not None else None
            if cand is not None and self.free(cand):
                return cand
        return None

    def _on_its_side(self, d: Die, inside: bool) -> bool:
        """In the arena with its whole footprint, or clearly out of it (beyond the rim)."""
        if inside:
            return all(ellipse_level(self.arena, p) < 1 for p in d.footprint())
        return ellipse_level(self.arena, d.centre[:2]) > self.out_level

    def sample_xy(self, inside: bool | None):
        rng, w, h, m = self.rng, *self.c["frame"], self.margin
        for _ in range(200):
            if inside and self.arena:
                r, t = math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
                xy = self._in_oval(r, t)
            else:
                xy = self.cam.to_table(np.array([[rng.uniform(m, w - m), rng.uniform(m, h - m)]]))[
                    0
                ]
                if (
                    self.arena
                    and inside is False
                    and ellipse_level(self.arena, xy) < self.out_level
                ):
                    continue
            if self.visible(xy):
                return xy
        return None

    def _in_oval(self, r: float, t: float) -> tuple[float, float]:
        """A point at radius share r and angle t of the oval shrunk by 0.8 side (dice inside)."""
        centre = np.array(self.arena["centre"])
        p = centre + (on_oval(self.arena, t, self.side * 0.8) - centre) * r
        return (float(p[0]), float(p[1]))

    def touching(self, anchor: Die, tip=0.0) -> Die | None:
        """A new die slid towards `anchor` along a random direction until the two touch
        (a cocked one leans towards it)."""
        alpha = self.rng.uniform(0, 2 * math.pi)
        direction = np.array([math.cos(alpha), math.sin(alpha)])
        yaw = math.degrees(alpha + math.pi) + 90 if tip else None
        d = self.new_die(anchor.centre[:2] + direction * self.side * 2.2, tip, yaw)

        def at(k: float) -> np.ndarray:
            xy = anchor.centre[:2] + direction * self.side * k
            d.centre = np.array([xy[0], xy[1], d.centre[2]])
            return xy

        at(2.2)
        if not self.free(d):
            return None
        far, near = 2.2, 0.5  # centres half a side apart always overlap
        while far - near > 0.01:
            mid = (far + near) / 2
            at(mid)
            far, near = (mid, near) if self.free(d) else (far, mid)
        xy = at(far)
        return d if self.visible(xy) else None

    def _cocked(self) -> Die | None:
        rng = self.rng
        for _ in range(TRIES):
            tip = float(rng.uniform(25, 65))
            if self.arena and rng.random() < 0.4:
                cand = self.against_wall(tip)
            elif self.dice:
                cand = self.touching(self.dice[rng.integers(len(self.dice))], tip)
            else:
                cand = None
            if cand is not None and self.free(cand) and self.visible(cand.centre[:2]):
                return cand
        return None

    def against_wall(self, tip: float) -> Die | None:
        """A die leaning outwards on the arena's wall, its footprint just inside the oval."""
        edge = on_oval(self.arena, self.rng.uniform(0, 2 * math.pi))
        centre = np.array(self.arena["centre"])
        out = (edge - centre) / np.linalg.norm(edge - centre)
        yaw = math.degrees(math.atan2(out[1], out[0])) + 90
        d = self.new_die(edge - out * self.side * 2, tip, yaw)
        best = None
        for k in range(60):
            xy = edge - out * self.side * (2 - k * 0.04)
            d.centre = np.array([xy[0], xy[1], d.centre[2]])
            if any(ellipse_level(self.arena, p) >= 0.995 for p in d.footprint()):
                break
            best = xy
        if best is None:
            return None
        d.centre = np.array([best[0], best[1], d.centre[2]])
        return d
