"""Simple tables drawn for the vision tests (the benchmark uses vision/synth's full renderer).

Drawn here, independently of vision/synth, so the tests also check the reader against a second,
plainer idea of a die: a rounded square with round pips or stroked symbols, rotated, antialiased.
A cocked die is what the camera sees of a die on its edge: two half faces side by side, 1 x 1.4.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

DIE_COLOURS = {
    "white": (236, 238, 240),
    "ivory": (196, 226, 240),
    "black": (34, 32, 32),
    "red": (40, 36, 188),
    "blue": (168, 88, 28),
    "green": (70, 140, 36),
    "yellow": (40, 204, 236),
}
MARK_COLOURS = {"white": (240, 240, 240), "black": (26, 24, 24), "red": (36, 30, 200)}
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
_N = 200  # side of the face drawn before it is shrunk into the table


def _face(face, die, marks) -> tuple[np.ndarray, np.ndarray]:
    """The face at _N x _N: colour image and coverage (rounded square)."""
    img = np.empty((_N, _N, 3), np.uint8)
    img[:] = DIE_COLOURS[die]
    alpha = np.zeros((_N, _N), np.uint8)
    r = int(_N * 0.14)
    cv2.rectangle(alpha, (r, 0), (_N - 1 - r, _N - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (_N - 1, _N - 1 - r), 255, -1)
    for cx in (r, _N - 1 - r):
        for cy in (r, _N - 1 - r):
            cv2.circle(alpha, (cx, cy), r, 255, -1)
    ink = MARK_COLOURS[marks]
    c = _N / 2

    def p(u, v):
        return (int(c + u * _N), int(c + v * _N))

    def line(a, b, width):
        cv2.line(img, p(*a), p(*b), ink, int(width * _N))

    if isinstance(face, int):
        for u, v in PIPS[face]:
            cv2.circle(img, p(u * 0.26, v * 0.26), int(0.095 * _N), ink, -1)
    elif face == "X":
        line((-0.27, -0.27), (0.27, 0.27), 0.13)
        line((-0.27, 0.27), (0.27, -0.27), 0.13)
    elif face == "hash":
        for k in (-0.11, 0.11):
            line((k, -0.3), (k, 0.3), 0.065)
            line((-0.3, k), (0.3, k), 0.065)
    elif face == "slash":
        line((-0.27, 0.27), (0.27, -0.27), 0.08)
    elif face == "bars":
        for k in (-0.17, 0.0, 0.17):
            line((k, -0.29), (k, 0.29), 0.07)
    elif face == "triangle":
        pts = [p(0.31 * math.cos(a), 0.05 + 0.31 * math.sin(a)) for a in (-1.5708, 0.5236, 2.618)]
        cv2.polylines(img, [np.array(pts, np.int32)], True, ink, int(0.065 * _N))
    elif face == "circle":
        cv2.circle(img, p(0, 0), int(0.27 * _N), ink, int(0.065 * _N))
    elif face == "cross":
        line((-0.27, -0.27), (0.27, 0.27), 0.07)
        line((-0.27, 0.27), (0.27, -0.27), 0.07)
    return img, alpha


def draw_face(img, face, x, y, size, die, marks, angle=0.0) -> None:
    """Composite the face, side `size`, turned by `angle` degrees, centred at (x, y)."""
    face_img, alpha = _face(face, die, marks)
    n = int(size * 1.5) + 4
    m = cv2.getRotationMatrix2D((_N / 2, _N / 2), angle, size / _N)
    m[0, 2] += n / 2 - _N / 2 + (x - int(x))
    m[1, 2] += n / 2 - _N / 2 + (y - int(y))
    # shrink in two steps so the pips do not alias
    col = cv2.warpAffine(face_img, m, (n, n), flags=cv2.INTER_AREA)
    a = cv2.warpAffine(alpha, m, (n, n), flags=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    x0, y0 = int(x) - n // 2, int(y) - n // 2
    roi = img[y0 : y0 + n, x0 : x0 + n]
    roi[:] = (roi * (1 - a) + col * a + 0.5).astype(np.uint8)


FACES = {
    "pips": [1, 2, 3, 4, 5, 6],
    "strike": ["X", 2, 3, 4, 5, 6],
    "detrak": ["hash", "slash", "bars", "triangle", "circle", "cross"],
}


def table(shape=(480, 640), bg=(60, 110, 60), seed=0, arena=None) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.empty(shape + (3,), np.uint8)
    img[:] = bg
    if arena is not None:
        cv2.ellipse(img, arena, (196, 200, 190), -1, cv2.LINE_AA)
    noise = rng.normal(0, 2.5, img.shape)
    return (img + noise).clip(0, 255).astype(np.uint8)


def scatter(img, faces, size, die="white", marks="black", seed=0, gap=1.7, places=None, turn=True):
    """Draw the faces at random free places (or the given ones); returns the truth."""
    rng = np.random.default_rng(seed)
    h, w = img.shape[:2]
    truth = []
    for i, face in enumerate(faces):
        if places is not None:
            x, y = places[i]
        else:
            for _ in range(500):
                x, y = rng.uniform(size, w - size), rng.uniform(size, h - size)
                if all(math.hypot(x - t["x"], y - t["y"]) > size * gap for t in truth):
                    break
        angle = float(rng.uniform(0, 360)) if turn else 0.0
        draw_face(img, face, x, y, size, die, marks, angle=angle)
        truth.append({"face": face, "x": x, "y": y, "cocked": False})
    return truth


def cocked(img, x, y, size, die="white", angle=0.0) -> dict:
    """A die on its edge seen from above: two faces, each foreshortened to 0.7 of its width, each
    with its pips."""
    body = np.array(DIE_COLOURS[die], float) if isinstance(die, str) else np.array(die, float)
    half = size * math.sqrt(0.5)
    for k, shade in ((-1, 0.95), (1, 0.7)):
        cx = x + k * half / 2 * math.cos(math.radians(angle))
        cy = y + k * half / 2 * math.sin(math.radians(angle))
        box = cv2.boxPoints(((cx, cy), (half, size), angle)).astype(np.int32)
        cv2.fillConvexPoly(img, box, tuple(int(c) for c in body * shade), cv2.LINE_AA)
        # each half face shows its pips, squashed across: 2 on one, 3 on the other
        t = math.radians(angle)
        along, across = (math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))
        for v in (-0.26, 0.26) if k < 0 else (-0.26, 0.0, 0.26):
            u = v * 0.7 * (1 if k < 0 else -1)
            px = cx + u * half * along[0] + v * size * across[0]
            py = cy + u * half * along[1] + v * size * across[1]
            axes = (int(size * 0.095 * 0.7 * 2), int(size * 0.095 * 2))
            cv2.ellipse(img, ((px, py), axes, angle), (26, 24, 24), -1, cv2.LINE_AA)
    return {"face": None, "x": x, "y": y, "cocked": True}


def match(readings, truth, size):
    """Pairs (truth, die or None): each truth die with the read die nearest its centre."""
    out = []
    for t in truth:
        near = [d for d in readings.dice if math.hypot(d.x - t["x"], d.y - t["y"]) < size * 0.5]
        out.append((t, near[0] if len(near) == 1 else None))
    return out


def test_scatter_draws_each_die_where_the_truth_says():
    img = table()
    truth = scatter(img, [1, 2, 3], 40)
    for t in truth:
        assert tuple(img[int(t["y"]), int(t["x"])]) != tuple(img[2, 2])
