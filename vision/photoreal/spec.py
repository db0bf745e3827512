"""Drawing one photoreal scene: every choice made here, in our Python, and written as a spec
that vision/photoreal/blender_scene.py builds without drawing anything itself.

The conditions are those of the issue, as vision/synth draws them (die and mark colours that a
player can read, the six table surfaces, frames of 640 x 480 to 4032 x 3024, dice of 18 to 150
px, a camera up to 10° off vertical and oblique phone photos), but what makes a photo hard is
left to the renderer: light, shadows, glare and translucency come from Cycles' path tracing, the
resting poses from Bullet's rigid bodies (a die leaning on another comes from a real drop onto a
pile, not from a drawn tilt), perspective and the side faces from a real camera.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from vision.synth.backgrounds import BACKGROUNDS, table_texture
from vision.synth.conditions import DIE_NAMES, MARK_NAMES, readable
from vision.synth.faces import face_texture

from .arena import AXES_CM, RIM_CM, draw_arena, level, wall_leaner
from .poses import leaning_pair

DIE_SIDE_CM = {"pips": 1.6, "strike": 1.6, "detrak": 1.8}
# the six faces on the die's local +Z, -Z, +X, -X, +Y, -Y (opposite faces side by side)
FACES = {
    "pips": (1, 6, 2, 5, 3, 4),
    "strike": ("X", 6, 2, 5, 3, 4),
    "detrak": ("hash", "circle", "slash", "triangle", "bars", "cross"),
}
KINDS = ("pips", "strike", "detrak")
FRAMES = ((640, 480), (1280, 960), (1280, 960), (1600, 1200), (1920, 1080), (4032, 3024))
TILE = 256  # atlas tile side, px: a 150 px die's face is sharp
ROUGHNESS = {"glossy": (0.05, 0.2), "satin": (0.25, 0.5)}
# leaning pairs a scene draws from: a benchmark's mix, or (`leaning`, for training sets) about
# three times as many before the cap of a third of its dice (89 such scenes held 1.24 cocked
# dice each, the plain ones 0.79): the wrong sure faces on the Blender sets are leaning dice
PAIRS = (0, 1, 1, 2, 3)
LEANING_PAIRS = (2, 3, 4, 5, 6)
OBLIQUE = (15.0, 35.0)  # the tilts of an oblique photo, degrees off vertical


def draw_spec(
    kind: str, seed: int, index: int, textures: Path, leaning: bool = False, oblique: bool = False
) -> dict:
    """The spec of scene `index` of `seed` (textures written under `textures`); `leaning`:
    more dice set up to lean; `oblique`: every camera 15-35° off vertical (the same draws
    otherwise, so a scene keeps its frame and look)."""
    textures.mkdir(parents=True, exist_ok=True)
    # (the kind in the seed: pips and Détrak scenes of one index would otherwise be one scene)
    rng = np.random.default_rng([seed, index, KINDS.index(kind), 4099])
    frame = FRAMES[rng.integers(len(FRAMES))]
    side = DIE_SIDE_CM[kind]
    arena = (
        draw_arena(rng, textures, f"{seed}_{index}")
        if kind == "strike" and rng.random() < 0.75
        else None
    )
    biggest = min(150, min(frame) / 6)
    if arena:  # the whole oval and its rim in the frame
        biggest = min(biggest, 0.9 * min(frame) * side / (2 * (AXES_CM[0] + RIM_CM)))
    die_px = math.exp(rng.uniform(math.log(18), math.log(biggest)))
    camera = _camera(rng, frame, side, die_px, oblique)
    reach = _reach(camera, frame, side)
    scene_colours = _colour_choice(rng)
    view = max(frame) / 2 / camera["f_px"] * camera["distance"]
    starts = _starts(rng, side, reach, arena, view, leaning)
    dice = _dice(kind, rng, starts, scene_colours, textures, f"{seed}_{index}")
    return {
        "kind": kind,
        "seed": int(rng.integers(1 << 30)),
        "frame": list(frame),
        "samples": 16,
        # a 4032 x 3024 frame is rendered at a third of its side and enlarged, and the dice's
        # region again at full size (blender_scene.py): 12 Mpx path-traced take minutes here
        "render_percent": 100 if frame[0] * frame[1] <= 2_100_000 else 34,
        "frames": 140,
        "die_side_cm": side,
        "dice": dice,
        "arena": arena,
        "camera": camera,
        "sun": _light(rng),
        "ambient": {"colour": list(rng.uniform(0.6, 1.0, 3)), "strength": rng.uniform(0.2, 0.6)},
        "background": _background(rng, camera, reach, textures, f"{seed}_{index}"),
        "exposure": float(rng.uniform(-0.4, 0.4)),
        "conditions": {
            "frame": list(frame),
            "die_size": round(die_px, 1),
            "tilt": round(camera["tilt"], 1),
            "die_colour": scene_colours[0],
            "mark_colour": scene_colours[1],
            "n_dice": len(dice),
        },
    }


def _camera(rng, frame, side: float, die_px: float, oblique: bool = False) -> dict:
    """A camera looking at the table's centre from a distance that shows a die at `die_px`:
    a quarter of the photos oblique (15-35°), the rest within 10° of vertical; `oblique`, all.
    Training sets of oblique photos only (session 41): on 123 Blender Détrak scenes, the 36
    photos tilted 15° or more held 62 of the reader's 84 errors, 43 of them flat dice whose
    side faces the classifier took for a cocked die's."""
    lens = float(rng.uniform(24, 50))
    f_px = frame[0] * lens / 36.0
    dist = side * f_px / die_px
    steep = rng.random() < 0.25  # (drawn either way: the scene's later draws stay the same)
    tilt = rng.uniform(*OBLIQUE) if steep or oblique else rng.uniform(0, 10)
    az = rng.uniform(0, 2 * math.pi)
    t = math.radians(tilt)
    loc = [dist * math.sin(t) * math.cos(az), dist * math.sin(t) * math.sin(az), dist * math.cos(t)]
    return {
        "lens_mm": lens,
        "loc": loc,
        "target": [0.0, 0.0, 0.0],
        "roll": float(rng.uniform(-math.pi, math.pi)),
        "tilt": float(tilt),
        "distance": dist,
        "f_px": f_px,
    }


def _reach(camera: dict, frame, side: float) -> float:
    """Half the side of the square the dice land in: well inside the frame (its short side,
    at the table's centre), so that no die is cut by the frame's edge after a bounce."""
    half_short = min(frame) / 2 / camera["f_px"] * camera["distance"]
    return max(1.2 * side, 0.55 * half_short * math.cos(math.radians(camera["tilt"])))


def _colour_choice(rng) -> tuple[str, str]:
    die = "mixed" if rng.random() < 0.2 else DIE_NAMES[rng.integers(len(DIE_NAMES))]
    mark = "mixed" if rng.random() < 0.2 else MARK_NAMES[rng.integers(len(MARK_NAMES))]
    return die, mark


def _die_colours(rng, scene_colours) -> tuple[str, str]:
    die, mark = scene_colours
    if die == "mixed":
        die = DIE_NAMES[rng.integers(len(DIE_NAMES))]
    if mark == "mixed" or not readable(die, mark):
        options = [m for m in MARK_NAMES if readable(die, m)]
        mark = options[rng.integers(len(options))]
    return die, mark


def _starts(
    rng, side: float, reach: float, arena: dict | None, view: float, leaning: bool = False
) -> list:
    """Where the dice start (location, quaternion): dropped from a little height at random
    turns, some onto another die (a pile), up to three (PAIRS; six with `leaning`:
    LEANING_PAIRS) set up to lean on a neighbour (vision/photoreal/poses.py: the cocked dice)
    and, in the Strike box, up to two on its wall; a few thrown out of the box."""
    room = int((2 * reach / (1.6 * side)) ** 2)
    n = int(min(rng.integers(4, 16), max(2, room)))
    pairs = min(int(rng.choice(LEANING_PAIRS if leaning else PAIRS)), n // 3)
    piles = int(rng.integers(0, 3)) if n - 2 * pairs >= 4 else 0
    walls = int(rng.integers(0, 3)) if arena else 0
    out = int(round(n * rng.uniform(0.05, 0.3))) if arena else 0
    radii = [2.3 * side] * pairs + [0.8 * side] * (n - 2 * pairs - piles - walls - out)
    where = (lambda x, y: level(arena, x, y, grow=-2.3 * side) < 1) if arena else None
    places = _spots(rng, radii, reach, where)
    if arena:

        def outside(x, y):
            return level(arena, x, y, grow=RIM_CM + side) > 1

        places += _spots(rng, [0.8 * side] * out, view, outside, places)
    starts, leaners = [], 0
    for x, y, r in places:
        if r > side:  # a pair's place
            leaners += 1
            tip = math.radians(rng.uniform(46, 49))
            faces = rng.integers(6, size=2)
            phi, gap = rng.uniform(0, 2 * math.pi), rng.uniform(0.77, 0.94)
            starts += leaning_pair(x, y, phi, side, gap, tip, faces)
        else:
            starts.append(([x, y, side * rng.uniform(1.1, 1.7)], _turn(rng)))
    starts += [wall_leaner(rng, arena, side) for _ in range(walls)]
    for _ in range(piles):  # a die dropped over one already placed: it falls onto it
        if len(starts) == 2 * leaners:
            break
        x, y, _ = starts[2 * leaners + rng.integers(len(starts) - 2 * leaners)][0]
        loc = [x + rng.uniform(-0.5, 0.5) * side, y + rng.uniform(-0.5, 0.5) * side, 2.3 * side]
        starts.append((loc, _turn(rng)))
    return starts


def _dice(kind, rng, starts, scene_colours, textures: Path, tag: str) -> list[dict]:
    """Each die's start, colours (its atlas) and finish."""
    out = []
    for i, (loc, quat) in enumerate(starts):
        die, mark = _die_colours(rng, scene_colours)
        atlas, marks = _atlas(kind, die, mark, int(rng.integers(1 << 16)), textures, f"{tag}_{i}")
        glossy = rng.random() < 0.5
        out.append(
            {
                "loc": [float(v) for v in loc],
                "quat": [float(v) for v in quat],
                "atlas": str(atlas),
                "marks": str(marks),
                "die": die,
                "mark": mark,
                "bevel": float(rng.uniform(0.08, 0.16)),
                "engraving": float(rng.uniform(0.2, 0.8)),
                "roughness": float(rng.uniform(*ROUGHNESS["glossy" if glossy else "satin"])),
                "translucent": 0.6 if die == "translucent" else 0.0,
            }
        )
    return out


def _turn(rng) -> list[float]:
    """A uniformly random orientation (a normalised 4-D Gaussian: uniform Euler angles are
    not, and from a low drop the start decides the face)."""
    q = rng.standard_normal(4)
    return [float(v) for v in q / np.linalg.norm(q)]


def _spots(rng, radii, reach: float, where=None, taken=()) -> list[tuple[float, float, float]]:
    """(x, y, radius) of places of these radii in the square of half-side `reach` (and where
    `where` says), none overlapping each other or `taken` (fewer if there is no room)."""
    spots: list[tuple[float, float, float]] = list(taken)
    for r in radii:
        for _ in range(60):
            x, y = rng.uniform(-reach, reach, 2)
            if (where is None or where(x, y)) and all(
                math.hypot(x - a, y - b) >= r + q for a, b, q in spots
            ):
                spots.append((float(x), float(y), r))
                break
    return spots[len(taken) :]


def _atlas(kind, die, mark, texture_seed, textures: Path, tag: str) -> tuple[Path, Path]:
    """The die's six faces in a 3 x 2 atlas (colours, and the marks' coverage for engraving)."""
    colour = np.zeros((2 * TILE, 3 * TILE, 3), np.uint8)
    cover = np.zeros((2 * TILE, 3 * TILE), np.uint8)
    for i, face in enumerate(FACES[kind]):
        img, marks = face_texture(face, TILE, die, mark, texture_seed)
        r, c = divmod(i, 3)
        colour[r * TILE : (r + 1) * TILE, c * TILE : (c + 1) * TILE] = img
        cover[r * TILE : (r + 1) * TILE, c * TILE : (c + 1) * TILE] = (marks * 255).astype(np.uint8)
    a, m = textures / f"{tag}_atlas.png", textures / f"{tag}_marks.png"
    cv2.imwrite(str(a), colour)
    cv2.imwrite(str(m), cover)
    return a, m


def _light(rng) -> dict:
    """The sun (hard shadows when its disc is small) at 20-90° over the table, and sometimes a
    lamp close by (soft light, a second highlight on glossy dice). Blender's sun strength is
    the irradiance, and the render's "Standard" view maps a white surface under a strength of
    1 to about white: strengths of 0.5-1.5 and a lamp adding 0.2-0.8 at the table keep the
    dice's colours (4.5, tried first, washed every die out to white)."""
    elev = math.radians(rng.uniform(20, 90))
    az = rng.uniform(0, 2 * math.pi)
    sun = {
        "dir": [math.cos(elev) * math.cos(az), math.cos(elev) * math.sin(az), math.sin(elev)],
        "energy": float(rng.uniform(0.5, 1.5)),
        "angle": float(math.radians(rng.uniform(0.5, 15))),
    }
    if rng.random() < 0.4:
        a = rng.uniform(0, 2 * math.pi)
        loc = [40 * math.cos(a), 40 * math.sin(a), float(rng.uniform(30, 80))]
        r2 = sum(v * v for v in loc)
        sun["lamp"] = {
            "loc": loc,
            "energy": float(rng.uniform(0.2, 0.8) * math.pi * r2),
            "size": float(rng.uniform(5, 30)),
        }
    return sun


def _background(rng, camera: dict, reach: float, textures: Path, tag: str) -> dict:
    """The table surface: one of vision/synth's six, drawn at about the photo's own scale
    on a square that covers the view (tiled beyond it)."""
    name = BACKGROUNDS[rng.integers(len(BACKGROUNDS))]
    size_cm = max(6 * reach, 20.0)
    px = int(np.clip(camera["f_px"] / camera["distance"] * size_cm, 256, 4096))
    tex = table_texture(name, px, px, px / (10 * size_cm), rng)
    path = textures / f"{tag}_table.png"
    cv2.imwrite(str(path), tex.clip(0, 255).astype(np.uint8))
    return {
        "name": name,
        "path": str(path),
        "size_cm": size_cm,
        "plane_cm": max(size_cm, 4 * camera["distance"]),
        "roughness": float(rng.uniform(0.5, 0.95)),
    }
