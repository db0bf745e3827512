"""Training crops from Blender-rendered scenes (vision/photoreal), cut as data.py cuts the
synthetic ones: a module of its own because only the trainings that name rendered scenes
(`train.py --photoreal`) need it."""

from __future__ import annotations

import numpy as np

from .data import CropSet, crops_at_finds, crops_of_frame, detector_finds, far_below


def photoreal_crops(
    dirs,
    seed: int,
    per_die: int = 1,
    cocked_per_die=1,
    hard=False,
    wide: float = 0.0,
    turn: float = 0.0,
) -> CropSet:
    """Crops from Blender-rendered scenes (vision/photoreal: `python -m vision.photoreal.render`
    writes NAME.jpg and NAME.json), the same way as synth_crops: the networks learned only our
    renderer, and these are the scenes where that shows (docs/vision-photoreal.md). Render them
    on seeds apart from the benchmark's (0 and 1). Dice the truth leaves out (cut by the frame,
    tipped 5-15°, covered) give no crop, and no "none" crop is cut near them. `turn`: the share
    of the scenes whose crops are turned about the camera's own point below (see rendered_below)."""
    from vision.photoreal.truth import read_scene, scene_paths

    out = CropSet()
    for n, path in enumerate(scene_paths(dirs)):
        record, image = read_scene(path)
        left = [dict(d, face=None, cocked=False, visible=0.0) for d in record["left"]]
        dice = record["dice"] + left
        c = record["conditions"]
        tags = {
            "kind": record["kind"],
            "source": "photoreal",
            "frame": f"{c['frame'][0]}x{c['frame'][1]}",
            "background": c["background"],
            "die_colour": c["die_colour"],
            "mark_colour": c["mark_colour"],
        }
        rng = np.random.default_rng([seed, n, 11])
        below = rendered_below(record, image.shape, turn, np.random.default_rng([seed, n, 12]))
        out.extend(
            crops_of_frame(
                image,
                dice,
                rng,
                tags,
                per_die,
                cocked_per_die=cocked_per_die,
                wide=wide,
                below=below,
            )
        )
        out.extend(crops_at_finds(image, dice, detector_finds(image, hard), rng, tags, below))
    return out


def rendered_below(record: dict, shape, share: float, rng) -> tuple[float, float] | None:
    """With odds `share`, the point below the render's camera when it lies far from the frame's
    centre (data.far_below), else None (the centre).

    Why: since rules 223-224 the reader turns a Strike or pips oblique photo's crops about the
    point its dice's axes fit, near the camera's; turned about the centre alone, the renders
    taught the crops of its first look only (data.turn_point does so for synthetic photos). Its
    own generator, so the crops' draws are the same at any share."""
    if share <= 0:
        return None
    from vision.photoreal.camera import below

    x, y = below(record["camera"], (shape[1], shape[0]))
    return far_below(shape, (float(x), float(y)), share, rng)
