"""Training and test crops, generated from synthetic photos (vision.synth), and the conventions
the simulated table's crops follow too (sim_data.py).

Every crop comes with its class (an index in CLASSES) and a few tags saying where it came from and
under which conditions, so accuracy can be reported per group. Everything is drawn from seeded
generators: the same arguments give the same crops.

Positives: each flat die whose top face is at least 85 % visible, cropped by the convention of
crops.py with the jitter an imperfect detector brings (centre off by up to JITTER_SHIFT of the
side, crop side off by up to JITTER_SCALE), turned outward (crops.py) give or take TURN degrees.
With `wide`, that share of them is off by WIDE_SHIFT instead: the detector's finds on dice that
touch are a quarter to half a side off, and the classifier must read those crops too.
Cocked dice are their own class ("cocked"); with `cocked_upper`, that share of their crops is
centred on the face turned most upward (synthetic truth only), where the detector finds a die
tipped 25-35 degrees, instead of on the cube's centre. Negatives ("none"): table crops away
from every die; crops half off a die; the point where two dice touch. A crop with another
die's centre near its own centre is never a negative.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .classes import CLASSES, COCKED, NONE, check_kind, class_index
from .crops import CROP_FACTOR, INPUT, outward_crop, reach

JITTER_SHIFT = 0.12  # centre error, share of the side, per axis
JITTER_SCALE = (0.82, 1.38)  # crop side error, factor (a black die's hard shadow: +35 %)
WIDE_SHIFT = (0.12, 0.38)  # a wide crop's centre error, share of the side, any direction
TRAIN_FRAMES = ((640, 480), (800, 600), (1024, 768), (1280, 960), (1920, 1080))
MIN_VISIBLE = 0.85
HIT = 0.45  # a find this near a die's centre (share of its side) is a find of that die
TURN = 10.0  # degrees the outward turn is off by at most (a tilted camera's centre of view moves)
ENDS = (35.0, 55.0)  # a cocked die tipped under the first or over the second is near an end
BELOW_FAR = 0.12  # frame lengths: read_learned.AXIS_FAR, nearer the reader keeps the centre


@dataclass
class CropSet:
    """Crops (N x INPUT x INPUT x 4 uint8: BGR and the reach plane), their class indices and
    tags (one dict per crop)."""

    images: list[np.ndarray] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    tags: list[dict] = field(default_factory=list)

    def add(self, image: np.ndarray, label: int, tags: dict) -> None:
        self.images.append(image)
        self.labels.append(label)
        self.tags.append(tags)

    def extend(self, other: CropSet) -> None:
        self.images += other.images
        self.labels += other.labels
        self.tags += other.tags

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return np.stack(self.images), np.asarray(self.labels, np.int64)

    def only(self, kinds) -> CropSet:
        """The crops of these dice kinds: a network for one kind learns from its dice alone."""
        return self.where([tags["kind"] in kinds for tags in self.tags])

    def where(self, mask) -> CropSet:
        """The crops where `mask` (one bool a crop) is true."""
        out = CropSet()
        for image, label, tags, keep in zip(self.images, self.labels, self.tags, mask, strict=True):
            if keep:
                out.add(image, label, tags)
        return out

    def __len__(self) -> int:
        return len(self.labels)


def small(crop: np.ndarray) -> np.ndarray:
    """A native-resolution crop brought to INPUT x INPUT the way the runtime does it."""
    if crop.shape[0] == INPUT:
        return crop
    interp = cv2.INTER_AREA if crop.shape[0] > INPUT else cv2.INTER_LINEAR
    return cv2.resize(crop, (INPUT, INPUT), interpolation=interp)


def jittered(
    image, x, y, size, rng, jitter: bool = True, wide: float = 0.0, below=None
) -> np.ndarray:
    """A die's crop as an imperfect detector would give it, turned outward (crops.py) give or
    take TURN degrees; with odds `wide`, as the detector gives it on dice that touch. (No draw
    for `wide` at 0: the recipes before it make the same crops.)"""
    if jitter:
        dx, dy = _centre_error(rng, wide) * size
        scale = rng.uniform(*JITTER_SCALE)
    else:
        dx = dy = 0.0
        scale = 1.0
    return view(image, x + dx, y + dy, CROP_FACTOR * size * scale, rng, below)


def _centre_error(rng, wide: float) -> np.ndarray:
    if wide > 0 and rng.random() < wide:
        r, a = rng.uniform(*WIDE_SHIFT), rng.uniform(0, 2 * np.pi)
        return np.array([r * np.cos(a), r * np.sin(a)])
    return rng.uniform(-JITTER_SHIFT, JITTER_SHIFT, 2)


def view(image, x, y, side, rng, below=None) -> np.ndarray:
    """The INPUT x INPUT crop of side `side` at (x, y), by the convention of crops.py, the turn
    off by up to TURN degrees; `below`: the point it is turned about, if not the centre."""
    return small(outward_crop(image, x, y, side, rng.uniform(-TURN, TURN), below=below))


def crops_of_frame(
    image,
    dice: list[dict],
    rng,
    tags: dict,
    per_die: int = 1,
    jitter=True,
    cocked_per_die=1,
    wide: float = 0.0,
    cocked_upper: float = 0.0,
    below=None,
    ends: int = 1,
):
    """Positive and negative crops of one frame; `dice` are dicts with face, x, y, size, cocked
    and optionally visible, upper and tip (truth of vision.synth or vision.sim). (No draw for
    `cocked_upper` at 0: the recipes before it make the same crops.) `below`: the point the
    crops are turned about, if not the frame's centre (turn_point). `ends`: times as many crops
    of a cocked die tipped near 25 or 65 degrees, the ones the reader misses most (a die tipped
    25 degrees shows its top face as a flat die seen aside does)."""
    out = CropSet()
    h, w = image.shape[:2]
    pts = np.array([(d["x"], d["y"]) for d in dice], float).reshape(-1, 2)
    sizes = np.array([d["size"] for d in dice], float)
    if not len(dice):
        return out
    for d in dice:
        if d["cocked"]:
            near_end = not ENDS[0] <= d.get("tip", 45.0) <= ENDS[1]
            for _ in range(cocked_per_die * (ends if near_end else 1)):
                x, y = _cocked_centre(d, rng, cocked_upper)
                out.add(
                    jittered(image, x, y, d["size"], rng, jitter, wide, below),
                    class_index(COCKED),
                    dict(tags, group="cocked", size=d["size"]),
                )
            continue
        if d.get("visible", 1.0) < MIN_VISIBLE:
            continue
        for _ in range(per_die):
            crop = jittered(image, d["x"], d["y"], d["size"], rng, jitter, wide, below)
            out.add(crop, class_index(d["face"]), dict(tags, group="face", size=d["size"]))
    typical = float(np.median(sizes))

    def clear_of_dice(x, y, size, gap):
        return np.all(np.hypot(pts[:, 0] - x, pts[:, 1] - y) >= gap * np.maximum(sizes, size))

    def negative(x, y, size, group):
        if size * CROP_FACTOR / 2 < x < w - size * CROP_FACTOR / 2 and (
            size * CROP_FACTOR / 2 < y < h - size * CROP_FACTOR / 2
        ):
            out.add(
                view(image, x, y, CROP_FACTOR * size, rng, below),
                class_index(None),
                dict(tags, group=group, size=size),
            )

    for _ in range(2):  # the table, away from every die
        size = typical * rng.uniform(0.75, 1.3)
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        if clear_of_dice(x, y, size, 1.2):
            negative(x, y, size, "table")
    i = int(rng.integers(len(dice)))  # half a die
    a = rng.uniform(0, 2 * np.pi)
    r = rng.uniform(0.5, 0.8) * sizes[i]
    x, y = pts[i, 0] + r * np.cos(a), pts[i, 1] + r * np.sin(a)
    if clear_of_dice(x, y, sizes[i], 0.45):
        negative(x, y, sizes[i] * rng.uniform(0.85, 1.15), "half")
    for i in range(len(dice)):  # two dice touching
        for j in range(i + 1, len(dice)):
            gap = np.hypot(*(pts[i] - pts[j]))
            size = (sizes[i] + sizes[j]) / 2
            if gap < 1.6 * size and rng.random() < 0.5:
                x, y = (pts[i] + pts[j]) / 2
                if clear_of_dice(x, y, size, 0.45):
                    negative(x, y, size, "pair")
    return out


def _cocked_centre(die: dict, rng, upper: float) -> tuple[float, float]:
    if upper > 0 and die.get("upper") is not None and rng.random() < upper:
        return die["upper"]
    return die["x"], die["y"]


def training_truth(scene) -> list[dict]:
    """A synthetic scene's dice as crops_of_frame takes them (a cocked die with its upper face)."""
    return [
        t.to_json() | ({"upper": t.upper} if t.upper else {}) | ({"tip": t.tip} if t.cocked else {})
        for t in scene.dice
    ]


def crops_at_finds(image, dice: list[dict], finds, rng, tags: dict, below=None) -> CropSet:
    """Crops where the detector (vision/learned/detector.py) found dice: its real errors.

    A find on a flat die (within HIT of its side) is that die's face, cropped where and as big
    as the detector says; a find on a cocked die is "cocked"; a find on no die at all (a print on
    a tray, a pip of a big die, a shadow) is "none": the classifier must turn those down, since
    the reader keeps a find only when the classifier sees a face (or a cocked die) in it.
    """
    out = CropSet()
    for f in finds:
        near = [d for d in dice if np.hypot(d["x"] - f.x, d["y"] - f.y) < HIT * d["size"]]
        d = min(near, key=lambda d: np.hypot(d["x"] - f.x, d["y"] - f.y)) if near else None
        if d is not None and not d["cocked"] and d.get("visible", 1.0) >= MIN_VISIBLE:
            label, group = class_index(d["face"]), "found_face"
        elif d is not None and not d["cocked"]:
            continue  # a die half hidden: neither a face to learn nor a false find
        elif d is not None:
            label, group = class_index(COCKED), "found_cocked"
        else:
            label, group = class_index(None), "false_find"
        out.add(
            view(image, f.x, f.y, CROP_FACTOR * f.size, rng, below),
            label,
            dict(tags, group=group, size=f.size),
        )
    return out


def _small_on_prints(rng) -> dict:
    """Small dice on a printed tray, frames large: the prints are the size of the dice."""
    frame = ((1280, 960), (1600, 1200), (1920, 1080))[rng.integers(3)]
    return {"frame": frame, "background": "tray", "die_size": float(rng.uniform(18, 32))}


def _many_cocked(rng) -> dict:
    """Several dice on an edge each, with dice to lean on."""
    return {"cocked": int(rng.integers(3, 7)), "n_dice": int(rng.integers(8, 20))}


FOCUS = {"prints": _small_on_prints, "cocked": _many_cocked}


def detector_finds(image, hard: bool):
    """The detector's finds on a training frame when hard negatives are asked (its real errors
    become crops: crops_at_finds), else none."""
    if not hard:
        return []
    from .detector import find_dice

    return find_dice(image)


def scene_tags(kind: str, c: dict, source: str) -> dict:
    """Condition groups of a synthetic scene (what the figures are broken down by)."""
    tilt = c["tilt"]
    jpeg = c["jpeg"]
    return {
        "kind": kind,
        "source": source,
        "blur": "none" if c["blur"] == 0 else "<=0.7" if c["blur"] <= 0.7 else ">0.7",
        "tilt": "<2" if tilt < 2 else "2-10" if tilt < 10 else ">=10",
        "jpeg": "none" if jpeg is None else ">=70" if jpeg >= 70 else "<70",
        "noise": "<=3" if c["noise"] <= 3 else ">3",
        "die_colour": c["die_colour"],
        "mark_colour": c["mark_colour"],
        "background": c["background"],
        "glare": bool(c["glare"]),
        "frame": f"{c['frame'][0]}x{c['frame'][1]}",
    }


def synth_crops(
    kind: str,
    n_scenes: int,
    seed: int,
    per_die: int = 1,
    benchmark=False,
    jitter=True,
    cocked_per_die=1,
    hard=False,
    focus: str | None = None,
    wide: float = 0.0,
    cocked_upper: float = 0.0,
    turn_below: float = 0.0,
    ends: int = 1,
):
    """Crops from `n_scenes` synthetic photos: drawn conditions on the smaller frames, or (with
    `benchmark`) the benchmark's cycle through every condition value (vision.synth), or (with
    `focus`, a key of FOCUS) scenes of one of the hard cases. `turn_below`: the share of the
    oblique photos whose crops are turned about the point below the camera (turn_point)."""
    from vision.synth.conditions import benchmark_conditions
    from vision.synth.scene import render_scene

    check_kind(kind)
    k = ("pips", "strike", "detrak").index(kind)
    out = CropSet()
    plans = benchmark_conditions(kind, n_scenes, seed) if benchmark else None
    for i in range(n_scenes):
        rng = np.random.default_rng([seed, i, k, 5])
        if plans is not None:
            cond = next(plans)
        else:
            frame = TRAIN_FRAMES[rng.integers(len(TRAIN_FRAMES))]
            cond = {"frame": frame, "n_dice": int(rng.integers(6, 25))}
            if focus:
                cond.update(FOCUS[focus](rng))
        scene = render_scene(kind, np.random.default_rng([seed, i, k]), **cond)
        dice = training_truth(scene)
        tags = scene_tags(kind, scene.conditions, "synth")
        below = turn_point(scene, turn_below, np.random.default_rng([seed, i, k, 7]))
        some = (per_die, jitter, cocked_per_die, wide, cocked_upper, below)
        out.extend(crops_of_frame(scene.image, dice, rng, tags, *some, ends=ends))
        out.extend(
            crops_at_finds(scene.image, dice, detector_finds(scene.image, hard), rng, tags, below)
        )
    return out


def turn_point(scene, share: float, rng) -> tuple[float, float] | None:
    """The point a synthetic photo's crops are turned about: with odds `share`, the point below
    the camera when it lies BELOW_FAR or more from the centre, else None (the centre).

    Why: the reader turns an oblique photo's crops about the point below the camera when a die
    would read cocked (read_learned._oblique_view), and those crops, their reach far beyond what
    a frame's centre gives, are what it must read flat; turned about the centre alone, training
    never showed them (session 33). The rest stay on the centre, as the reader's first look.
    Its own generator: the crops' draws are the same either way."""
    if share <= 0 or scene.below is None:
        return None
    return far_below(scene.image.shape, scene.below, share, rng)


def far_below(shape: tuple, point, share: float, rng):
    """`point` (the point below a camera) with odds `share` when it lies BELOW_FAR or more from
    the frame's centre, else None: the crops of frames nearer are turned about the centre, as the
    reader's are (read_learned.AXIS_FAR). No draw for a point that near."""
    if reach(shape, *point) < BELOW_FAR or rng.random() >= share:
        return None
    return point


def class_counts(labels) -> dict:
    return {
        str(CLASSES[i]): int(n) for i, n in zip(*np.unique(labels, return_counts=True), strict=True)
    }


__all__ = [
    "NONE",
    "CropSet",
    "crops_of_frame",
    "synth_crops",
    "small",
]
