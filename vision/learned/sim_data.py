"""Training crops from the simulated table (vision.sim): still frames after throws, cut by
data.py's conventions. Apart from data.py's drawn photos: a table's truth has no upper face and
no tip, so only the recipes' common options reach it."""

from __future__ import annotations

import numpy as np

from .classes import check_kind
from .data import CropSet, crops_at_finds, crops_of_frame, detector_finds

SIM_GAMES = {"pips": "knister", "strike": "strike", "detrak": "detrak"}
SIM_FRAMES = ((640, 480), (960, 720), (1280, 960), (1920, 1080))


def sim_crops(
    kind: str,
    n_tables: int,
    frames_per_table: int,
    seed: int,
    per_die: int = 1,
    jitter=True,
    cocked_per_die=1,
    hard=False,
    wide: float = 0.0,
):
    """Crops from the simulated table (vision.sim): still frames after throws, each table seeded
    (its own look: table, light, camera height and tilt, lens)."""
    from vision.sim import SimCamera

    check_kind(kind)
    out = CropSet()
    for t in range(n_tables):
        rng = np.random.default_rng([seed, t, 11])
        size = SIM_FRAMES[rng.integers(len(SIM_FRAMES))]
        cam = SimCamera(game=SIM_GAMES[kind], seed=seed * 1000 + t, size=size)
        tags = {"kind": kind, "source": "sim", "frame": f"{size[0]}x{size[1]}"}
        for image, dice in still_frames(cam, rng, frames_per_table, fewest=2):
            out.extend(
                crops_of_frame(image, dice, rng, tags, per_die, jitter, cocked_per_die, wide)
            )
            out.extend(crops_at_finds(image, dice, detector_finds(image, hard), rng, tags))
    return out


def still_frames(cam, rng, frames: int, fewest: int = 1):
    """Still frames of a simulated table, each after a throw (Strike: 'fewest'..6 dice, the
    arena cleared every 4 throws) or a roll of the two dice, with the dice at rest.

    A generator: it draws from `rng` only when the next frame is asked for, so callers that draw
    from the same `rng` between frames keep their sequence of draws."""
    for f in range(frames):
        if cam.game == "strike":
            if f % 4 == 0:
                cam.clear()
            cam.throw(int(rng.integers(fewest, 7)), gather=bool(f % 4 == 0))
        else:
            cam.roll_two()
        cam.skip(cam.frames_until_settled())
        image = cam.read()
        yield image, [d for d in cam.truth()["dice"] if not d["moving"]]
