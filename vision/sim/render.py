"""Drawing a frame: the still background, then shadows, dice as small cubes, the hand, the noise.

Speed comes from doing little per frame: the background is rendered once per table; each die is
eight projected corners, up to three affine-warped face patches (drawn once by
vision.synth.faces and cached) and a soft shadow, all in a small region of interest; sensor noise
is added from a few noise tiles drawn at start-up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.sim.dice import CORNERS, DIE_MM, DOWNS, KINDS, NORMALS, RIGHTS
from vision.sim.optics import Optics
from vision.sim.table import Layout, Look, render_background
from vision.synth.faces import face_patch

PATCH_PX = 64
SHADE_LEVELS = 8
NOISE_TILES = 4
SKIN = (120, 150, 205)  # BGR


@dataclass
class DieView:
    """What the renderer needs of one die this frame."""

    centre: np.ndarray  # x, y, h (mm)
    rot: np.ndarray
    kind: str
    velocity: tuple[float, float] = (0.0, 0.0)  # pixels per frame, for motion blur
    occluded_by_box: bool = False


class FacePatches:
    """Face patches of one die style, with the table's exposure and white balance, by shade."""

    def __init__(self, kind: str, look: Look):
        self.kind, self.look = kind, look
        self._cache: dict[tuple[int, int], np.ndarray] = {}

    def get(self, slot: int, shade: float) -> np.ndarray:
        level = int(round(max(0.0, min(1.0, shade)) * (SHADE_LEVELS - 1)))
        key = (slot, level)
        patch = self._cache.get(key)
        if patch is None:
            patch = self._make(slot, level / (SHADE_LEVELS - 1))
            self._cache[key] = patch
        return patch

    def _make(self, slot: int, shade: float) -> np.ndarray:
        look = self.look
        bgra = face_patch(
            KINDS[self.kind][slot], PATCH_PX, look.die, look.marks, texture_seed=look.texture_seed
        ).astype(np.float32)
        alpha = bgra[..., 3:4] / 255.0
        edge = _edge_colour(look.die)
        bgr = bgra[..., :3] * alpha + edge * (1 - alpha)
        bgr *= (0.35 + 0.65 * shade) * look.gains
        return np.clip(bgr, 0, 255).astype(np.uint8)


def _edge_colour(die: str) -> np.ndarray:
    from vision.synth.faces import DIE_COLOURS

    return np.array(DIE_COLOURS.get(die, (128, 128, 128)), np.float32) * 0.55


class Renderer:
    def __init__(self, layout: Layout, look: Look, optics: Optics, rng: np.random.Generator):
        self.layout, self.look, self.optics = layout, look, optics
        self.background, self.occluder = render_background(layout, look, optics)
        self.patches = {kind: FacePatches(kind, look) for kind in KINDS}
        self.light = look.light_dir()
        self.camera = optics.camera_position
        h, w = self.background.shape[:2]
        noise = rng.normal(0, look.noise, (NOISE_TILES, h, w, 1)).astype(np.float32)
        noise = np.repeat(noise, 3, axis=3) + rng.normal(
            0, look.noise * 0.4, (NOISE_TILES, h, w, 3)
        )
        self.noise_up = np.clip(noise, 0, 255).astype(np.uint8)
        self.noise_down = np.clip(-noise, 0, 255).astype(np.uint8)

    # --- the frame -----------------------------------------------------------------------
    def frame(self, dice: list[DieView], hand, noise_index: int) -> np.ndarray:
        img = self.background.copy()
        projected = [self._project(d) for d in dice]
        for d in dice:
            self._shadow(img, d)
        if hand is not None:
            self._hand_shadow(img, hand)
        order = sorted(range(len(dice)), key=lambda i: dice[i].centre[2])
        for i in order:
            self._die(img, dice[i], projected[i])
        if hand is not None:
            self._hand(img, hand)
        k = noise_index % NOISE_TILES
        cv2.add(img, self.noise_up[k], dst=img)
        cv2.subtract(img, self.noise_down[k], dst=img)
        return img

    def _project(self, d: DieView) -> np.ndarray:
        return self.optics.project(CORNERS @ d.rot.T + d.centre)

    # --- dice ----------------------------------------------------------------------------
    def _die(self, img: np.ndarray, d: DieView, corners_px: np.ndarray) -> None:
        x0, y0, x1, y1 = _bounds(corners_px, img.shape, pad=3)
        if x1 <= x0 or y1 <= y0:
            return
        vx, vy = d.velocity
        blur = _blur_box(img.shape, (x0, y0, x1, y1), vx, vy)
        before = img[blur[1] : blur[3], blur[0] : blur[2]].copy() if blur else None
        roi = img[y0:y1, x0:x1]
        patches = self.patches[d.kind]
        for slot in range(6):
            normal = d.rot @ NORMALS[slot]
            centre = d.centre + normal * (DIE_MM / 2)
            if normal @ (self.camera - centre) <= 0:
                continue
            shade = 0.25 + 0.75 * max(0.0, float(normal @ self.light))
            quad = self._face_quad(d, slot, centre) - (x0, y0)
            patch = patches.get(slot, shade)
            n = PATCH_PX - 1
            src = np.float32([[0, 0], [n, 0], [0, n]])
            m = cv2.getAffineTransform(src, quad[:3].astype(np.float32))
            cv2.warpAffine(
                patch,
                m,
                (x1 - x0, y1 - y0),
                dst=roi,
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_TRANSPARENT,
            )
        if d.occluded_by_box:
            mask = self.occluder[y0:y1, x0:x1] > 0
            if mask.any():
                roi[mask] = self.background[y0:y1, x0:x1][mask]
        if blur:
            _motion_blur(img, blur, before, vx, vy)

    def _face_quad(self, d: DieView, slot: int, centre: np.ndarray) -> np.ndarray:
        """Image points of the face's top-left, top-right and bottom-left corners (patch order)."""
        right = d.rot @ RIGHTS[slot] * (DIE_MM / 2)
        down = d.rot @ DOWNS[slot] * (DIE_MM / 2)
        pts = np.stack([centre - right - down, centre + right - down, centre - right + down])
        return self.optics.project(pts)

    def _shadow(self, img: np.ndarray, d: DieView) -> None:
        world = CORNERS @ d.rot.T + d.centre
        drop = world - np.outer(world[:, 2] / self.light[2], self.light)
        px = self.optics.project(drop)
        height = float(d.centre[2])
        soft = 4 + int(height * 0.25)
        x0, y0, x1, y1 = _bounds(px, img.shape, pad=2 * soft + 2)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        hull = cv2.convexHull(np.round((px - (x0, y0)) * 16).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 255, cv2.LINE_AA, 4)
        k = 2 * soft + 1
        mask = cv2.GaussianBlur(mask, (k, k), 0)
        strength = 0.32 * max(0.3, 1.0 - height / 120.0)
        if d.occluded_by_box:  # the walls stand between this shadow and the camera
            mask[self.occluder[y0:y1, x0:x1] > 0] = 0
        _darken(img[y0:y1, x0:x1], mask, strength)

    # --- the hand ------------------------------------------------------------------------
    def _hand_points(self, hand) -> tuple[np.ndarray, np.ndarray, float]:
        (x, y, h), shoulder = hand
        dx, dy = x - shoulder[0], y - shoulder[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        palm = np.array([x, y, h])
        wrist = palm - np.array([ux, uy, 0]) * 55
        elbow = np.array([shoulder[0], shoulder[1], h + 120])
        fingers = [
            palm + np.array([ux * 45 - uy * s, uy * 45 + ux * s, -10]) for s in (-24, -8, 8, 24)
        ]
        thumb = palm + np.array([ux * 10 - uy * 42, uy * 10 + ux * 42, -5])
        pts = np.array([palm, wrist, elbow, *fingers, thumb])
        return pts, palm, h

    def _hand_shape(
        self, canvas: np.ndarray, pts_px: np.ndarray, scale: float, value, grow: float = 1.0
    ) -> None:
        """Arm, palm, fingers and thumb as thick strokes; `grow` scales their widths."""
        p = [tuple(int(round(c)) for c in q) for q in pts_px]

        def width(mm: float) -> int:
            return max(2, int(mm * scale * grow))

        cv2.line(canvas, p[1], p[2], value, width(70), cv2.LINE_AA)
        cv2.circle(canvas, p[0], width(42) // 2 * 2, value, -1, cv2.LINE_AA)
        cv2.line(canvas, p[0], p[1], value, width(62), cv2.LINE_AA)
        for f in p[3:]:
            cv2.line(canvas, p[0], f, value, width(15), cv2.LINE_AA)

    def _hand_shadow(self, img: np.ndarray, hand) -> None:
        pts, palm, h = self._hand_points(hand)
        drop = pts - np.outer(pts[:, 2] / self.light[2], self.light)
        drop[:, 2] = 0
        px = self.optics.project(drop)
        x0, y0, x1, y1 = _bounds(px, img.shape, pad=200)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        self._hand_shape(mask, px - (x0, y0), self.optics.scale_at(*palm[:2]), 255)
        _darken(img[y0:y1, x0:x1], cv2.blur(mask, (31, 31)), 0.35)

    def _hand(self, img: np.ndarray, hand) -> None:
        pts, palm, h = self._hand_points(hand)
        px = self.optics.project(pts)
        scale = self.optics.scale_at(palm[0], palm[1], h)
        skin = np.array(SKIN, np.float32) * self.look.gains
        # Darker rim, lit middle: enough roundness for a hand that only passes through.
        for grow, tone in ((1.0, 0.72), (0.8, 0.9), (0.45, 1.04)):
            colour = tuple(float(c) for c in np.clip(skin * tone, 0, 255))
            self._hand_shape(img, px, scale, colour, grow)


def _darken(roi: np.ndarray, mask: np.ndarray, strength: float) -> None:
    """Shadow: scale the pixels under `mask` (0..255) down by up to `strength`, in place."""
    factor = cv2.convertScaleAbs(mask, alpha=-strength, beta=255)
    cv2.multiply(roi, cv2.cvtColor(factor, cv2.COLOR_GRAY2BGR), dst=roi, scale=1 / 255)


def _bounds(px: np.ndarray, shape, pad: int) -> tuple[int, int, int, int]:
    h, w = shape[:2]
    x0 = max(0, int(math.floor(px[:, 0].min())) - pad)
    y0 = max(0, int(math.floor(px[:, 1].min())) - pad)
    x1 = min(w, int(math.ceil(px[:, 0].max())) + pad)
    y1 = min(h, int(math.ceil(px[:, 1].max())) + pad)
    return x0, y0, x1, y1


def _blur_length(vx: float, vy: float) -> int:
    """Kernel length: the die travels about half its per-frame motion while the shutter is open."""
    return min(25, int(math.hypot(vx, vy) * 0.5) | 1)


def _blur_box(shape, box, vx: float, vy: float) -> tuple[int, int, int, int] | None:
    length = _blur_length(vx, vy)
    if length < 3:
        return None
    h, w = shape[:2]
    return (
        max(0, box[0] - length),
        max(0, box[1] - length),
        min(w, box[2] + length),
        min(h, box[3] + length),
    )


def _motion_blur(img: np.ndarray, box, before: np.ndarray, vx: float, vy: float) -> None:
    """Smear the die just drawn along its motion, over the still table behind it.

    The die is a layer over the table: blur the die's colour times its coverage and the coverage
    itself, then composite over what was there before (premultiplied alpha), so the table around
    the die stays sharp.
    """
    length = _blur_length(vx, vy)
    kernel = np.zeros((length, length), np.float32)
    c = length // 2
    ang = math.atan2(vy, vx)
    dx, dy = math.cos(ang) * c, math.sin(ang) * c
    p0 = (int(round(c - dx)), int(round(c - dy)))
    p1 = (int(round(c + dx)), int(round(c + dy)))
    cv2.line(kernel, p0, p1, 1.0)
    kernel /= kernel.sum()
    x0, y0, x1, y1 = box
    roi = img[y0:y1, x0:x1]
    cover = (roi != before).any(axis=2).astype(np.float32)
    layer = roi.astype(np.float32) * cover[..., None]
    cover = cv2.filter2D(cover, -1, kernel)[..., None]
    layer = cv2.filter2D(layer, -1, kernel)
    roi[:] = np.clip(layer + before * (1.0 - cover), 0, 255).astype(np.uint8)
