"""The conditions a scene is rendered under: what may be asked, what is drawn when not asked,
and the benchmark's fixed cycle through all of them.

`resolve(kind, rng, given)` returns every condition (the given ones checked, the rest drawn).
`benchmark_set(kind, n, seed)` yields Scenes whose conditions cycle through every value of every
axis (each axis walks its values in a seeded order, shuffled afresh at each pass, so any ~13
consecutive scenes cover each value of each axis, and every pair of values of two axes meets).
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from .backgrounds import BACKGROUNDS
from .faces import DIE_COLOURS, MARK_COLOURS

FRAMES = (
    (640, 480),
    (800, 600),
    (1024, 768),
    (1280, 960),
    (1600, 1200),
    (1920, 1080),
    (4032, 3024),
)
FRAME_WEIGHTS = (0.14, 0.1, 0.14, 0.34, 0.1, 0.14, 0.04)
DIE_NAMES = tuple(DIE_COLOURS)
MARK_NAMES = tuple(MARK_COLOURS)
MIN_CONTRAST = 40.0  # CIE76 distance between die and mark colours; below it, unreadable by anyone
MIN_SIZE, MAX_SIZE = 18.0, 150.0
KEYS = {
    "frame": "(width, height) in pixels, 320..8000",
    "die_size": "die side in pixels at the image centre, 18..150",
    "focal": "focal length / frame width, 0.6..1.6",
    "tilt": "camera tilt from vertical in degrees, 0..35 (above 10: an oblique phone photo)",
    "tilt_azimuth": "direction of the tilt in degrees",
    "background": f"one of {', '.join(BACKGROUNDS)}",
    "die_colour": f"one of {', '.join(DIE_NAMES)} or 'mixed'",
    "mark_colour": f"one of {', '.join(MARK_NAMES)} or 'mixed'",
    "n_dice": "number of dice to place, 0..40",
    "cluster": "chance that a die is placed touching another, 0..1",
    "cocked": "number of cocked dice (on an edge, leaning on a die or the arena wall), 0..6",
    "arena": "True for the Strike oval (strike only)",
    "arena_angle": "the oval's rotation in degrees",
    "out_of_arena": "share of dice thrown out of the arena, 0..1",
    "shadows": "hard shadows, bool",
    "glare": "specular spots on dice, bool",
    "light_elevation": "degrees above the table, 20..90",
    "light_azimuth": "degrees",
    "light_gradient": "uneven lighting across the frame, 0..0.5",
    "vignette": "darkening towards the corners, 0..0.5",
    "exposure": "overall gain, 0.5..1.5",
    "colour_cast": "(b, g, r) white-balance error, each -0.2..0.2",
    "noise": "sensor noise sigma in grey levels, 0..20",
    "blur": "Gaussian blur sigma in pixels, 0..3",
    "jpeg": "JPEG quality 10..100, or None for none",
    "distortion": "radial lens distortion k, -0.05..0.15 (> 0: barrel, as cheap wide lenses)",
}


def contrast(die, mark) -> float:
    lab = cv2.cvtColor(np.uint8([[DIE_COLOURS[die], MARK_COLOURS[mark]]]), cv2.COLOR_BGR2LAB)
    lab = lab[0].astype(float) * [100 / 255, 1, 1]
    return float(np.linalg.norm(lab[0] - lab[1]))


def readable(die, mark) -> bool:
    return contrast(die, mark) >= MIN_CONTRAST


def max_size(kind: str, frame) -> float:
    """For Strike the whole oval (and its rim) should fit in the frame: that caps the die size."""
    if kind != "strike":
        return MAX_SIZE
    from .scene import ARENA_AXES_MM, ARENA_RIM_MM, DIE_SIDE_MM

    span = 2 * (ARENA_AXES_MM[0] + ARENA_RIM_MM)
    return float(np.clip(0.9 * min(frame) * DIE_SIDE_MM["strike"] / span, MIN_SIZE, MAX_SIZE))


def max_blur(size: float) -> float:
    """'Slight' blur: a pip (about a fifth of the side) must stay a blob, so sigma <= 4.5 %."""
    return 0.045 * size


def die_colours(c: dict, rng) -> tuple[str, str]:
    """The colours of the next die: the scene's, or per die when 'mixed'."""
    die = c["die_colour"]
    if die == "mixed":
        die = DIE_NAMES[rng.integers(len(DIE_NAMES))]
    mark = c["mark_colour"]
    if mark == "mixed" or not readable(die, mark):
        options = [m for m in MARK_NAMES if readable(die, m)]
        mark = options[rng.integers(len(options))]
    return die, mark


def _draw(kind: str, rng, c: dict) -> dict:
    """Defaults drawn from rng for every key not in `c` (in a fixed order: reproducible)."""
    d: dict = {}
    d["frame"] = FRAMES[rng.choice(len(FRAMES), p=FRAME_WEIGHTS)]
    frame = c.get("frame", d["frame"])
    top = max_size(kind, frame)
    if kind == "strike":  # the camera frames the box: the oval fills half to all of the frame
        d["die_size"] = float(max(MIN_SIZE, rng.uniform(0.5, 1.0) * top))
    else:
        d["die_size"] = float(np.exp(rng.uniform(np.log(MIN_SIZE), np.log(top))))
    d["focal"] = float(rng.uniform(0.75, 1.15))
    r = rng.random()
    d["tilt"] = float(
        rng.uniform(0, 2) if r < 0.4 else rng.uniform(2, 10) if r < 0.82 else rng.uniform(10, 30)
    )
    d["tilt_azimuth"] = float(rng.uniform(0, 360))
    d["background"] = BACKGROUNDS[rng.integers(len(BACKGROUNDS))]
    if kind == "strike" and rng.random() < 0.75:
        d["die_colour"], d["mark_colour"] = "black", "white"
    else:
        d["die_colour"] = (DIE_NAMES + ("mixed",))[rng.integers(len(DIE_NAMES) + 1)]
        d["mark_colour"] = MARK_NAMES[rng.integers(len(MARK_NAMES))]
    d["n_dice"] = int(rng.integers(1, 32 if kind == "strike" else 25))
    d["cluster"] = float(rng.choice([0.0, 0.3, 0.7]))
    d["cocked"] = int(rng.choice([0, 0, 1, 2, 3]))
    d["arena"] = kind == "strike"
    d["arena_angle"] = float(rng.uniform(-20, 20))
    d["out_of_arena"] = float(rng.uniform(0.05, 0.3))
    d["shadows"] = bool(rng.random() < 0.6)
    d["glare"] = bool(rng.random() < 0.5)
    d["light_elevation"] = float(rng.uniform(30, 80))
    d["light_azimuth"] = float(rng.uniform(0, 360))
    d["light_gradient"] = float(rng.uniform(0, 0.3))
    d["vignette"] = float(rng.uniform(0, 0.3))
    d["exposure"] = float(rng.uniform(0.8, 1.15))
    d["colour_cast"] = tuple(float(v) for v in rng.uniform(-0.08, 0.08, 3))
    d["noise"] = float(rng.choice([1.0, 3.0, 6.0, 10.0]))
    size = c.get("die_size", d["die_size"])
    d["blur"] = float(min(rng.choice([0.0, 0.0, 0.6, 1.0, 1.5]), max_blur(size)))
    d["jpeg"] = None if rng.random() < 0.3 else int(rng.integers(40, 96))
    d["distortion"] = 0.0 if rng.random() < 0.5 else float(rng.uniform(0.0, 0.1))
    return d


def resolve(kind: str, rng, given: dict) -> dict:
    unknown = sorted(set(given) - set(KEYS))
    if unknown:
        raise ValueError(
            f"unknown condition(s) {', '.join(unknown)}: expected some of {', '.join(KEYS)}"
        )
    c = _draw(kind, rng, given)
    c.update(given)
    die, mark = c["die_colour"], c["mark_colour"]
    if die in DIE_NAMES and mark in MARK_NAMES and not readable(die, mark):
        if "mark_colour" not in given:
            options = [m for m in MARK_NAMES if readable(die, m)]
            c["mark_colour"] = options[rng.integers(len(options))]
        elif "die_colour" not in given:
            options = [d for d in DIE_NAMES if readable(d, mark)]
            c["die_colour"] = options[rng.integers(len(options))]
    _check(kind, c)
    c["frame"] = (int(c["frame"][0]), int(c["frame"][1]))
    c["colour_cast"] = tuple(float(v) for v in c["colour_cast"])
    return c


def _check(kind: str, c: dict) -> None:
    def bad(key):
        raise ValueError(f"condition {key}={c[key]!r}: expected {KEYS[key]}")

    try:
        w, h = c["frame"]
        if not (320 <= w <= 8000 and 320 <= h <= 8000):
            bad("frame")
    except (TypeError, ValueError) as err:
        if "condition" in str(err):
            raise
        bad("frame")
    ranges = {
        "die_size": (MIN_SIZE, MAX_SIZE),
        "focal": (0.6, 1.6),
        "tilt": (0, 35),
        "n_dice": (0, 40),
        "cluster": (0, 1),
        "cocked": (0, 6),
        "out_of_arena": (0, 1),
        "light_elevation": (20, 90),
        "light_gradient": (0, 0.5),
        "vignette": (0, 0.5),
        "exposure": (0.5, 1.5),
        "noise": (0, 20),
        "blur": (0, 3),
        "distortion": (-0.05, 0.15),
    }
    for key, (lo, hi) in ranges.items():
        if not isinstance(c[key], (int, float, np.number)) or not lo <= c[key] <= hi:
            bad(key)
    if c["background"] not in BACKGROUNDS:
        bad("background")
    if c["die_colour"] not in (*DIE_NAMES, "mixed"):
        bad("die_colour")
    if c["mark_colour"] not in (*MARK_NAMES, "mixed"):
        bad("mark_colour")
    if (
        c["die_colour"] != "mixed"
        and c["mark_colour"] != "mixed"
        and not readable(c["die_colour"], c["mark_colour"])
    ):
        raise ValueError(
            f"{c['mark_colour']} marks on a {c['die_colour']} die are unreadable: "
            f"choose marks that contrast (CIE76 distance >= {MIN_CONTRAST:.0f})"
        )
    if c["arena"] and kind != "strike":
        raise ValueError("condition arena=True: only the strike kind has an arena")
    if c["jpeg"] is not None and not 10 <= c["jpeg"] <= 100:
        bad("jpeg")
    if len(c["colour_cast"]) != 3 or not all(-0.2 <= v <= 0.2 for v in c["colour_cast"]):
        bad("colour_cast")


# The benchmark's axes: each walks its own seeded permutation of these values.
SIZE_BANDS = ((18, 24), (24, 36), (36, 60), (60, 100), (100, 150))
TILT_BANDS = ((0, 1), (1, 5), (5, 10), (10, 25))


def _axes(kind: str) -> dict:
    dies = DIE_NAMES + ("mixed",)
    if kind == "strike":
        dies = ("black",) * 4 + dies
    return {
        "die_colour": dies,
        "mark_colour": MARK_NAMES,
        "background": BACKGROUNDS,
        "frame": FRAMES[:6] + (FRAMES[3], FRAMES[6]),
        "size_band": SIZE_BANDS,
        "tilt_band": TILT_BANDS,
        "cluster": (0.0, 0.35, 0.7),
        "cocked": (0, 1, 2),
        "shadows": (True, False),
        "glare": (True, False),
        "noise": (1.0, 4.0, 8.0),
        "blur": (0.0, 0.7, 1.4),
        "jpeg": (None, 92, 70, 45),
        "distortion": (0.0, 0.0, 0.04, 0.08),
    }


def _locked_picks(axes: dict, seed: int):
    """One seeded order per axis, walked again and again (the cycle until session 10)."""
    perm_rng = np.random.default_rng([seed, 7919])
    perms = {k: perm_rng.permutation(len(v)) for k, v in axes.items()}
    offsets = {k: int(perm_rng.integers(len(v))) for k, v in axes.items()}
    return lambda i: {k: v[perms[k][(i + offsets[k]) % len(v)]] for k, v in axes.items()}


def _crossed_picks(axes: dict, seed: int):
    """Each axis's values in a fresh seeded order on each pass: every value once a pass, and no
    axis tied to another."""

    def pick(i: int) -> dict:
        out = {}
        for a, (k, v) in enumerate(axes.items()):
            turn, at = divmod(i, len(v))
            order = np.random.default_rng([seed, 7919, a, turn]).permutation(len(v))
            out[k] = v[order[at]]
        return out

    return pick


def benchmark_conditions(kind: str, n: int, seed: int, crossed: bool = True) -> Iterator[dict]:
    """Scene i's conditions: each axis walks its values in a seeded order, every value once per
    pass over the axis.

    crossed (session 11): each pass is shuffled afresh, for each axis on its own. With one order
    per axis for all passes (crossed=False, the cycle before), axes of lengths 2, 4 and 8 moved
    in lockstep (i mod 2 decided both shadows and glare; no photo tilted over 10 degrees had
    glare, and each tilt came with only some frames and JPEG qualities), and so did the axes of
    length 3 (the cocked dice always came with the same cluster level). No network was trained
    on either cycle (training draws its conditions, vision/learned/data.py); crossed=False
    renders the scenes older tests were chosen from (tests/test_arena.py).
    """
    axes = _axes(kind)
    pick_of = _crossed_picks(axes, seed) if crossed else _locked_picks(axes, seed)
    for i in range(n):
        pick = pick_of(i)
        rng = np.random.default_rng([seed, i, 31])
        lo, hi = pick.pop("size_band")
        top = max_size(kind, pick["frame"])
        if kind == "strike":  # the oval fills the frame: the size follows from the frame
            lo, hi = max(MIN_SIZE, 0.5 * top), top
        pick["die_size"] = float(min(rng.uniform(lo, hi), top))
        pick["blur"] = float(min(pick["blur"], max_blur(pick["die_size"])))
        lo, hi = pick.pop("tilt_band")
        pick["tilt"] = float(rng.uniform(lo, hi))
        if pick["die_colour"] == "black" and kind == "strike" and i % 2 == 0:
            pick["mark_colour"] = "white"
        if pick["die_colour"] != "mixed" and not readable(pick["die_colour"], pick["mark_colour"]):
            options = [m for m in MARK_NAMES if readable(pick["die_colour"], m)]
            pick["mark_colour"] = options[i % len(options)]
        pick["n_dice"] = int(rng.integers(3, 25 if kind != "strike" else 28))
        yield pick
