"""Training crops of the axis network (axis.py): flat dice and where their bottom face lies.

A flat die seen from a camera that is not straight above it shows side faces, and its bottom
face's centre projects off its top face's, on the line towards the point below the camera. The
network is taught that offset, (bottom - top) / side in the crop's own axes, from the synthetic
truth (vision.synth: `TruthDie.bottom`). Each crop is turned by a random angle (the target turned
with it) and off centre and scale as an imperfect detector's find is (data.py's jitter), so the
network reads the die's shape, not the crop's place or turn. Scenes are drawn over the whole
range of focal lengths (0.6-1.6 frame widths) and half of them tilted 10-30 degrees: oblique
photos are where the offset matters, and the benchmark's conditions draw few of them.
"""

from __future__ import annotations

import numpy as np

from .classes import KINDS
from .crops import CROP_FACTOR, INPUT, warp_crop
from .data import JITTER_SCALE, JITTER_SHIFT, MIN_VISIBLE, TRAIN_FRAMES, small


def axis_crops(kind: str, n_scenes: int, seed: int, per_die: int = 1):
    """(crops N x INPUT x INPUT x 3 uint8, offsets N x 2 float32) from `n_scenes` synthetic
    photos of `kind`'s dice, seeded: the same arguments give the same crops."""
    from vision.synth.scene import render_scene

    crops, offsets = [], []
    k = KINDS.index(kind)  # (the seeds' kind number, as data.py's)
    for i in range(n_scenes):
        rng = np.random.default_rng([seed, i, k, 7])
        scene = render_scene(kind, np.random.default_rng([seed, i, k]), **_conditions(rng))
        for t in scene.dice:
            if t.cocked or t.bottom is None or t.visible < MIN_VISIBLE:
                continue
            for _ in range(per_die):
                crop, offset = _crop(scene.image, t, rng)
                crops.append(crop)
                offsets.append(offset)
    shape = (0, INPUT, INPUT, 3)
    if not crops:
        return np.zeros(shape, np.uint8), np.zeros((0, 2), np.float32)
    return np.stack(crops), np.asarray(offsets, np.float32)


def photoreal_axis_crops(dirs, seed: int, per_die: int = 1):
    """(crops, offsets) as axis_crops gives, from Blender-rendered scenes (render.py) whose
    record keeps the camera: each flat die's offset from the spec's camera (vision/photoreal/
    camera.py), the dice resting on the table. The network taught synthetic crops alone placed
    the point below two to four times farther off on renders (docs/vision-history.md, session 27)."""
    from vision.photoreal.camera import bottom_offsets
    from vision.photoreal.spec import DIE_SIDE_CM
    from vision.photoreal.truth import read_scene, scene_paths

    crops, offsets = [], []
    for n, path in enumerate(scene_paths(dirs)):
        record, image = read_scene(path)
        if "camera" not in record:
            raise ValueError(f"{path}: no camera in its record (render.py --cameras adds it)")
        flat = [
            d
            for d in record["dice"]
            if not d["cocked"]
            and d.get("visible", 1.0) >= MIN_VISIBLE
            and d["in_arena"] in (None, True)
        ]
        if not flat:
            continue
        h, w = image.shape[:2]
        true = bottom_offsets(
            record["camera"],
            (w, h),
            [(d["x"], d["y"]) for d in flat],
            [d["size"] for d in flat],
            DIE_SIDE_CM[record["kind"]],
        )
        rng = np.random.default_rng([seed, n, 13])
        for d, offset in zip(flat, true, strict=True):
            for _ in range(per_die):
                crop, turned_offset = _crop_at(image, d["x"], d["y"], d["size"], offset, rng)
                crops.append(crop)
                offsets.append(turned_offset)
    if not crops:
        return np.zeros((0, INPUT, INPUT, 3), np.uint8), np.zeros((0, 2), np.float32)
    return np.stack(crops), np.asarray(offsets, np.float32)


def _conditions(rng) -> dict:
    tilt = rng.uniform(10, 30) if rng.random() < 0.5 else rng.uniform(0, 10)
    return {
        "frame": TRAIN_FRAMES[rng.integers(len(TRAIN_FRAMES))],
        "n_dice": int(rng.integers(6, 25)),
        "tilt": float(tilt),
        "focal": float(rng.uniform(0.6, 1.6)),
    }


def _crop(image, t, rng) -> tuple[np.ndarray, np.ndarray]:
    offset = (np.array(t.bottom) - (t.x, t.y)) / t.size
    return _crop_at(image, t.x, t.y, t.size, offset, rng)


def _crop_at(image, x, y, size, offset, rng) -> tuple[np.ndarray, np.ndarray]:
    dx, dy = rng.uniform(-JITTER_SHIFT, JITTER_SHIFT, 2) * size
    side = CROP_FACTOR * size * rng.uniform(*JITTER_SCALE)
    angle = rng.uniform(0, 360)
    crop = small(warp_crop(image, x + dx, y + dy, side, angle))
    return crop, turned(offset, angle)


def turned(vector, angle: float) -> np.ndarray:
    """An image vector in the axes of a crop turned by `angle` degrees (crops.py's warp_crop:
    counter-clockwise on screen, y down)."""
    a = np.radians(angle)
    c, s = np.cos(a), np.sin(a)
    x, y = vector
    return np.array([c * x + s * y, -s * x + c * y])
