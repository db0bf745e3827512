"""Starting poses of the dice before Blender's physics takes over (pure geometry, quaternions
w, x, y, z).

Dice dropped on a flat table come to rest flat, and a pile of three rarely leaves one leaning:
the cocked dice of a real game lean on another die or on a wall. So a pair is set up to make
one: die A rests flat, die B stands on one edge next to it, tipped toward A past 45° (its
centre of mass beyond the edge it stands on: it falls toward A, not back), far enough that
nothing overlaps. B falls until its upper corner meets A's side, and rests there tipped
asin(gap / side) from vertical: gaps of 0.77-0.94 sides give dice tipped 50-70°, whose top
face is 20-40° off level.
"""

from __future__ import annotations

import math

import numpy as np

# the turn that brings each of the die's six local axes (+Z, -Z, +X, -X, +Y, -Y) up
FACE_UP = (
    (1.0, 0.0, 0.0, 0.0),
    (0.0, 1.0, 0.0, 0.0),
    (math.sqrt(0.5), 0.0, -math.sqrt(0.5), 0.0),
    (math.sqrt(0.5), 0.0, math.sqrt(0.5), 0.0),
    (math.sqrt(0.5), math.sqrt(0.5), 0.0, 0.0),
    (math.sqrt(0.5), -math.sqrt(0.5), 0.0, 0.0),
)
LIFT = 0.02  # cm above the table, so that nothing starts in contact


def mul(a, b) -> tuple[float, float, float, float]:
    """The quaternion product a b (b's turn first)."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def about(axis, angle: float) -> tuple[float, float, float, float]:
    """The turn of `angle` radians about a unit axis."""
    s = math.sin(angle / 2)
    return (math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s)


def turn(q, v) -> np.ndarray:
    """Vector v turned by q."""
    w, x, y, z = q
    r = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )
    return r @ np.asarray(v, float)


def upright(face: int, yaw: float):
    """A die with local axis `face` up, turned `yaw` about the vertical."""
    return mul(about((0.0, 0.0, 1.0), yaw), FACE_UP[face])


def leaning_pair(x: float, y: float, phi: float, side: float, gap: float, tip: float, faces):
    """Starting (location, quaternion) of die A, flat at (x, y), and of die B, standing on an
    edge `gap` sides from A's face in direction phi, tipped `tip` radians toward A (> 45°).
    `faces`: the local axes A and B show up before B tips."""
    h = side / 2
    a = ([x, y, h + LIFT], upright(faces[0], phi))
    out = (math.cos(phi), math.sin(phi), 0.0)  # from A toward B
    axis = (-out[1], out[0], 0.0)  # turning about it by -tip brings B's top toward A
    pivot = h + gap * side  # B's lower edge, from A's centre
    centre = pivot + h * (math.cos(tip) - math.sin(tip))
    b_loc = [x + out[0] * centre, y + out[1] * centre, h * (math.sin(tip) + math.cos(tip)) + LIFT]
    b = (b_loc, mul(about(axis, -tip), upright(faces[1], phi)))
    return a, b
