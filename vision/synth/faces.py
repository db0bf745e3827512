"""Drawing one die face seen square-on: pips, the Strike cross, the Détrak symbols.

API (all colours BGR; `die` and `marks` also accept the names of DIE_COLOURS / MARK_COLOURS):

- ``face_patch(face, size, die="white", marks="black", *, angle=0.0, corner=0.14, bevel=0.10,
  light=(-0.5, -0.7, 1.0), texture_seed=0, ghost=None) -> np.ndarray``
  A BGRA uint8 patch of the die's top face, the face centred in the patch. With ``angle == 0`` the
  patch is exactly ``size`` x ``size`` pixels (the die's side, rounded corners transparent);
  with an angle (degrees, counter-clockwise on screen) it is the bounding square of the rotated die.
- ``draw_face(image, face, x, y, size, die="white", marks="black", **kw) -> image``: composites the
  same patch into a BGR image so that the face's centre lands at (x, y) (sub-pixel, in place).
- ``face_kind(face)``: "pips", "strike" or "detrak", from the face value alone.

Faces: ints 1..6 are pip faces (standard layout; a Strike die shows pips too, white on black);
"X" is the Strike cross (thick white X instead of the 1); "hash", "slash", "bars", "triangle",
"circle", "cross" are the Détrak outline symbols.
Die colours: white, ivory, black, red, blue, green, yellow, purple, marbled (veins of a lighter tone
drawn from ``texture_seed``), translucent (the body is partly transparent: alpha < 255 over the
body, marks opaque; ``ghost`` may name the opposite face, drawn faint and mirrored as it shows
through a real translucent die). Mark colours: white, black, red, yellow, gold.

The body is a rounded square whose rounded edges are shaded from a light direction (bevel, with a
specular streak on the lit edge); pips are painted dimples with a darker rim. Marks are drawn with
cv2's LINE_AA at 4x (dice up to 32 px) or at a master size of 128, 256 or 512 px, and
area-averaged down, so edges are smooth at 18 px as at 150 px. Colour-free layers, colours,
lighting and finished patches are cached separately (the simulated table draws the same faces
every frame; a new colour or light direction costs a few array operations, not a redraw).
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

DIE_COLOURS: dict[str, tuple[int, int, int]] = {
    "white": (236, 238, 240),
    "ivory": (196, 226, 240),
    "black": (34, 32, 32),
    "red": (40, 36, 188),
    "blue": (168, 88, 28),
    "green": (70, 140, 36),
    "yellow": (40, 204, 236),
    "purple": (128, 44, 104),
    "marbled": (150, 110, 60),
    "translucent": (190, 120, 60),
}
MARK_COLOURS: dict[str, tuple[int, int, int]] = {
    "white": (240, 240, 240),
    "black": (26, 24, 24),
    "red": (36, 30, 200),
    "yellow": (30, 214, 246),
    "gold": (54, 168, 212),
}
DETRAK_SYMBOLS = ("hash", "slash", "bars", "triangle", "circle", "cross")
STRIKE_FACES = ("X", 2, 3, 4, 5, 6)
PIP_FACES = (1, 2, 3, 4, 5, 6)

# Pip centres in face units (the face spans -0.5..0.5, y down), the standard Western layout.
_A = 0.26
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-_A, -_A), (_A, _A)),
    3: ((-_A, -_A), (0, 0), (_A, _A)),
    4: ((-_A, -_A), (_A, -_A), (-_A, _A), (_A, _A)),
    5: ((-_A, -_A), (_A, -_A), (0, 0), (-_A, _A), (_A, _A)),
    6: ((-_A, -_A), (_A, -_A), (-_A, 0), (_A, 0), (-_A, _A), (_A, _A)),
}
PIP_RADIUS = 0.095
TRANSLUCENT_ALPHA = 0.72


def face_kind(face) -> str:
    """Which family a face value belongs to; raises ValueError naming the accepted values."""
    if isinstance(face, (int, np.integer)) and not isinstance(face, bool) and 1 <= face <= 6:
        return "pips"
    if face == "X":
        return "strike"
    if face in DETRAK_SYMBOLS:
        return "detrak"
    raise ValueError(f"face {face!r}: expected 1..6, 'X' or one of {', '.join(DETRAK_SYMBOLS)}")


def colour(value, table: dict[str, tuple[int, int, int]], what: str) -> tuple[int, int, int]:
    """A BGR triple from a name of `table` or a triple; a clear error otherwise."""
    if isinstance(value, str):
        if value not in table:
            raise ValueError(f"{what} colour {value!r}: expected one of {', '.join(table)}")
        return table[value]
    triple = tuple(int(c) for c in value)
    if len(triple) != 3 or not all(0 <= c <= 255 for c in triple):
        raise ValueError(f"{what} colour {value!r}: expected a name or a BGR triple 0..255")
    return triple  # type: ignore[return-value]


def _key(value):
    return value if isinstance(value, str) else tuple(int(c) for c in value)


def face_patch(
    face,
    size: float,
    die="white",
    marks="black",
    *,
    angle: float = 0.0,
    corner: float = 0.14,
    bevel: float = 0.10,
    light: tuple[float, float, float] = (-0.5, -0.7, 1.0),
    texture_seed: int = 0,
    ghost=None,
) -> np.ndarray:
    """The BGRA patch of one face (see the module docstring); cached, so never modify it."""
    face_kind(face)
    if ghost is not None:
        face_kind(ghost)
    if not 2 <= size <= 2000:
        raise ValueError(f"size {size!r}: expected a die side of 2..2000 pixels")
    side = max(2, int(round(size)))
    patch = _square_patch(
        face,
        side,
        _key(die),
        _key(marks),
        round(corner, 3),
        round(bevel, 3),
        tuple(round(float(c), 2) for c in light),
        int(texture_seed),
        ghost,
    )
    if angle % 360 == 0 and abs(size - side) < 1e-6:
        return patch
    return _rotated(patch, size / side, angle)


def face_texture(face, side: int, die="white", marks="black", texture_seed: int = 0):
    """The face's flat colours (BGR uint8, no shading, square corners) and its marks' coverage
    (float 0..1): the textures a 3D renderer paints on a die (vision/photoreal), where light,
    bevel and translucency are the renderer's own."""
    face_kind(face)
    img, _ = _albedo(face, int(side), _key(die), _key(marks), 0.0, 0.0, int(texture_seed), None)
    return img.clip(0, 255).astype(np.uint8), _layers(face, int(side), 0.0, 0.0)[0]


def draw_face(
    image: np.ndarray, face, x: float, y: float, size: float, die="white", marks="black", **kw
) -> np.ndarray:
    """Composite the face centred at (x, y) into a BGR uint8 image, in place; returns the image."""
    angle = kw.pop("angle", 0.0)
    base = face_patch(face, max(2.0, size), die, marks, **kw)
    scale = size / base.shape[0]
    n = (
        int(
            math.ceil(
                size * (abs(math.cos(math.radians(angle))) + abs(math.sin(math.radians(angle))))
            )
        )
        + 3
    )
    m = cv2.getRotationMatrix2D(((base.shape[1] - 1) / 2, (base.shape[0] - 1) / 2), angle, scale)
    x0, y0 = int(math.floor(x - n / 2)), int(math.floor(y - n / 2))
    m[0, 2] += x - x0 - (base.shape[1] - 1) / 2
    m[1, 2] += y - y0 - (base.shape[0] - 1) / 2
    warped = cv2.warpAffine(
        base,
        m,
        (n, n),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    composite(image, warped, x0, y0)
    return image


def composite(image: np.ndarray, patch: np.ndarray, x0: int, y0: int) -> None:
    """Alpha-blend a BGRA patch whose top-left corner is at (x0, y0), clipped to the image."""
    h, w = image.shape[:2]
    ax0, ay0 = max(x0, 0), max(y0, 0)
    ax1, ay1 = min(x0 + patch.shape[1], w), min(y0 + patch.shape[0], h)
    if ax0 >= ax1 or ay0 >= ay1:
        return
    sub = patch[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0]
    alpha = sub[..., 3:4].astype(np.float32) * (1 / 255)
    roi = image[ay0:ay1, ax0:ax1]
    roi[:] = (roi * (1 - alpha) + sub[..., :3] * alpha + 0.5).astype(np.uint8)


def _rotated(patch: np.ndarray, scale: float, angle: float) -> np.ndarray:
    side = patch.shape[0] * scale
    rad = math.radians(angle)
    n = int(math.ceil(side * (abs(math.cos(rad)) + abs(math.sin(rad))))) + 2
    c = (patch.shape[0] - 1) / 2
    m = cv2.getRotationMatrix2D((c, c), angle, scale)
    m[0, 2] += (n - 1) / 2 - c
    m[1, 2] += (n - 1) / 2 - c
    return cv2.warpAffine(
        patch,
        m,
        (n, n),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )


@lru_cache(maxsize=4096)
def _square_patch(face, side, die, marks, corner, bevel, light, texture_seed, ghost):
    """Albedo (colours, marks, alpha) times lighting: two caches with far fewer keys than this
    one, so a new light direction or a new colour costs a multiply, not a redraw."""
    albedo, alpha = _albedo(face, side, die, marks, corner, bevel, texture_seed, ghost)
    shade, spec = _lighting(side, corner, bevel, light)
    img = albedo * shade[..., None] + spec[..., None]
    patch = np.dstack([img, alpha]).clip(0, 255).astype(np.uint8)
    patch.setflags(write=False)
    return patch


@lru_cache(maxsize=2048)
def _albedo(face, side, die, marks, corner, bevel, texture_seed, ghost):
    """Colours and alpha at the patch's size, from cached colour-free layers: cheap per colour."""
    die_name = die if isinstance(die, str) else None
    body_bgr = colour(die, DIE_COLOURS, "die")
    mark_bgr = colour(marks, MARK_COLOURS, "mark")
    mark, darken, coverage, edge = _layers(face, side, corner, bevel)
    if die_name == "marbled":
        veins = _veins(side, texture_seed)
        img = cv2.merge(
            [b + (v - b) * veins for b, v in zip(body_bgr, (235, 235, 230), strict=True)]
        )
    else:
        img = np.empty((side, side, 3), np.float32)
        img[:] = body_bgr
    alpha = coverage.copy()
    if die_name == "translucent":
        alpha *= TRANSLUCENT_ALPHA + (1 - TRANSLUCENT_ALPHA) * edge**2
        if ghost is not None:
            ghost_mark = _layers(ghost, side, corner, bevel)[0][:, ::-1]
            shadow = 1 - 0.22 * cv2.GaussianBlur(ghost_mark, (0, 0), max(0.5, side * 0.02))
            cv2.multiply(img, cv2.merge([shadow] * 3), dst=img)
    cv2.multiply(img, cv2.merge([darken] * 3), dst=img)
    ink = np.empty_like(img)
    ink[:] = mark_bgr
    img = cv2.blendLinear(img, ink, 1 - mark, mark)
    alpha = np.maximum(alpha, mark * coverage) * 255
    img.setflags(write=False)
    alpha.setflags(write=False)
    return img, alpha


def _master(side: int) -> int:
    """The size a face is drawn at before being area-averaged to `side`: 4x for small dice
    (an exact multiple keeps 18 px pips apart), else one of a few master sizes (2x..4x), so
    most sides reuse a cached drawing."""
    if side <= 32:
        return side * 4
    for n in (128, 256, 512):
        if side <= n // 2:
            return n
    return max(side, 512)


def _down(layer: np.ndarray, side: int) -> np.ndarray:
    if layer.shape[0] == side:
        return layer
    return cv2.resize(layer, (side, side), interpolation=cv2.INTER_AREA)


@lru_cache(maxsize=1024)
def _layers(face, side, corner, bevel):
    """Colour-free layers at `side`: mark coverage, the darker rim around marks, body coverage
    and the bevel's edge ramp (drawn at a master size, then area-averaged)."""
    n = _master(side)
    coverage, edge, _, _ = _geometry(n, corner, bevel)
    mark = np.zeros((n, n), np.float32)
    _draw_marks(mark, face, n, 1.0)
    rim = cv2.GaussianBlur(mark, (0, 0), max(1.0, n * 0.012))
    darken = 1 - 0.35 * np.clip(rim - mark, 0, 1)
    return tuple(_down(x, side) for x in (mark, darken, coverage, edge))


@lru_cache(maxsize=256)
def _veins(side: int, seed: int) -> np.ndarray:
    """Marble veins (0..0.75) drawn from a seed at a master size."""
    n = _master(side)
    rng = np.random.default_rng(seed)
    low = rng.normal(size=(8, 8)).astype(np.float32)
    field = cv2.resize(low, (n, n), interpolation=cv2.INTER_CUBIC)
    t = np.linspace(0, 1, n, dtype=np.float32)
    swirl = np.sin(
        (t[None, :] * rng.uniform(4, 9) + t[:, None] * rng.uniform(2, 6) + field * 1.8) * math.pi
    )
    return _down(np.clip(1 - np.abs(swirl) * 4, 0, 1).astype(np.float32) * 0.75, side)


@lru_cache(maxsize=256)
def _geometry(n: int, corner: float, bevel: float):
    """Coverage of the rounded square, and `edge`: 0 on the flat top, 1 at the rim."""
    t = (np.arange(n, dtype=np.float32) + 0.5) / n - 0.5
    px, py = np.meshgrid(t, t)
    r = max(corner, 1e-3)
    qx, qy = np.abs(px) - (0.5 - r), np.abs(py) - (0.5 - r)
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
    d = outside + np.minimum(np.maximum(qx, qy), 0) - r  # signed distance, < 0 inside
    coverage = np.clip(0.5 - d * n, 0, 1)
    # Outward direction of the nearest edge (gradient of d), to tilt the normal on the bevel.
    gx = np.where(qx > qy, np.sign(px), 0).astype(np.float32)
    gy = np.where(qx > qy, 0, np.sign(py)).astype(np.float32)
    corner_zone = (qx > 0) & (qy > 0)
    gx = np.where(corner_zone, np.sign(px) * np.maximum(qx, 0) / (outside + 1e-6), gx)
    gy = np.where(corner_zone, np.sign(py) * np.maximum(qy, 0) / (outside + 1e-6), gy)
    edge = 1 - np.clip(-d / max(bevel, 1e-3), 0, 1)
    return coverage, edge.astype(np.float32), gx, gy


@lru_cache(maxsize=1024)
def _lighting(side: int, corner: float, bevel: float, light):
    """Diffuse shading (1 on the flat top) and specular (grey levels) of the bevel."""
    shade, spec = _lighting_master(_master(side), corner, bevel, light)
    return _down(shade, side), _down(spec, side)


@lru_cache(maxsize=512)
def _lighting_master(n: int, corner: float, bevel: float, light):
    _, edge, gx, gy = _geometry(n, corner, bevel)
    lean = edge * (math.pi / 2) * 0.9
    nz, s = np.cos(lean), np.sin(lean)
    nx, ny = gx * s, gy * s
    lx, ly, lz = light
    norm = math.sqrt(lx * lx + ly * ly + lz * lz)
    lx, ly, lz = lx / norm, ly / norm, lz / norm
    lam = np.clip(nx * lx + ny * ly + nz * lz, 0, 1)
    shade = (0.35 + 0.65 * lam / max(lz, 1e-3)).astype(np.float32)
    hx, hy, hz = lx, ly, lz + 1.0
    hn = math.sqrt(hx * hx + hy * hy + hz * hz)
    spec = np.clip((nx * hx + ny * hy + nz * hz) / hn, 0, 1) ** 40 * (lean > 0.05) * 127
    return shade, spec.astype(np.float32)


def _draw_marks(mask: np.ndarray, face, n: int, value: float) -> None:
    """Draw the face's marks with value `value` into a float mask of side n (LINE_AA, sub-pixel)."""
    kind = face_kind(face)
    shift = 4
    k = 1 << shift

    def pt(u: float, v: float) -> tuple[int, int]:
        return (int(round((u + 0.5) * n * k - 0.5 * k)), int(round((v + 0.5) * n * k - 0.5 * k)))

    def line(a, b, width):
        cv2.line(mask, pt(*a), pt(*b), value, max(1, int(round(width * n))), cv2.LINE_AA, shift)

    if kind == "pips":
        for u, v in PIP_LAYOUT[int(face)]:
            cv2.circle(
                mask, pt(u, v), int(round(PIP_RADIUS * n * k)), value, -1, cv2.LINE_AA, shift
            )
    elif kind == "strike":
        w, e = 0.13, 0.27
        line((-e, -e), (e, e), w)
        line((-e, e), (e, -e), w)
    elif face == "hash":
        for c in (-0.11, 0.11):
            line((c, -0.3), (c, 0.3), 0.065)
            line((-0.3, c), (0.3, c), 0.065)
    elif face == "slash":
        line((-0.27, 0.27), (0.27, -0.27), 0.08)
    elif face == "bars":
        for c in (-0.17, 0.0, 0.17):
            line((c, -0.29), (c, 0.29), 0.07)
    elif face == "triangle":
        r = 0.31
        pts = [
            pt(r * math.cos(a), 0.05 + r * math.sin(a))
            for a in (-math.pi / 2, -math.pi / 2 + 2 * math.pi / 3, -math.pi / 2 + 4 * math.pi / 3)
        ]
        cv2.polylines(
            mask,
            [np.array(pts, np.int32)],
            True,
            value,
            max(1, int(round(0.065 * n))),
            cv2.LINE_AA,
            shift,
        )
    elif face == "circle":
        cv2.circle(
            mask,
            pt(0, 0),
            int(round(0.27 * n * k)),
            value,
            max(1, int(round(0.065 * n))),
            cv2.LINE_AA,
            shift,
        )
    elif face == "cross":
        line((-0.27, -0.27), (0.27, 0.27), 0.07)
        line((-0.27, 0.27), (0.27, -0.27), 0.07)
