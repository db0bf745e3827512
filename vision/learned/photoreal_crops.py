"""Training crops from Blender-rendered scenes (vision/photoreal), cut as data.py cuts the
synthetic ones: a module of its own because only the trainings that name rendered scenes
(`train.py --photoreal`) need it."""

from __future__ import annotations

import numpy as np

from .data import CropSet, crops_at_finds, crops_of_frame, detector_finds


def photoreal_crops(
    dirs, seed: int, per_die: int = 1, cocked_per_die=1, hard=False, wide: float = 0.0
) -> CropSet:
    """Crops from Blender-rendered scenes (vision/photoreal: `python -m vision.photoreal.render`
    writes NAME.jpg and NAME.json), the same way as synth_crops: the networks learned only our
    renderer, and these are the scenes where that shows (docs/vision-photoreal.md). Render them
    on seeds apart from the benchmark's (0 and 1). Dice the truth leaves out (cut by the frame,
    tipped 5-15°, covered) give no crop, and no "none" crop is cut near them."""
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
        out.extend(crops_of_frame(image, dice, rng, tags, per_die, True, cocked_per_die, wide))
        out.extend(crops_at_finds(image, dice, detector_finds(image, hard), rng, tags))
    return out
