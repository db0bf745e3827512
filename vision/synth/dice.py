"""Dice as cubes in the world: their faces, their pose, and how one is drawn through the camera.

A die is a cube of side `side` mm. Flat: resting on its bottom face, turned by `yaw`. Cocked:
also tipped by `tip` degrees about a horizontal axis (resting on an edge, leaning on a wall or
on another die), so the camera sees two faces foreshortened. Every visible face (its normal turned
towards the camera) is drawn by warping the square patch of vision.synth.faces onto the projected
quad, darkened by how much it faces the light; so oblique views show side faces with their own
pips, which a reader must not take for the top.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from .camera import Camera
from .faces import DETRAK_SYMBOLS, face_patch

# Local cube: unit half-side. Each face: outward normal, and its corners in patch order
# (top-left, top-right, bottom-right, bottom-left of the drawn face).
_FACES = {
    "top": ((0, 0, 1), ((-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1))),
    "px": ((1, 0, 0), ((1, -1, 1), (1, 1, 1), (1, 1, -1), (1, -1, -1))),
    "py": ((0, 1, 0), ((1, 1, 1), (-1, 1, 1), (-1, 1, -1), (1, 1, -1))),
    "nx": ((-1, 0, 0), ((-1, 1, 1), (-1, -1, 1), (-1, -1, -1), (-1, 1, -1))),
    "ny": ((0, -1, 0), ((-1, -1, 1), (1, -1, 1), (1, -1, -1), (-1, -1, -1))),
}
_CORNERS = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
_PATCH_SIDES = (12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256)


@dataclass
class Die:
    face: object  # the face on top (for a cocked die: the face that would be up if it fell back)
    centre: np.ndarray  # world mm, the cube's centre
    side: float
    yaw: float  # degrees
    tip: float = 0.0  # degrees; 0 = flat
    die: object = "white"
    marks: object = "black"
    side_faces: tuple = ()  # faces on px, py, nx, ny
    texture_seed: int = 0

    @property
    def cocked(self) -> bool:
        return self.tip != 0.0

    @cached_property
    def rotation(self) -> np.ndarray:
        y, t = math.radians(self.yaw), math.radians(self.tip)
        rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
        rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
        return rz @ rx

    def world(self, local: np.ndarray) -> np.ndarray:
        return np.asarray(local, float) * (self.side / 2) @ self.rotation.T + self.centre

    def corners(self) -> np.ndarray:
        return self.world(_CORNERS)

    @cached_property
    def _hull(self) -> np.ndarray:
        local = (_CORNERS * (self.side / 2) @ self.rotation.T)[:, :2].astype(np.float32)
        return cv2.convexHull(local).reshape(-1, 2)

    def footprint(self) -> np.ndarray:
        """Convex hull of the die's corners seen from above (x, y), float32 for cv2."""
        return self._hull + self.centre[:2].astype(np.float32)

    def top_centre(self) -> np.ndarray:
        return self.world(np.array([[0, 0, 1.0]]))[0]

    def upper_centre(self) -> np.ndarray:
        """The centre of the face turned most upward: where a detector finds a die tipped under
        45 degrees, since that face is what it sees (the cube's centre lies beside it)."""
        normals = np.array([normal for normal, _ in _FACES.values()], float)
        up = (normals @ self.rotation.T)[:, 2]
        return self.world(normals[int(up.argmax())][None])[0]


def resting_height(side: float, tip: float) -> float:
    """z of a cube's centre when tipped by `tip` degrees and resting on its lowest edge."""
    t = math.radians(abs(tip))
    return side / 2 * (math.cos(t) + math.sin(t))


def other_faces(face, rng) -> tuple:
    """The four side faces of a die showing `face`, opposite faces of pip dice summing to 7."""
    if face in DETRAK_SYMBOLS:
        rest = [s for s in DETRAK_SYMBOLS if s != face]
        rng.shuffle(rest)
        return tuple(rest[:4])
    v = 1 if face == "X" else int(face)
    pairs = [p for p in ((1, 6), (2, 5), (3, 4)) if v not in p]
    a, b = pairs
    if rng.random() < 0.5:
        a = a[::-1]
    if rng.random() < 0.5:
        b = b[::-1]
    return (a[0], b[0], a[1], b[1])


def draw_die(img: np.ndarray, die: Die, cam: Camera, light: np.ndarray, strike: bool) -> None:
    """Draw every face of `die` that the camera sees, in place on a float32 BGR image."""
    rot = die.rotation
    eye = np.array(cam.centre)
    faces = {"top": die.face}
    faces.update(zip(("px", "py", "nx", "ny"), die.side_faces, strict=False))
    for name, value in faces.items():
        normal_l, corners_l = _FACES[name]
        normal = rot @ np.array(normal_l, float)
        corners = die.world(np.array(corners_l, float))
        if np.dot(normal, eye - corners.mean(axis=0)) <= 0:
            continue
        if strike and value == 1:
            value = "X"
        quad = cam.project(corners)
        _draw_face_quad(img, value, quad, die, normal, rot, name, light)


def _draw_face_quad(img, value, quad, die: Die, normal, rot, name, light) -> None:
    edge = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0]))
    if edge < 1.5:
        return
    side = next((s for s in _PATCH_SIDES if s >= edge * 1.3), _PATCH_SIDES[-1])
    corners_l = np.array(_FACES[name][1], float)
    e_right = rot @ (corners_l[1] - corners_l[0]) / 2
    e_down = rot @ (corners_l[3] - corners_l[0]) / 2
    local_light = _quantised((np.dot(light, e_right), np.dot(light, e_down), np.dot(light, normal)))
    ghost = None
    if die.die == "translucent" and name == "top" and value not in DETRAK_SYMBOLS:
        ghost = 7 - (1 if value == "X" else int(value))
    seed = die.texture_seed % 16 if die.die == "marbled" else 0
    patch = face_patch(
        value, side, die.die, die.marks, light=local_light, texture_seed=seed, ghost=ghost
    )
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    h, w = img.shape[:2]
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    src = np.array(
        [[-0.5, -0.5], [side - 0.5, -0.5], [side - 0.5, side - 0.5], [-0.5, side - 0.5]], np.float32
    )
    hom = cv2.getPerspectiveTransform(src, (quad - [cx0, cy0]).astype(np.float32))
    warped = cv2.warpPerspective(
        patch,
        hom,
        (cx1 - cx0, cy1 - cy0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    ambient, diffuse = 0.45, 0.55
    lit = (ambient + diffuse * max(0.0, float(np.dot(normal, light)))) / (
        ambient + diffuse * light[2]
    )
    alpha = warped[..., 3:4].astype(np.float32) * (1 / 255)
    roi = img[cy0:cy1, cx0:cx1]
    roi[:] = roi * (1 - alpha) + warped[..., :3].astype(np.float32) * (min(lit, 1.25) * alpha)


def _quantised(v) -> tuple[float, float, float]:
    """Light direction snapped to 8 azimuths and 15-degree elevations, so patches are reused."""
    x, y, z = v
    az = round(math.atan2(y, x) / (math.pi / 4)) * (math.pi / 4)
    el = round(math.atan2(z, math.hypot(x, y)) / math.radians(15)) * math.radians(15)
    return (
        round(math.cos(el) * math.cos(az), 2),
        round(math.cos(el) * math.sin(az), 2),
        round(max(math.sin(el), 0.05), 2),
    )


def shadow_polygon(die: Die, light: np.ndarray) -> np.ndarray:
    """The die's hard shadow on the table (world x, y), light the unit vector towards the light."""
    c = die.corners()
    pts = c[:, :2] - light[:2] * (c[:, 2:3] / max(light[2], 0.1))
    return cv2.convexHull(np.vstack([pts, c[:, :2]]).astype(np.float32)).reshape(-1, 2)
