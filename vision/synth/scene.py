"""A whole table photographed from above, with exact ground truth.

    scene = render_scene("strike", np.random.default_rng(7), tilt=8.0, die_size=40)
    scene.image            # BGR uint8
    scene.dice             # [TruthDie(face, x, y, size, in_arena, cocked), ...]
    scene.arena            # {"centre": [x, y], "axes": [a, b], "angle": deg} (image px) or None
    scene.conditions       # every condition actually used (the ones given, the rest drawn)

The renderer is pure: the image depends only on the arguments and the generator's state. The
world is in mm, dice are cubes drawn face by face through a pinhole camera (vision.synth.camera),
so tilt, parallax and side faces are geometrically right and the truth is a projection, not a
guess. Truth conventions: x, y the projected centre of a flat die's top face (of a cocked die: of
the cube); size the square root of the projected top face's area (cocked: the side at that
depth); face None when cocked; in_arena None when the scene has no arena. A cocked die's `upper`
(not in the JSON) is where its upmost face's centre projects: the classifier's training crops.
A flat die's `bottom` (not in the JSON either) is where its bottom face's centre projects: the
line from the top face's centre to it points at the point below the camera (axis networks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from . import conditions as cond_mod
from .backgrounds import draw_arena, table_texture
from .camera import Camera, Lens
from .dice import Die, draw_die, shadow_polygon
from .effects import add_glare, finish
from .layout import ARENA_RIM_MM, FACES, Placer, ellipse_level  # noqa: F401 (FACES re-exported)

KINDS = ("pips", "strike", "detrak")
DIE_SIDE_MM = {"pips": 16.0, "strike": 16.0, "detrak": 18.0}
ARENA_AXES_MM = (125.0, 95.0)  # semi-axes of the Strike box's oval (a choice, see the docs)
MAX_TEXTURE_PX = 5_000_000
RENDER_MAX_PX = 12_200_000  # a 4032x3024 phone photo is drawn at its size; larger, enlarged
TEXTURE_SCALE = 0.8  # table texture pixels per image pixel at the nadir: grain a little soft


@dataclass(frozen=True)
class TruthDie:
    face: object
    x: float
    y: float
    size: float
    in_arena: bool | None
    cocked: bool
    visible: float = 1.0  # share of the top face not hidden by a die nearer the camera
    tip: float = 0.0  # degrees a cocked die is tipped (25-65: the hard ones are near the ends)
    upper: tuple[float, float] | None = None  # a cocked die: its upmost face's centre, projected
    bottom: tuple[float, float] | None = None  # a flat die: its bottom face's centre, projected

    def to_json(self) -> dict:
        return {
            "face": self.face,
            "x": round(self.x, 2),
            "y": round(self.y, 2),
            "size": round(self.size, 2),
            "in_arena": self.in_arena,
            "cocked": self.cocked,
            "visible": round(self.visible, 3),
        }


@dataclass
class Scene:
    image: np.ndarray
    dice: list[TruthDie]
    arena: dict | None
    conditions: dict = field(default_factory=dict)
    jpeg: bytes | None = None  # the JPEG file itself when the scene was compressed
    below: tuple[float, float] | None = None  # the frame's point straight below the camera

    def truth_json(self) -> dict:
        """Contract-2 shaped truth (no confidence), plus the conditions."""
        return {
            "dice": [d.to_json() for d in self.dice],
            "arena": self.arena,
            "conditions": self.conditions,
        }


def render_scene(kind: str, rng: np.random.Generator, **conditions) -> Scene:
    """Render one table; unspecified conditions are drawn from `rng` (see conditions.py)."""
    _check(kind)
    c = cond_mod.resolve(kind, rng, conditions)
    side = DIE_SIDE_MM[kind]
    lens = Lens(c["frame"][0], c["frame"][1], c["distortion"])
    full = _camera(c, side, rng, lens.canvas)
    # Frames beyond a phone's 12 Mpx are drawn smaller and enlarged before the sensor noise; the
    # truth is projected through the full-size camera, which is exact. (Up to session 13, frames
    # over 2.1 Mpx were: an 18 px die of a 4032 px frame was drawn at 7.5 px, under the issue's
    # smallest die.)
    s = min(1.0, math.sqrt(RENDER_MAX_PX / (c["frame"][0] * c["frame"][1])))
    cam = Camera(
        round(full.width * s),
        round(full.height * s),
        full.focal * s,
        full.centre,
        full.tilt,
        full.tilt_azimuth,
    )
    rc = dict(c, frame=(cam.width, cam.height), die_size=c["die_size"] * s)
    light = _light(c)
    img, arena_world = _table(kind, rc, cam, rng)
    margin = 0.9 * c["die_size"] + 4
    fw, fh = c["frame"]

    def in_frame(px: np.ndarray) -> bool:
        x, y = float(px[0][0]) / s, float(px[0][1]) / s
        u, v = lens.output_point(x, y) if lens.k else (x, y)
        return margin <= u <= fw - margin and margin <= v <= fh - margin

    dice = Placer(kind, rc, cam, side, arena_world, rng, in_frame).place()
    in_arena = [
        None if arena_world is None else bool(ellipse_level(arena_world, d.centre[:2]) < 1)
        for d in dice
    ]
    _darken(img, dice, cam, light if c["shadows"] else None, rng)
    order = np.argsort([-cam.depth(d.centre[None])[0] for d in dice])
    for i in order:
        draw_die(img, dice[i], cam, light, kind == "strike")
    hulls = [_image_hull(d, full) for d in dice]
    rank = {int(i): k for k, i in enumerate(order)}
    truth = []
    for i, d in enumerate(dice):
        nearer = [hulls[j] for j in range(len(dice)) if rank[j] > rank[i]]
        truth.append(_truth(d, full, in_arena[i], nearer))
    if c["glare"]:
        add_glare(img, dice, cam, rng)
    if lens.k:
        img = cv2.remap(
            img, *_lens_maps(lens, s), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        truth = [_through_lens(t, lens) for t in truth]
    image, jpeg = finish(img, c, rng)
    keep = [t for t in truth if 0 <= t.x < fw and 0 <= t.y < fh]
    return Scene(image, keep, _arena_image(arena_world, full, lens), c, jpeg, _below(full, lens))


def _below(cam: Camera, lens: Lens) -> tuple[float, float]:
    """Where the vertical vanishes: every flat die's bottom projects towards it."""
    x, y = cam.vanishing_point((0.0, 0.0, -1.0))
    if lens.k:
        x, y = lens.output_from_ideal([[x, y]])[0]
    return float(x), float(y)


@lru_cache(maxsize=4)
def _lens_maps(lens: Lens, scale: float):
    return lens.maps(scale)


def _through_lens(t: TruthDie, lens: Lens) -> TruthDie:
    """The truth as the distorted frame shows it: moved, and shrunk by the local magnification."""
    x, y = lens.output_from_ideal([[t.x, t.y]])[0]
    m = float(lens.magnification([[x, y]])[0])
    upper, bottom = (
        None if p is None else tuple(map(float, lens.output_from_ideal([p])[0]))
        for p in (t.upper, t.bottom)
    )
    return replace(t, x=float(x), y=float(y), size=t.size * m, upper=upper, bottom=bottom)


def _camera(c: dict, side: float, rng, canvas) -> Camera:
    focal = c["frame"][0] * c["focal"]
    w, h = canvas
    height = focal * side / c["die_size"] + side
    off = rng.uniform(-0.05, 0.05, 2) * height
    return Camera(
        w, h, focal, (float(off[0]), float(off[1]), float(height)), c["tilt"], c["tilt_azimuth"]
    )


def _light(c: dict) -> np.ndarray:
    el, az = math.radians(c["light_elevation"]), math.radians(c["light_azimuth"])
    return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])


def _table(kind, c, cam: Camera, rng):
    """The table seen by the camera (float32 BGR) and the arena in world mm, if any."""
    w, h = c["frame"]
    corners = np.array(
        [[-0.05 * w, -0.05 * h], [1.05 * w, -0.05 * h], [1.05 * w, 1.05 * h], [-0.05 * w, 1.05 * h]]
    )
    foot = cam.to_table(corners)
    lo, hi = foot.min(axis=0), foot.max(axis=0)
    ppm = cam.focal / cam.centre[2] * TEXTURE_SCALE
    area = (hi - lo).prod() * ppm * ppm
    if area > MAX_TEXTURE_PX:
        ppm *= math.sqrt(MAX_TEXTURE_PX / area)
    tw, th = (int(math.ceil(v)) + 1 for v in (hi - lo) * ppm)
    tex = table_texture(c["background"], th, tw, ppm, rng)
    arena = None
    if c["arena"]:
        a, b = ARENA_AXES_MM
        angle = c["arena_angle"]
        seen = cam.to_table(np.array([[w / 2, h / 2]]))[0] + rng.uniform(-8, 8, 2)
        centre = (float(seen[0]), float(seen[1]))
        arena = {"centre": centre, "axes": (a, b), "angle": angle}
        draw_arena(
            tex,
            ((centre[0] - lo[0]) * ppm, (centre[1] - lo[1]) * ppm),
            (a * ppm, b * ppm),
            angle,
            ppm,
            rng,
            ARENA_RIM_MM,
        )
    hom = cam.table_homography((float(lo[0]), float(lo[1])), ppm)
    img = cv2.warpPerspective(
        tex, hom, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return img, arena


def _darken(img, dice, cam: Camera, light, rng) -> None:
    """Hard cast shadows (when `light` is given) and a faint contact shadow under each die,
    drawn at half resolution (both are soft anyway) and applied in one pass."""
    if not dice:
        return
    h, w = img.shape[:2]
    hh, hw = (h + 1) // 2, (w + 1) // 2
    contact = np.zeros((hh, hw), np.float32)
    for d in dice:
        fp = d.footprint()
        pts = cam.project(np.column_stack([fp, np.zeros(len(fp))])) * 0.5
        cv2.fillPoly(contact, [np.round(pts * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    sigma = max(0.5, 0.03 * float(np.median([_px(d, cam) for d in dice])))
    dark = cv2.GaussianBlur(contact, (0, 0), sigma) * 0.3
    if light is not None:
        cast = np.zeros((hh, hw), np.float32)
        for d in dice:
            poly = shadow_polygon(d, light)
            pts = cam.project(np.column_stack([poly, np.zeros(len(poly))])) * 0.5
            cv2.fillPoly(cast, [np.round(pts * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        cast = cv2.GaussianBlur(cast, (0, 0), float(rng.uniform(0.3, 1.0)))
        dark = np.maximum(dark, cast * float(rng.uniform(0.35, 0.6)))
    factor = cv2.resize(1 - dark, (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(img, cv2.merge([factor] * 3), dst=img)


def _px(d: Die, cam: Camera) -> float:
    return d.side * cam.scale_at(d.centre)


def _image_hull(d: Die, cam: Camera) -> np.ndarray:
    return cv2.convexHull(cam.project(d.corners()).astype(np.float32)).reshape(-1, 2)


def _truth(d: Die, cam: Camera, in_arena, nearer: list[np.ndarray]) -> TruthDie:
    if d.cocked:
        x, y = cam.project(d.centre[None])[0]
        ux, uy = cam.project(d.upper_centre()[None])[0]
        upper = (float(ux), float(uy))
        return TruthDie(
            None, float(x), float(y), _px(d, cam), in_arena, True, tip=d.tip, upper=upper
        )
    top = d.world(np.array([[-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1.0]]))
    quad = cam.project(top).astype(np.float32)
    (x, y), (bx, by) = cam.project(np.stack([d.top_centre(), d.world(np.array([0, 0, -1.0]))]))
    area = abs(cv2.contourArea(quad))
    hidden = sum(cv2.intersectConvexConvex(quad, h)[0] for h in nearer)
    visible = float(np.clip(1 - hidden / max(area, 1e-6), 0, 1))
    bottom = (float(bx), float(by))
    return TruthDie(
        d.face, float(x), float(y), math.sqrt(area), in_arena, False, visible, bottom=bottom
    )


def _arena_image(arena, cam: Camera, lens: Lens) -> dict | None:
    """The oval as the camera sees it: an ellipse fitted to its projected outline."""
    if arena is None:
        return None
    (cx, cy), (a, b), angle = arena["centre"], arena["axes"], arena["angle"]
    t = np.linspace(0, 2 * math.pi, 72, endpoint=False)
    ang = math.radians(angle)
    u, v = a * np.cos(t), b * np.sin(t)
    pts = np.column_stack(
        [
            cx + u * math.cos(ang) - v * math.sin(ang),
            cy + u * math.sin(ang) + v * math.cos(ang),
            np.zeros(len(t)),
        ]
    )
    img_pts = cam.project(pts)
    img_pts = (lens.output_from_ideal(img_pts) if lens.k else img_pts).astype(np.float32)
    (ex, ey), (ew, eh), eang = cv2.fitEllipse(img_pts)
    if ew < eh:  # the major semi-axis first, the angle being that of the major axis
        ew, eh, eang = eh, ew, eang + 90
    eang = (eang + 90) % 180 - 90
    return {
        "centre": [round(ex, 2), round(ey, 2)],
        "axes": [round(ew / 2, 2), round(eh / 2, 2)],
        "angle": round(eang, 2),
        "outline": np.round(img_pts, 1).tolist(),
    }


def benchmark_set(kind: str, n: int, seed: int = 0):
    """`n` scenes of `kind` cycling through every condition in a fixed, seeded order."""
    _check(kind)
    for i, c in enumerate(cond_mod.benchmark_conditions(kind, n, seed)):
        yield _benchmark_render(kind, seed, i, c)


def benchmark_scene(kind: str, index: int, seed: int = 0):
    """Scene `index` of benchmark_set(kind, n, seed) (any n over `index`: the conditions of the
    first scenes do not depend on n), without rendering the scenes before it: a test or a
    session looking at one failing scene."""
    _check(kind)
    *_, c = cond_mod.benchmark_conditions(kind, index + 1, seed)
    return _benchmark_render(kind, seed, index, c)


def _benchmark_render(kind: str, seed: int, index: int, conditions: dict):
    return render_scene(kind, np.random.default_rng([seed, index, KINDS.index(kind)]), **conditions)


def _check(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r}: expected one of {', '.join(KINDS)}")


def moved(scene: Scene, px: int) -> Scene:
    """The same scene with `px` columns and rows of its frame's own edge added at the top left,
    its truth moved with it: a benchmark read moved by a pixel tells how much of a reader's error
    count is the exact frames it was tuned on (session 36: pips' seeds 1 + 3, on which thirty
    sessions of rules were chosen, 72 errors as they are and 86 moved; fresh seeds 101 and 101)."""
    if px < 0:
        raise ValueError(f"moved: expected a number of pixels >= 0, got {px}")

    def at(p):
        return None if p is None else (p[0] + px, p[1] + px)

    dice = [
        replace(d, x=d.x + px, y=d.y + px, upper=at(d.upper), bottom=at(d.bottom))
        for d in scene.dice
    ]
    arena = scene.arena
    if arena is not None:
        arena = {**arena, "centre": list(at(arena["centre"]))}
    image = cv2.copyMakeBorder(scene.image, px, 0, px, 0, cv2.BORDER_REPLICATE)
    return Scene(image, dice, arena, dict(scene.conditions), None, at(scene.below))
