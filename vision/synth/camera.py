"""A pinhole camera above the table: world in mm (x right, y down, z up, table at z = 0).

The camera sits at (cx, cy, height) looking down, then is rotated by `tilt` degrees about a
horizontal axis at `tilt_azimuth`. A rotation about the optical centre is exact for every 3D point,
so dice side faces, parallax and foreshortening all come out of the same projection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

_DOWN = np.diag([1.0, 1.0, -1.0])  # world -> camera looking straight down (x right, y down)


@dataclass(frozen=True)
class Camera:
    width: int
    height: int
    focal: float
    centre: tuple[float, float, float]
    tilt: float = 0.0
    tilt_azimuth: float = 0.0

    @cached_property
    def rotation(self) -> np.ndarray:
        """World -> camera rotation (the straight-down view, then the tilt)."""
        t, a = math.radians(self.tilt), math.radians(self.tilt_azimuth)
        axis = np.array([math.cos(a), math.sin(a), 0.0])
        k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        tilt = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * (k @ k)
        return tilt @ _DOWN

    @cached_property
    def k(self) -> np.ndarray:
        return np.array(
            [[self.focal, 0, self.width / 2], [0, self.focal, self.height / 2], [0, 0, 1.0]]
        )

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> camera coordinates (N, 3), z the depth."""
        return (np.asarray(points, float) - np.array(self.centre)) @ self.rotation.T

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> image pixels (N, 2)."""
        p = self.to_camera(points)
        z = np.maximum(p[:, 2:3], 1e-6)
        return p[:, :2] / z * self.focal + np.array([self.width / 2, self.height / 2])

    def vanishing_point(self, direction) -> tuple[float, float]:
        """Image pixel where lines of this world direction meet (straight down: the point
        of the frame below the camera). The direction must not lie parallel to the image."""
        d = np.asarray(direction, float) @ self.rotation.T
        if abs(d[2]) < 1e-9:
            raise ValueError(f"direction {direction}: parallel to the image, no vanishing point")
        return (
            float(d[0] / d[2] * self.focal + self.width / 2),
            float(d[1] / d[2] * self.focal + self.height / 2),
        )

    def depth(self, points: np.ndarray) -> np.ndarray:
        return self.to_camera(points)[:, 2]

    def to_table(self, pixels: np.ndarray) -> np.ndarray:
        """Image pixels (N, 2) -> the table points (N, 2) they see (z = 0)."""
        px = np.asarray(pixels, float)
        rays = (
            np.column_stack(
                [
                    (px[:, 0] - self.width / 2) / self.focal,
                    (px[:, 1] - self.height / 2) / self.focal,
                    np.ones(len(px)),
                ]
            )
            @ self.rotation
        )  # camera -> world directions
        t = -self.centre[2] / rays[:, 2]
        return np.array(self.centre[:2]) + rays[:, :2] * t[:, None]

    def table_homography(self, origin: tuple[float, float], ppm: float) -> np.ndarray:
        """Homography from a table texture (pixel (tx, ty) = origin + (tx, ty) / ppm mm) to image."""
        cx, cy, cz = self.centre
        m = np.array([[1 / ppm, 0, origin[0] - cx], [0, 1 / ppm, origin[1] - cy], [0, 0, -cz]])
        return self.k @ self.rotation @ m

    def scale_at(self, point) -> float:
        """Pixels per mm for a small object at `point` (world), seen face-on."""
        return self.focal / float(self.depth(np.asarray(point, float)[None])[0])


@dataclass(frozen=True)
class Lens:
    """Radial distortion of a cheap or wide lens, on a frame of `width` x `height` pixels.

    The output pixel p sees the ideal pinhole image at c' + (p - c) (1 + k r^2), with c the
    frame's centre, r = |p - c| / half-diagonal and c' the centre of the ideal canvas, which is
    (1 + k) times the frame so that the corners have something to see. k > 0 is barrel
    distortion (straight lines bow outwards), k < 0 pincushion, 0 none.
    """

    width: int
    height: int
    k: float = 0.0

    @property
    def canvas(self) -> tuple[int, int]:
        grow = 1 + max(self.k, 0.0)
        return int(math.ceil(self.width * grow)), int(math.ceil(self.height * grow))

    def _radius(self) -> float:
        return math.hypot(self.width, self.height) / 2

    def ideal_from_output(self, points: np.ndarray) -> np.ndarray:
        p = np.asarray(points, float) - [self.width / 2, self.height / 2]
        r2 = (p * p).sum(axis=-1, keepdims=True) / self._radius() ** 2
        cw, ch = self.canvas
        return p * (1 + self.k * r2) + [cw / 2, ch / 2]

    def output_from_ideal(self, points: np.ndarray) -> np.ndarray:
        cw, ch = self.canvas
        q = (np.asarray(points, float) - [cw / 2, ch / 2]) / self._radius()
        ru = np.linalg.norm(q, axis=-1, keepdims=True)
        rd = ru.copy()
        for _ in range(8):  # Newton on rd (1 + k rd^2) = ru
            rd -= (rd * (1 + self.k * rd * rd) - ru) / (1 + 3 * self.k * rd * rd)
        scale = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        return q * scale * self._radius() + [self.width / 2, self.height / 2]

    def output_point(self, x: float, y: float) -> tuple[float, float]:
        """output_from_ideal for one point, in plain floats (the layout asks thousands of times)."""
        cw, ch = self.canvas
        radius = self._radius()
        qx, qy = (x - cw / 2) / radius, (y - ch / 2) / radius
        ru = math.hypot(qx, qy)
        if ru < 1e-12:
            return self.width / 2, self.height / 2
        rd = ru
        for _ in range(8):
            rd -= (rd * (1 + self.k * rd * rd) - ru) / (1 + 3 * self.k * rd * rd)
        f = rd / ru * radius
        return qx * f + self.width / 2, qy * f + self.height / 2

    def magnification(self, points: np.ndarray) -> np.ndarray:
        """How much a small object at output `points` is shrunk (< 1 for barrel), per point."""
        p = np.asarray(points, float) - [self.width / 2, self.height / 2]
        r2 = (p * p).sum(axis=-1) / self._radius() ** 2
        return 1 / np.sqrt((1 + 3 * self.k * r2) * (1 + self.k * r2))

    def maps(self, scale: float) -> tuple[np.ndarray, np.ndarray]:
        """cv2.remap maps from the ideal canvas drawn at `scale` to the frame at `scale`."""
        w, h = round(self.width * scale), round(self.height * scale)
        cw, ch = self.canvas
        dx = (np.arange(w, dtype=np.float32) / scale - self.width / 2).astype(np.float32)
        dy = (np.arange(h, dtype=np.float32) / scale - self.height / 2).astype(np.float32)
        r2 = dx[None, :] ** 2 + dy[:, None] ** 2
        gain = 1 + np.float32(self.k / self._radius() ** 2) * r2
        map_x = (dx[None, :] * gain + np.float32(cw / 2)) * np.float32(scale)
        map_y = (dy[:, None] * gain + np.float32(ch / 2)) * np.float32(scale)
        return map_x.astype(np.float32), map_y.astype(np.float32)
