"""The Strike box in a photoreal scene: a foam oval inside a raised rim (the dice of a Strike
game land in it, lean on its wall, or are thrown out of it).

The oval's size is vision/synth's (semi-axes 12.5 x 9.5 cm, a rim of 1.4 cm); the wall's height
is drawn (1.6-2.6 cm). A die is in the arena when its centre is inside the oval.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from vision.synth.backgrounds import FOAM_COLOURS, foam

from .poses import leaning_pair

AXES_CM = (12.5, 9.5)
RIM_CM = 1.4
BOXES = ((0.02, 0.02, 0.02), (0.08, 0.08, 0.08), (0.02, 0.03, 0.12))  # linear RGB


def draw_arena(rng, textures: Path, tag: str) -> dict:
    """The oval's pose, the box's colour and the foam's texture (written under `textures`)."""
    px = 1024
    tex = foam(px, px, px / (10 * 2 * AXES_CM[0]), rng, FOAM_COLOURS[rng.integers(4)])
    path = textures / f"{tag}_foam.png"
    cv2.imwrite(str(path), tex.clip(0, 255).astype(np.uint8))
    return {
        "axes_cm": list(AXES_CM),
        "rim_cm": RIM_CM,
        "height_cm": float(rng.uniform(1.6, 2.6)),
        "angle": float(rng.uniform(0, math.pi)),
        "box": list(BOXES[rng.integers(len(BOXES))]),
        "foam": str(path),
    }


def level(arena: dict, x: float, y: float, grow: float = 0.0) -> float:
    """Under 1 inside the oval grown by `grow` cm all round, over 1 outside."""
    c, s = math.cos(arena["angle"]), math.sin(arena["angle"])
    u, v = x * c + y * s, -x * s + y * c
    a, b = arena["axes_cm"][0] + grow, arena["axes_cm"][1] + grow
    return (u / a) ** 2 + (v / b) ** 2


def inside(arena: dict, x: float, y: float) -> bool:
    return level(arena, x, y) < 1.0


def wall_leaner(rng, arena: dict, side: float):
    """The start of a die standing on an edge by the inner wall, tipped toward it (as
    poses.leaning_pair, the wall taking the place of die A)."""
    t = rng.uniform(0, 2 * math.pi)
    a, b = arena["axes_cm"]
    c, s = math.cos(arena["angle"]), math.sin(arena["angle"])
    u, v = a * math.cos(t), b * math.sin(t)
    px, py = u * c - v * s, u * s + v * c
    nu, nv = math.cos(t) / a, math.sin(t) / b  # outward normal, in the oval's frame
    nx, ny = nu * c - nv * s, nu * s + nv * c
    norm = math.hypot(nx, ny)
    nx, ny = nx / norm, ny / norm
    h = side / 2
    tip = math.radians(rng.uniform(46, 49))
    faces = rng.integers(6, size=2)
    phi = math.atan2(-ny, -nx)  # inward: from the wall toward the die
    _, die = leaning_pair(px + nx * h, py + ny * h, phi, side, rng.uniform(0.77, 0.94), tip, faces)
    return die
