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
