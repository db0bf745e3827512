"""Table surfaces as float32 BGR textures (0..255) on the table plane, and the Strike arena.

Each maker takes (h, w, ppm, rng): ppm is texture pixels per mm, so a grain, a felt fibre or a
printed motif keeps its physical size whatever the zoom. Large-scale structure is drawn at low
resolution and enlarged, which keeps a 1280x960 table under ~15 ms.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

BACKGROUNDS = ("foam", "felt", "white_card", "grey_card", "wood", "tray")

FOAM_COLOURS = (
    (70, 120, 40),
    (140, 90, 30),
    (50, 50, 150),
    (120, 120, 118),
    (40, 40, 40),
    (60, 150, 170),
)
FELT_COLOURS = ((40, 100, 20), (30, 30, 120), (110, 60, 20), (45, 40, 40), (60, 70, 140))
WOOD_COLOURS = (
    ((60, 110, 170), (30, 65, 115)),
    ((90, 150, 200), (55, 100, 150)),
    ((40, 70, 110), (20, 40, 70)),
)
TRAY_COLOURS = ((150, 60, 30), (40, 40, 40), (200, 190, 170), (60, 40, 110), (30, 90, 30))


def _noise(h: int, w: int, cells: float, rng: np.random.Generator, smooth=False) -> np.ndarray:
    """Smooth noise whose features are about `cells` texture pixels across, in ~[-1, 1]
    (bicubic when `smooth`, else bilinear: enough under a few per cent of shading)."""
    gh, gw = max(2, int(h / max(cells, 1)) + 2), max(2, int(w / max(cells, 1)) + 2)
    low = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC if smooth else cv2.INTER_LINEAR)


def randn(shape, rng) -> np.ndarray:
    """Standard normal float32 noise; cv2's generator (3x faster), seeded from `rng`."""
    out = np.empty(shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(1 << 31)))
    cv2.randn(out, 0.0, 1.0)
    return out


def _grain(h: int, w: int, sigma: float, blur: float, rng) -> np.ndarray:
    g = randn((h, w), rng) * sigma
    return cv2.GaussianBlur(g, (0, 0), blur) * (1 + blur) if blur > 0 else g


def _tint(shape_hw, bgr, variation: np.ndarray | None = None) -> np.ndarray:
    if variation is None:
        img = np.empty((*shape_hw, 3), np.float32)
        img[:] = np.array(bgr, np.float32)
        return img
    v = variation + 1
    return cv2.merge([v * float(c) for c in bgr])


def foam(h, w, ppm, rng, colour=None):
    c = colour or FOAM_COLOURS[rng.integers(len(FOAM_COLOURS))]
    img = _tint((h, w), c, 0.02 * _noise(h, w, 150 * ppm, rng))
    grain = _grain(h, w, 7, 0.35 * ppm, rng)
    cv2.add(img, cv2.merge([grain] * 3), dst=img)
    img[grain < -2.6 * 7] *= 0.6  # the darkest specks of the grain: the foam's pores
    return img


def felt(h, w, ppm, rng):
    c = FELT_COLOURS[rng.integers(len(FELT_COLOURS))]
    img = _tint((h, w), c, 0.04 * _noise(h, w, 80 * ppm, rng))
    fib = randn((h, w), rng) * 22
    k = max(3, int(1.2 * ppm) | 1)
    kernel = np.zeros((k, k), np.float32)
    cv2.line(kernel, (0, k // 2), (k - 1, k // 2), 1.0)
    kernel /= kernel.sum()
    a = cv2.filter2D(fib, -1, kernel)
    b = cv2.filter2D(fib, -1, kernel.T)
    fibres = 0.5 * (a + b)
    cv2.add(img, cv2.merge([fibres * (v / 255 + 0.25) for v in c]), dst=img)
    return img


def card(h, w, ppm, rng, grey=False):
    base = rng.uniform(130, 165) if grey else rng.uniform(225, 245)
    c = (base, base * rng.uniform(0.98, 1.0), base * rng.uniform(0.96, 1.0))
    img = _tint((h, w), c, 0.015 * _noise(h, w, 120 * ppm, rng))
    cv2.add(img, cv2.merge([_grain(h, w, 2.5, 0.3 * ppm, rng)] * 3), dst=img)
    return img


def wood(h, w, ppm, rng):
    """Rings and streaks along a random direction, plank seams; drawn at half size (it is
    smooth at the pixel scale) and given a fine grain at full size."""
    fh, fw = h, w
    h, w, ppm = (h + 1) // 2, (w + 1) // 2, ppm / 2
    light, dark = WOOD_COLOURS[rng.integers(len(WOOD_COLOURS))]
    angle = rng.uniform(0, math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    along = (xx * math.cos(angle) + yy * math.sin(angle)) / ppm
    across = (-xx * math.sin(angle) + yy * math.cos(angle)) / ppm
    warp = _noise(h, w, 50 * ppm, rng, smooth=True) * 3.0
    rings = 0.5 + 0.5 * np.sin((across / rng.uniform(3, 7) + warp + 0.02 * along) * 2 * math.pi)
    streak = cv2.GaussianBlur(randn((h, w), rng), (0, 0), 0.4 * ppm)
    t = np.clip(rings**3 * 0.8 + streak * 0.8, 0, 1)[..., None]
    img = np.array(light, np.float32) * (1 - t) + np.array(dark, np.float32) * t
    plank = rng.uniform(90, 160)
    seams = np.abs(((across + rng.uniform(0, plank)) % plank) - plank / 2) > plank / 2 - 0.6
    img[seams] *= 0.45
    img = cv2.resize(img, (fw, fh), interpolation=cv2.INTER_LINEAR)
    return cv2.add(img, cv2.merge([_grain(fh, fw, 3, 0.3, rng)] * 3))


def tray(h, w, ppm, rng):
    """A printed play mat: a base colour with printed circles, lines, stars and words."""
    base = TRAY_COLOURS[rng.integers(len(TRAY_COLOURS))]
    img = _tint((h, w), base, 0.04 * _noise(h, w, 100 * ppm, rng))
    ink = np.array([255 - c * 0.6 if sum(base) < 300 else c * 0.35 for c in base], np.float32)
    mask = np.zeros((h, w), np.uint8)
    for _ in range(int(h * w / (ppm * ppm) / 6000) + 3):
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        r = int(rng.uniform(1.5, 12) * ppm)
        kind = rng.integers(4)
        thick = max(1, int(ppm))
        if kind == 0:
            cv2.circle(mask, (x, y), r, 255, -1 if rng.random() < 0.5 else thick, cv2.LINE_AA)
        elif kind == 1:
            a = rng.uniform(0, math.pi)
            d = (int(r * 3 * math.cos(a)), int(r * 3 * math.sin(a)))
            cv2.line(mask, (x - d[0], y - d[1]), (x + d[0], y + d[1]), 255, thick, cv2.LINE_AA)
        elif kind == 2:
            pts = [
                (x + r * math.cos(a), y + r * math.sin(a))
                for a in np.linspace(0, 4 * math.pi, 6)[:-1] + rng.uniform(0, 6)
            ]
            cv2.polylines(mask, [np.array(pts, np.int32)], True, 255, thick, cv2.LINE_AA)
        else:
            word = ("ARBITRE", "DICE", "STRIKE", "123", "TABLE", "GO!")[rng.integers(6)]
            cv2.putText(
                mask,
                word,
                (x, y),
                cv2.FONT_HERSHEY_DUPLEX,
                ppm * rng.uniform(0.2, 0.6),
                255,
                thick,
                cv2.LINE_AA,
            )
    m = mask.astype(np.float32) * (1 / 255)
    ink_img = np.empty_like(img)
    ink_img[:] = ink
    img = cv2.blendLinear(img, ink_img, 1 - m, m)
    return cv2.add(img, cv2.merge([_grain(h, w, 2.5, 0.3, rng)] * 3))


MAKERS = {
    "foam": foam,
    "felt": felt,
    "white_card": lambda h, w, ppm, rng: card(h, w, ppm, rng),
    "grey_card": lambda h, w, ppm, rng: card(h, w, ppm, rng, grey=True),
    "wood": wood,
    "tray": tray,
}


def table_texture(name: str, h: int, w: int, ppm: float, rng) -> np.ndarray:
    if name not in MAKERS:
        raise ValueError(f"background {name!r}: expected one of {', '.join(BACKGROUNDS)}")
    return MAKERS[name](h, w, ppm, rng)


def draw_arena(img, centre_px, axes_px, angle, ppm, rng, rim_mm=14.0):
    """The Strike box bottom: a foam oval inside a rim of the box's plastic, with a soft wall
    shadow along the inside edge. Draws in place on the texture (coordinates in texture px)."""
    h, w = img.shape[:2]
    rim = rim_mm * ppm
    box = (float(rng.uniform(20, 70)),) * 3 if rng.random() < 0.6 else (30.0, 30.0, 110.0)
    reach = max(axes_px) + rim + 2
    x0, y0 = max(0, int(centre_px[0] - reach)), max(0, int(centre_px[1] - reach))
    x1, y1 = min(w, int(centre_px[0] + reach) + 1), min(h, int(centre_px[1] + reach) + 1)
    if x0 >= x1 or y0 >= y1:
        return img
    roi = img[y0:y1, x0:x1]
    k = 16
    c = (int(round((centre_px[0] - x0) * k)), int(round((centre_px[1] - y0) * k)))
    outer = (int(round((axes_px[0] + rim) * k)), int(round((axes_px[1] + rim) * k)))
    inner = (int(round(axes_px[0] * k)), int(round(axes_px[1] * k)))
    cv2.ellipse(roi, c, outer, angle, 0, 360, box, -1, cv2.LINE_AA, 4)
    inner_mask = np.zeros(roi.shape[:2], np.float32)
    cv2.ellipse(inner_mask, c, inner, angle, 0, 360, 1.0, -1, cv2.LINE_AA, 4)
    mat = foam(*roi.shape[:2], ppm, rng, FOAM_COLOURS[rng.integers(4)])
    small = cv2.resize(inner_mask, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    wall = cv2.resize(cv2.GaussianBlur(small, (0, 0), ppm), inner_mask.shape[::-1])
    shade = 0.55 + 0.45 * np.clip((wall - 0.5) * 2, 0, 1)
    cv2.multiply(mat, cv2.merge([shade] * 3), dst=mat)
    roi[:] = cv2.blendLinear(roi, mat, 1 - inner_mask, inner_mask)
    return img
