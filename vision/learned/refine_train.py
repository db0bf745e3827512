"""Train the refiner (refine.py) on generated crops (refine_data.py), export it to ONNX.

    python -m vision.learned.refine_train --scenes 300 --epochs 12 --cache FILE.npz \
        [--photoreal DIR...]

(--photoreal: Blender renders' crops too; tried in session 51, not kept: the committed refiner
learned the synthetic photos alone.)

Needs torch (the `train` extra); the product runs the export through OpenCV, its weights stored
as float16 (half.py). Every kind's dice go into one network: where a die's top face lies in a
crop is the same question for every kind.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from vision.photoreal.truth import rendered_scenes

from .axis_train import cached, export, located_net, make_data, train
from .crops import CHANNELS, to_input
from .refine_data import refine_crops, rendered_refine_crops
from .training_loop import logits_of

SEED = 7300  # clear of the classifiers', the axis network's and the benchmark's seeds
MODEL = Path(__file__).parent / "models" / "refine.onnx"
DRAWN = 2  # finds drawn about each die, synthetic or rendered, beside the detector's own


def build_model():
    """Three stages of two 3 x 3 convolutions (16, 32, 48 channels), then the 4 x 4 map read
    whole (where in the crop the die lies is the answer: no global pooling), through 32 units:
    76 k weights, 152 KiB stored as float16."""
    return located_net(CHANNELS, (16, 32, 48), 32, 3)


def _part(args):
    kind, scenes, seed = args
    return refine_crops(kind, scenes, seed, drawn=DRAWN)


def errors(pred: np.ndarray, truth: np.ndarray) -> dict:
    """How far off the centres are (find sides) before and after refining, and the sizes."""
    before = np.linalg.norm(truth[:, :2], axis=1)
    after = np.linalg.norm(pred[:, :2] - truth[:, :2], axis=1)
    far = before >= 0.2
    size = np.abs(pred[:, 2] - truth[:, 2])
    return {
        "median_off_before": round(float(np.median(before)), 4),
        "median_off_after": round(float(np.median(after)), 4),
        "p90_off_after": round(float(np.percentile(after, 90)), 4),
        "far_finds": int(far.sum()),
        "far_within_0.1_after": round(float((after[far] < 0.1).mean()), 4) if far.any() else None,
        "median_size_miss": round(float(np.median(np.expm1(size))), 4),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=300, help="synthetic photos a kind")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", type=Path, help="an .npz to keep the crops in, or read them from")
    ap.add_argument("--out", type=Path, default=MODEL)
    ap.add_argument(
        "--photoreal", nargs="*", default=[], help="also Blender-rendered scenes from these folders"
    )
    a = ap.parse_args(argv)
    t0 = time.time()

    def log(msg):
        print(f"[{time.time() - t0:6.0f} s] {msg}", flush=True)

    x, y = cached(a.cache, "targets", lambda: make_data(a.scenes, a.seed, a.jobs, _part))
    log(f"{len(x)} crops")
    if a.photoreal:
        rx, ry = rendered_refine_crops(a.photoreal, a.seed, drawn=DRAWN)
        x, y = np.concatenate([x, rx]), np.concatenate([y, ry])
        log(f"  and {len(rx)} rendered")
    test = np.arange(len(x)) % 10 == 0  # one crop in ten held out
    blob = to_input(list(x))
    import torch

    from .half import halve

    torch.set_num_threads(a.jobs)
    model = train(build_model(), blob[~test], y[~test], a.epochs, a.seed, log)
    held = errors(logits_of(model, blob[test]), y[test])
    log(f"held-out crops: {held}")
    export(model, a.out, CHANNELS, "where")
    halve(a.out)
    meta = {"scenes_a_kind": a.scenes, "epochs": a.epochs, "seed": a.seed, "crops": len(x)}
    if a.photoreal:
        meta["photoreal"] = rendered_scenes(a.photoreal)
    a.out.with_suffix(".json").write_text(json.dumps(meta | {"held_out": held}, indent=1) + "\n")
    log(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
