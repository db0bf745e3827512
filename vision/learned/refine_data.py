"""Training crops of the refiner (refine.py): a wide crop around a find, and where the die is.

The refiner is taught where the top face's centre lies from the crop's centre, and how big it is
against the find's side: (dx, dy, log(size / find size)), in find sides, in the crop's own axes
(turned outward as the classifier's crops are, crops.py, so a flat die's side face of an oblique
photo always shows on the same side). Two kinds of finds are cut from each synthetic photo:

- the detector's own finds (vision/learned/detector.py) within MATCH sides of a die: its real
  errors, among them the ones the reader loses (a die touching others found a third to half a
  side off, a flat die of an oblique photo found between its top face and the side it shows);
- each die again at a drawn find: off by up to FAR_SHIFT sides in any direction, of a size off by
  SCALE: the errors the detector makes more rarely than the reader can afford to lose them.

The photos follow the benchmark's cycle through every condition (vision.synth.conditions), on
seeds no benchmark reads. A cocked die's target is its truth centre, where the classifier was
taught to see it cocked; a die more than half hidden is left out (no centre to find).
"""

from __future__ import annotations

import numpy as np

from .axis_data import turned
from .classes import KINDS
from .crops import outward_angle, outward_crop
from .data import MIN_VISIBLE, TURN, small, training_truth

REFINE_FACTOR = 2.2  # the crop's side, in find sides: a find half a side off still holds its die
MATCH = 0.6  # a detector's find this near a die's centre (share of its side) is a find of it
FAR_SHIFT = 0.55  # a drawn find's centre error, share of the side, at most
SCALE = (0.75, 1.35)  # ...and its size error, factor


def refine_crops(kind: str, n_scenes: int, seed: int, drawn: int = 1):
    """(crops N x INPUT x INPUT x 4 uint8, targets N x 3 float32) from `n_scenes` synthetic
    photos of `kind`'s dice, seeded: the same arguments give the same crops."""
    from vision.synth.conditions import benchmark_conditions
    from vision.synth.scene import render_scene

    from .detector import find_dice

    pairs = []
    k = KINDS.index(kind)
    plans = benchmark_conditions(kind, n_scenes, seed)
    for i in range(n_scenes):
        rng = np.random.default_rng([seed, i, k, 17])
        scene = render_scene(kind, np.random.default_rng([seed, i, k]), **next(plans))
        pairs += frame_crops(scene.image, training_truth(scene), find_dice(scene.image), rng, drawn)
    return stacked(pairs)


def rendered_refine_crops(dirs, seed: int, drawn: int = 1):
    """The same from Blender-rendered scenes (vision/photoreal): on the oblique renders the
    refiner taught synthetic photos alone brought 10 of 89 flat dice's far finds within 0.1 of
    a side (session 51). The dice the truth leaves out give no crop."""
    from vision.photoreal.truth import read_scene, scene_paths

    from .detector import find_dice

    pairs = []
    for n, path in enumerate(scene_paths(dirs)):
        record, image = read_scene(path)
        rng = np.random.default_rng([seed, n, 23])
        pairs += frame_crops(image, record["dice"], find_dice(image), rng, drawn)
    return stacked(pairs)


def frame_crops(image, dice: list[dict], finds, rng, drawn: int) -> list[tuple]:
    """(crop, target) of each of a frame's detector finds near a die, and of `drawn` finds
    drawn about each die well enough in view."""
    dice = [d for d in dice if d.get("visible", 1.0) >= MIN_VISIBLE]
    at = [(f.x, f.y, f.size) for f in finds]
    return [
        crop_and_target(image, (x, y, size), d, rng)
        for x, y, size, d in matched(at, dice) + drawn_finds(dice, rng, drawn)
    ]


def stacked(pairs: list[tuple]):
    if not pairs:
        return np.zeros((0, 32, 32, 4), np.uint8), np.zeros((0, 3), np.float32)
    return np.stack([c for c, _ in pairs]), np.asarray([t for _, t in pairs], np.float32)


def matched(finds, dice: list[dict]) -> list[tuple]:
    """Each find (x, y, size) within MATCH of a die's centre, with the nearest such die."""
    out = []
    for x, y, size in finds:
        near = [d for d in dice if np.hypot(d["x"] - x, d["y"] - y) < MATCH * d["size"]]
        if near:
            out.append((x, y, size, min(near, key=lambda d: np.hypot(d["x"] - x, d["y"] - y))))
    return out


def drawn_finds(dice: list[dict], rng, per_die: int) -> list[tuple]:
    """Finds drawn about each die: off in any direction by up to FAR_SHIFT sides (uniform over
    the disc), their size off by SCALE."""
    out = []
    for d in dice:
        for _ in range(per_die):
            r, a = FAR_SHIFT * np.sqrt(rng.random()), rng.uniform(0, 2 * np.pi)
            s = d["size"]
            x, y = d["x"] + r * s * np.cos(a), d["y"] + r * s * np.sin(a)
            out.append((x, y, s * rng.uniform(*SCALE), d))
    return out


def crop_and_target(image, find: tuple, die: dict, rng) -> tuple[np.ndarray, np.ndarray]:
    """The refiner's crop of a find (x, y, size) turned outward give or take TURN degrees, and
    where `die` lies in it: (dx, dy) / size in the crop's axes, log(die size / size)."""
    x, y, size = find
    off = rng.uniform(-TURN, TURN)
    crop = small(outward_crop(image, x, y, REFINE_FACTOR * size, off))
    angle = outward_angle(image.shape, x, y) + off
    dx, dy = turned((die["x"] - x, die["y"] - y), angle)
    target = (dx / size, dy / size, np.log(die["size"] / size))
    return crop, np.asarray(target, np.float32)
