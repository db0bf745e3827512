"""The classifier's training set (train.py): crops made for every kind from synthetic photos,
the simulated table and the hard cases (data.py), kept in a file so that a second training
skips the rendering, and turned into the network's input blob a chunk at a time."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from .classes import KINDS
from .crops import CHANNELS, INPUT, to_input
from .data import FOCUS, CropSet, class_counts, synth_crops
from .sim_data import sim_crops


def make_data(
    seed: int,
    scenes: int,
    sim_tables: int,
    per_die: int,
    log,
    cocked: int = 1,
    hard=False,
    focus_scenes: int = 0,
    kinds=KINDS,
    wide: float = 0.0,
    cocked_upper: float = 0.0,
    turn_below: float = 0.0,
    ends: int = 1,
) -> CropSet:
    data = CropSet()
    for kind in kinds:
        t = time.time()
        # Cocked dice are few and hard (their top face shows, foreshortened): several crops each,
        # now that they have their own class (as "none" more crops cost flat dice: docs).
        some = dict(cocked_per_die=cocked, hard=hard, wide=wide)
        # The simulated table's truth has no upper face: its cocked crops stay on the cube.
        upper = dict(some, cocked_upper=cocked_upper, turn_below=turn_below, ends=ends)
        part = synth_crops(kind, scenes, seed, per_die=per_die, **upper)
        part.extend(sim_crops(kind, sim_tables, 8, seed + 1, per_die + 1, **some))
        for j, name in enumerate(FOCUS if focus_scenes else ()):
            part.extend(
                synth_crops(
                    kind,
                    focus_scenes,
                    seed + 100 + j,
                    per_die=per_die,
                    focus=name,
                    **upper,
                )
            )
        log(f"  {kind}: {len(part)} crops in {time.time() - t:.0f} s {class_counts(part.labels)}")
        data.extend(part)
    return data


def cached(path: Path | None, make) -> CropSet:
    """The training crops, made once per set of arguments (a second run to try other training
    settings skips the rendering; the caller names the file after what made it)."""
    if path is not None and path.exists():
        z = np.load(path, allow_pickle=False)
        data = CropSet()
        data.images = list(z["images"])
        data.labels = [int(v) for v in z["labels"]]
        data.tags = json.loads(str(z["tags"]))
        return data
    data = make()
    if path is not None:
        images, labels = data.arrays()
        np.savez(path, images=images, labels=labels, tags=json.dumps(data.tags))
    return data


def inputs(data: CropSet, chunk: int = 20_000) -> tuple[np.ndarray, np.ndarray]:
    """The network's input blob and the labels, made a chunk at a time (the same values as one
    to_input call: each crop is normalised alone). Made at once, three training sets' temporaries
    did not fit in 23 GB; this way the blob (16 KiB a crop) is the only big thing left."""
    images, labels = data.arrays()
    data.images = []  # (the stack holds them now)
    x = np.empty((len(images), CHANNELS, INPUT, INPUT), np.float32)
    for s in range(0, len(images), chunk):
        x[s : s + chunk] = to_input(list(images[s : s + chunk]))
    return x, labels
