"""The simulated camera's optics: where a point of the table lands in the image, and back.

A pinhole camera at `height_mm` above the table, tilted by `tilt_deg` towards the near (bottom)
edge while still aiming at the arena's centre, with a radial lens distortion (k1, k2). World
coordinates are millimetres: x right, y down (as the engine's arena), h up from the table.

Forward projection is vectorised (every die corner of a frame in one call); the inverse (pixel to
table point) is used once per camera to build the background's remap tables.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Optics:
    width: int = 1280
    height: int = 960
    height_mm: float = 520.0
    tilt_deg: float = 0.0
    view_mm: float = 460.0  # width of table seen at the aim point, which sets the focal length
    k1: float = -0.04  # barrel distortion, as a cheap webcam or the Pi camera's wide lens
    k2: float = 0.0
    _rot: np.ndarray = field(init=False, repr=False, compare=False)
    _centre: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        tilt = math.radians(self.tilt_deg)
        dist = self.height_mm / math.cos(tilt)
        centre = np.array([0.0, dist * math.sin(tilt), dist * math.cos(tilt)])
        z = -centre / np.linalg.norm(centre)
        x = np.array([1.0, 0.0, 0.0])
        y = np.cross(x, z)  # world y (down the image) when the camera looks straight down
        object.__setattr__(self, "_rot", np.stack([x, y, z]))
        object.__setattr__(self, "_centre", centre)

    @property
    def focal(self) -> float:
        dist = self.height_mm / math.cos(math.radians(self.tilt_deg))
        return self.width * dist / self.view_mm

    @property
    def camera_position(self) -> np.ndarray:
        return self._centre.copy()

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N x 3: x, y, h in mm) to image pixels (N x 2, distorted)."""
        cam = (np.asarray(points, dtype=np.float64) - self._centre) @ self._rot.T
        xn = cam[:, 0] / cam[:, 2]
        yn = cam[:, 1] / cam[:, 2]
        r2 = xn * xn + yn * yn
        d = 1.0 + self.k1 * r2 + self.k2 * r2 * r2
        f = self.focal
        return np.stack([f * xn * d + self.width / 2, f * yn * d + self.height / 2], axis=1)

    def scale_at(self, x: float, y: float, h: float = 0.0) -> float:
        """Pixels per millimetre at a world point (the die's size in the image, say)."""
        pts = np.array([[x - 0.5, y, h], [x + 0.5, y, h]])
        p = self.project(pts)
        return float(np.hypot(*(p[1] - p[0])))

    def table_points(self, h: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """For every pixel, the world (x, y) seen there on the plane at height h (float32 maps)."""
        f = self.focal
        u, v = np.meshgrid(
            np.arange(self.width, dtype=np.float64), np.arange(self.height, dtype=np.float64)
        )
        xd = (u - self.width / 2) / f
        yd = (v - self.height / 2) / f
        xn, yn = xd.copy(), yd.copy()
        for _ in range(6):  # fixed-point undistortion: converges fast for mild distortion
            r2 = xn * xn + yn * yn
            d = 1.0 + self.k1 * r2 + self.k2 * r2 * r2
            xn, yn = xd / d, yd / d
        rot = self._rot
        dx = rot[0, 0] * xn + rot[1, 0] * yn + rot[2, 0]
        dy = rot[0, 1] * xn + rot[1, 1] * yn + rot[2, 1]
        dh = rot[0, 2] * xn + rot[1, 2] * yn + rot[2, 2]
        s = (h - self._centre[2]) / dh
        wx = self._centre[0] + s * dx
        wy = self._centre[1] + s * dy
        return wx.astype(np.float32), wy.astype(np.float32)
