"""A die as a solid: which face points where, and the poses a die takes at rest.

The die is a cube of side `DIE_MM` whose six faces carry the values of its kind, opposite faces
in the usual pairs (1-6, 2-5, 3-4; for Strike the X stands for the 1, for Détrak the symbols take
the slots 1..6 in the order of `vision.sim.dice.KINDS`). An orientation is a 3x3 rotation from
the die's own frame to the world (x right, y down, h up): the face whose normal points most up is
the face that shows.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

DIE_MM = 16.0

KINDS: dict[str, tuple[int | str, ...]] = {
    "strike": ("X", 2, 3, 4, 5, 6),
    "pips": (1, 2, 3, 4, 5, 6),
    "detrak": ("hash", "slash", "bars", "triangle", "circle", "cross"),
}

# Slot i (value KINDS[kind][i]) sits on this face of the cube: 1 up, 6 down, 2/5 and 3/4 around.
NORMALS = np.array(
    [[0, 0, 1], [1, 0, 0], [0, 1, 0], [0, -1, 0], [-1, 0, 0], [0, 0, -1]], dtype=np.float64
)
# For each face, the direction of the drawn face's x axis (its "right"); its y axis is n x u,
# so that every face, seen from outside, shows its drawing unmirrored.
RIGHTS = np.array(
    [[1, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 0]], dtype=np.float64
)
DOWNS = np.cross(NORMALS, RIGHTS)

_HALF = DIE_MM / 2
CORNERS = np.array(
    [[sx, sy, sh] for sx in (-_HALF, _HALF) for sy in (-_HALF, _HALF) for sh in (-_HALF, _HALF)]
)


def slot_of(kind: str, face: int | str) -> int:
    values = KINDS[kind]
    if face not in values or isinstance(face, bool):
        raise ValueError(f"a {kind} die shows one of {list(values)}, not {face!r}")
    return values.index(face)


def rotation(axis: np.ndarray | tuple[float, float, float], angle: float) -> np.ndarray:
    """The rotation by `angle` radians about `axis` (Rodrigues)."""
    vec = np.asarray(axis, dtype=np.float64)
    norm = np.linalg.norm(vec)
    if norm < 1e-12 or angle == 0:
        return np.eye(3)
    rot, _ = cv2.Rodrigues(vec / norm * angle)
    return rot


def log_rotation(rot: np.ndarray) -> np.ndarray:
    """The rotation vector (axis times angle) of a rotation matrix."""
    vec, _ = cv2.Rodrigues(np.ascontiguousarray(rot))
    return vec.ravel()


def exp_rotation(vec: np.ndarray) -> np.ndarray:
    rot, _ = cv2.Rodrigues(np.asarray(vec, dtype=np.float64).reshape(3, 1))
    return rot


def _up_rotations() -> list[np.ndarray]:
    """For each slot, a rotation that turns that slot's face up (its drawing upright on the table)."""
    out = []
    for n, r, d in zip(NORMALS, RIGHTS, DOWNS, strict=True):
        # Rows: the world frame's x, y, h expressed in the die frame: R maps r->x, d->y, n->h.
        out.append(np.stack([r, d, n]))
    return out


UP = _up_rotations()


def pose(kind: str, face: int | str, yaw_deg: float, tilt_deg: float = 0.0, tilt_dir: float = 0.0):
    """The orientation of a die at rest showing `face`, turned by yaw, tilted when cocked.

    A cocked die leans `tilt_deg` about a horizontal axis at angle `tilt_dir` (radians): it rests on
    an edge against a wall or another die, its face still the most upward one.
    """
    rot = rotation((0, 0, 1), math.radians(yaw_deg)) @ UP[slot_of(kind, face)]
    if tilt_deg:
        axis = (math.cos(tilt_dir), math.sin(tilt_dir), 0.0)
        rot = rotation(axis, math.radians(tilt_deg)) @ rot
    return rot


def support(rot: np.ndarray) -> float:
    """How high the die's centre sits when its lowest corner touches the table."""
    return float(-(CORNERS @ rot.T)[:, 2].min())


def top_slot(rot: np.ndarray) -> int:
    """The slot whose face points most upward."""
    return int(np.argmax((NORMALS @ rot.T)[:, 2]))


def tilt_of(rot: np.ndarray) -> float:
    """Degrees between the top face's normal and the vertical (0 for a die lying flat)."""
    up = (NORMALS @ rot.T)[top_slot(rot)]
    return math.degrees(math.acos(max(-1.0, min(1.0, up[2]))))


def yaw_of(rot: np.ndarray) -> float:
    """Degrees the top face's drawing is turned on the table (its x axis against the world x)."""
    slot = top_slot(rot)
    right = rot @ RIGHTS[slot]
    return math.degrees(math.atan2(right[1], right[0]))
