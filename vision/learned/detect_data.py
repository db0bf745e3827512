"""Training patches for the dice detector, generated: synthetic photos and the simulated table.

A patch is a PATCH x PATCH window of a frame resized so that its dice are DIE_PX_RANGE pixels
across (log-uniform: the detector must not care how big the dice are within that range, because
the reader only knows the dice's size after it has found them). Its targets live on the network's
output grid (one cell per STRIDE pixels): a peak per die centre in the flat or the cocked channel,
and at each centre the die's log size and the centre's offset within its cell. Dice mostly hidden
by nearer dice are neither taught as dice nor as table: their cells are masked out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .sim_data import still_frames

PATCH = 192
STRIDE = 4
DIE_PX_RANGE = (7.0, 60.0)  # dice sides, in network input pixels, the detector is taught
SIZE_REF = 16.0  # size head: log(side / SIZE_REF)
MIN_VISIBLE = 0.5  # a die hidden more than this is masked out (neither die nor table)
SYNTH_FRAMES = ((640, 480), (800, 600), (1024, 768), (1280, 960), (1600, 1200), (1920, 1080))
SIM_GAMES = {"pips": "knister", "strike": "strike", "detrak": "detrak"}
SIM_SIZES = ((640, 480), (960, 720), (1280, 960))
TILTED = (10.0, 30.0)  # an oblique phone photo's tilt from vertical, degrees
HEADS = 5  # flat heat, cocked heat, log size, offset x, offset y


@dataclass
class Patches:
    """N x PATCH x PATCH x 3 uint8 images; N x HEADS x G x G targets; N x G x G weights."""

    images: np.ndarray
    targets: np.ndarray
    mask: np.ndarray


def joined(parts: list[Patches]) -> Patches:
    """The patches of several sets as one."""
    return Patches(
        *(
            np.concatenate(p)
            for p in zip(*((q.images, q.targets, q.mask) for q in parts), strict=True)
        )
    )


def synth_frame(kind: str, seed: int, i: int, tilted: float = 0.0) -> tuple[np.ndarray, list[dict]]:
    """One synthetic photo (every condition drawn) and its dice; `tilted`, the share of photos
    drawn oblique (TILTED degrees), on top of the 18 % the conditions draw so: the detector puts
    oblique flat dice toward the side face the photo shows (docs/vision-history.md, Session 34).
    Its own draw, so 0 makes every earlier recipe's photos."""
    from vision.synth.scene import render_scene

    rng = np.random.default_rng([seed, i, 17])
    frame = SYNTH_FRAMES[rng.integers(len(SYNTH_FRAMES))]
    cond = {"frame": frame, "n_dice": int(rng.integers(2, 29)), "cocked": int(rng.integers(0, 5))}
    lean = np.random.default_rng([seed, i, 43])
    if lean.random() < tilted:
        cond["tilt"] = float(lean.uniform(*TILTED))
    scene = render_scene(kind, np.random.default_rng([seed, i, 19]), **cond)
    return scene.image, [t.to_json() for t in scene.dice]


def sim_frames(kind: str, seed: int, table: int, frames: int):
    """Still frames of one simulated table (its own look), each with its dice."""
    from vision.sim import SimCamera

    rng = np.random.default_rng([seed, table, 23])
    size = SIM_SIZES[rng.integers(len(SIM_SIZES))]
    cam = SimCamera(game=SIM_GAMES[kind], seed=seed * 1000 + table, size=size)
    yield from still_frames(cam, rng, frames, fewest=1)


def patches_of_frame(image: np.ndarray, dice: list[dict], rng, count: int) -> Patches:
    """`count` training patches of one frame, each at its own scale, most centred near a die."""
    sizes = [d["size"] for d in dice if not d["cocked"]] or [d["size"] for d in dice] or [30.0]
    typical = float(np.median(sizes))
    out = []
    for _ in range(count):
        want = math.exp(rng.uniform(*np.log(DIE_PX_RANGE)))
        scale = want / typical
        out.append(_patch(image, dice, scale, rng))
    return Patches(*(np.stack(parts) for parts in zip(*out, strict=True)))


def _patch(image, dice, scale, rng):
    h, w = image.shape[:2]
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(image, (sw, sh), interpolation=interp)
    if dice and rng.random() < 0.65:
        d = dice[rng.integers(len(dice))]
        cx, cy = d["x"] * scale + rng.uniform(-PATCH / 3, PATCH / 3), d["y"] * scale
        cy += rng.uniform(-PATCH / 3, PATCH / 3)
    else:
        cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
    x0 = int(round(min(max(cx - PATCH / 2, 0), max(sw - PATCH, 0))))
    y0 = int(round(min(max(cy - PATCH / 2, 0), max(sh - PATCH, 0))))
    window = small[y0 : y0 + PATCH, x0 : x0 + PATCH]
    patch = cv2.copyMakeBorder(  # past the frame: the edge's colours (masked out below)
        window, 0, PATCH - window.shape[0], 0, PATCH - window.shape[1], cv2.BORDER_REPLICATE
    )
    placed = [
        dict(d, x=(d["x"] + 0.5) * scale - 0.5 - x0, y=(d["y"] + 0.5) * scale - 0.5 - y0)
        for d in dice
    ]
    targets, mask = targets_for([dict(d, size=d["size"] * scale) for d in placed], PATCH)
    valid = np.zeros((PATCH // STRIDE, PATCH // STRIDE), np.float32)
    valid[: -(-window.shape[0] // STRIDE), : -(-window.shape[1] // STRIDE)] = 1.0
    return patch, targets, mask * valid


def targets_for(dice: list[dict], side: int) -> tuple[np.ndarray, np.ndarray]:
    """Heat, size and offset targets on the output grid of a side x side input, and the mask."""
    g = side // STRIDE
    t = np.zeros((HEADS, g, g), np.float32)
    mask = np.ones((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for d in dice:
        cx, cy = (d["x"] + 0.5) / STRIDE - 0.5, (d["y"] + 0.5) / STRIDE - 0.5
        r = d["size"] / STRIDE
        if not (-r < cx < g + r and -r < cy < g + r):
            continue
        near = (xs - cx) ** 2 + (ys - cy) ** 2
        if d.get("visible", 1.0) < MIN_VISIBLE:
            mask[near < (0.6 * r) ** 2] = 0.0
            continue
        sigma = max(0.6, r / 5.0)
        ch = 1 if d["cocked"] else 0
        np.maximum(t[ch], np.exp(-near / (2 * sigma * sigma)), out=t[ch])
        i, j = int(round(cy)), int(round(cx))
        if 0 <= i < g and 0 <= j < g:
            t[ch, i, j] = 1.0
            t[2, i, j] = math.log(d["size"] / SIZE_REF)
            t[3, i, j], t[4, i, j] = cx - j, cy - i
    return t, mask


def generate(
    kind: str, seed: int, scenes: int, sim_tables: int, per_frame: int, tilted=0.0, log=print
):
    """Patches from `scenes` synthetic photos (`tilted` of them oblique) and `sim_tables` x 8
    simulated still frames."""
    rng = np.random.default_rng([seed, 29])
    parts = []
    for i in range(scenes):
        image, dice = synth_frame(kind, seed, i, tilted)
        parts.append(patches_of_frame(image, dice, rng, per_frame))
    for t in range(sim_tables):
        for image, dice in sim_frames(kind, seed, t, 8):
            parts.append(patches_of_frame(image, dice, rng, per_frame))
    log(f"{kind}: {scenes} photos, {sim_tables} tables -> {len(parts) * per_frame} patches")
    return joined(parts)


def photoreal_patches(dirs, seed: int, per_frame: int) -> Patches | None:
    """Patches of Blender-rendered scenes (vision/photoreal), as of the synthetic photos: the
    detector learned only our renderer, and on these it misses dice (docs/vision-photoreal.md).
    Dice the truth leaves out (tipped 5-15°, cut, covered) are masked out, neither die nor table."""
    from vision.photoreal.truth import read_scene, scene_paths

    rng = np.random.default_rng([seed, 31])
    parts = []
    for path in scene_paths(dirs):
        record, image = read_scene(path)
        left = [dict(d, cocked=False, visible=0.0) for d in record["left"]]
        parts.append(patches_of_frame(image, record["dice"] + left, rng, per_frame))
    if not parts:
        return None
    return joined(parts)
