"""One simulated table: its layout, its look, its camera, and the still background it gives.

Everything that differs between two real tables is drawn once from the seed: the wood, the mat's
colour, where the lamp is, the camera's height, tilt and lens, its exposure and white balance, its
sensor noise. The background (table, box or tray, lighting, vignetting) is rendered once per table;
frames only add what moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.strike_throw import ARENA_A, ARENA_B
from vision.sim.optics import Optics
from vision.synth import backgrounds

BOX_MARGIN = 26.0  # mm of box between the oval's wall and the box's outer edge
WALL_MM = 32.0  # height of the box's walls above the table
TRAY_HALF = (120.0, 85.0)  # half-sizes of the dice tray for Knister and Détrak
TRAY_WALL = 14.0
TEXTURE_PPM = 3.0


@dataclass(frozen=True)
class Look:
    """What varies between tables and cameras (all drawn from the seed by `Look.draw`)."""

    table: str = "wood"
    mat: tuple[int, int, int] = (150, 120, 95)  # BGR of the Strike foam mat
    box: tuple[int, int, int] = (40, 45, 160)  # BGR of the box's cardboard
    light: tuple[float, float, float] = (-0.35, -0.5, 1.0)  # towards the lamp (x, y, h)
    exposure: float = 1.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # gains on B, G, R
    noise: float = 3.0  # sensor noise, standard deviation in grey levels
    height_mm: float = 520.0
    tilt_deg: float = 0.0
    k1: float = -0.04
    die: str = "black"
    marks: str = "white"
    texture_seed: int = 0

    @classmethod
    def plain(cls, game: str) -> Look:
        """A fixed look: straight-down camera, the game's usual dice (`vary=False`)."""
        if game == "strike":
            return cls()
        return cls(table="grey_card", die="white", marks="black")

    @classmethod
    def draw(cls, game: str, rng: np.random.Generator) -> Look:
        die, marks = ("black", "white") if game == "strike" else ("white", "black")
        if game != "strike" and rng.random() < 0.4:
            die, marks = ("ivory", "black") if rng.random() < 0.5 else ("red", "white")
        azimuth = rng.uniform(0, 2 * math.pi)
        return cls(
            table=str(rng.choice(["wood", "wood", "felt", "grey_card"])),
            mat=tuple(int(c) for c in rng.choice([[150, 120, 95], [170, 160, 150], [90, 140, 70]])),
            box=tuple(int(c) for c in rng.choice([[40, 45, 160], [60, 60, 60], [150, 90, 30]])),
            light=(0.6 * math.cos(azimuth), 0.6 * math.sin(azimuth), 1.0),
            exposure=float(rng.uniform(0.85, 1.12)),
            white_balance=tuple(float(g) for g in rng.uniform(0.92, 1.08, 3)),
            noise=float(rng.uniform(1.5, 4.5)),
            height_mm=float(rng.uniform(480, 560)),
            tilt_deg=float(rng.uniform(0, 8)),
            k1=float(rng.uniform(-0.08, 0.0)),
            die=die,
            marks=marks,
            texture_seed=int(rng.integers(1 << 30)),
        )

    @property
    def gains(self) -> np.ndarray:
        return np.array(self.white_balance, np.float32) * self.exposure

    def light_dir(self) -> np.ndarray:
        v = np.array(self.light, np.float64)
        return v / np.linalg.norm(v)


@dataclass
class Layout:
    """Where things are on the table (mm): the box and its oval arena, or the tray."""

    game: str
    box_half: tuple[float, float] = field(init=False)

    def __post_init__(self) -> None:
        if self.game == "strike":
            self.box_half = (ARENA_A + BOX_MARGIN, ARENA_B + BOX_MARGIN)
        else:
            self.box_half = TRAY_HALF

    @property
    def wall(self) -> float:
        return WALL_MM if self.game == "strike" else TRAY_WALL

    def inside_box(self, x: float, y: float) -> bool:
        return abs(x) < self.box_half[0] and abs(y) < self.box_half[1]

    def aside_spot(self, index: int) -> tuple[float, float]:
        """Where the index-th die set aside (cross, out of the arena) is put: left of the box."""
        col, row = divmod(index, 10)
        x = -self.box_half[0] - 24.0 - col * 19.0
        y = -self.box_half[1] + 12.0 + row * 19.5
        return x, y

    def beside_box(self, x: float, y: float, rng: np.random.Generator) -> tuple[float, float]:
        """A spot on the table just outside the box, in the direction of (x, y) from the centre."""
        angle = math.atan2(y, x)
        c, s = math.cos(angle), math.sin(angle)
        bx, by = self.box_half
        reach = min(bx / max(abs(c), 1e-6), by / max(abs(s), 1e-6))
        d = reach + rng.uniform(22, 40)
        return c * d, s * d


def oval(a: float, b: float, h: float, n: int = 96) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([a * np.cos(t), b * np.sin(t), np.full(n, h)], axis=1)


def rect(a: float, b: float, h: float) -> np.ndarray:
    return np.array([[-a, -b, h], [a, -b, h], [a, b, h], [-a, b, h]], np.float64)


def _poly(optics: Optics, pts: np.ndarray) -> np.ndarray:
    return np.round(optics.project(pts) * 16).astype(np.int32)  # 4 fractional bits for cv2


def render_background(layout: Layout, look: Look, optics: Optics) -> tuple[np.ndarray, np.ndarray]:
    """The still frame (BGR uint8) and the occluder mask: box walls that hide dice inside it."""
    rng = np.random.default_rng(look.texture_seed)
    wx, wy = optics.table_points()
    half_x = float(np.abs(wx).max()) + 10
    half_y = float(np.abs(wy).max()) + 10
    th, tw = int(2 * half_y * TEXTURE_PPM), int(2 * half_x * TEXTURE_PPM)
    table = backgrounds.table_texture(look.table, th, tw, TEXTURE_PPM, rng)
    inner = _inner_texture(layout, look, th, tw, half_x, half_y, rng)
    if inner is not None:
        table = np.where(inner[1][..., None], inner[0], table)
    mx = (wx + half_x) * TEXTURE_PPM
    my = (wy + half_y) * TEXTURE_PPM
    img = cv2.remap(table.astype(np.float32), mx, my, cv2.INTER_LINEAR)
    occluder = np.zeros(img.shape[:2], np.uint8)
    _draw_walls(img, occluder, layout, look, optics)
    img *= _lighting(optics, look, wx, wy)[..., None]
    img *= look.gains
    return np.clip(img, 0, 255).astype(np.uint8), occluder


def _inner_texture(layout, look, th, tw, half_x, half_y, rng):
    """The surface inside the box: the foam mat in the oval (Strike) or the tray's felt."""
    yy, xx = np.mgrid[0:th, 0:tw].astype(np.float32)
    x = xx / TEXTURE_PPM - half_x
    y = yy / TEXTURE_PPM - half_y
    if layout.game == "strike":
        mask = (x / ARENA_A) ** 2 + (y / ARENA_B) ** 2 <= 1.0
        tex = backgrounds.foam(th, tw, TEXTURE_PPM, rng, colour=look.mat)
    else:
        a, b = layout.box_half
        mask = (np.abs(x) < a) & (np.abs(y) < b)
        tex = backgrounds.felt(th, tw, TEXTURE_PPM, rng)
    return tex, mask


def _draw_walls(img, occluder, layout: Layout, look: Look, optics: Optics) -> None:
    """Box sides, rim and inner wall, painted over the floor as the camera sees them."""
    a, b = layout.box_half
    wall = layout.wall
    floor_layer = img.copy()
    box = np.array(look.box, np.float64)
    side = box * 0.55
    base = _poly(optics, rect(a, b, 0))
    top = _poly(optics, rect(a, b, wall))
    hull = cv2.convexHull(np.concatenate([base, top]))
    cv2.fillConvexPoly(img, hull, side.tolist(), cv2.LINE_AA, 4)
    cv2.fillConvexPoly(occluder, hull, 255, cv2.LINE_8, 4)
    cv2.fillConvexPoly(img, top, box.tolist(), cv2.LINE_AA, 4)
    if layout.game == "strike":
        rim, floor = oval(ARENA_A, ARENA_B, wall), oval(ARENA_A, ARENA_B, 0)
    else:
        rim = rect(a - 8, b - 8, wall)
        floor = rect(a - 8, b - 8, 0)
    opening = np.zeros_like(occluder)
    cv2.fillPoly(opening, [_poly(optics, rim)], 255, cv2.LINE_8, 4)
    seen_floor = np.zeros_like(occluder)
    cv2.fillPoly(seen_floor, [_poly(optics, floor)], 255, cv2.LINE_8, 4)
    seen_floor &= opening
    inner_wall = (opening > 0) & (seen_floor == 0)
    img[inner_wall] = box * 0.8
    occluder[opening > 0] = 0
    img[seen_floor > 0] = floor_layer[seen_floor > 0]


def _lighting(optics: Optics, look: Look, wx: np.ndarray, wy: np.ndarray) -> np.ndarray:
    """A lamp's pool of light on the table and the lens's vignetting, as a brightness factor."""
    light = look.light_dir()
    lx, ly = light[0] * 400, light[1] * 400
    pool = 1.08 - 0.22 * np.clip(np.hypot(wx - lx, wy - ly) / 700.0, 0, 1)
    h, w = wx.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w * w / 4 + h * h / 4)
    return (pool * (1.0 - 0.18 * r2)).astype(np.float32)
