"""Train the axis network (axis.py) on generated crops (axis_data.py), export it to ONNX.

    python -m vision.learned.axis_train --scenes 500 --epochs 10

Needs torch (the `train` extra); the product runs the export through OpenCV. Every kind's dice
go into one network: where the bottom face lies is geometry, the same for every die.
"""

from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from .axis import INPUT_SIDE, MODEL, to_blob
from .axis_data import axis_crops, photoreal_axis_crops
from .classes import KINDS
from .training_loop import logits_of

SEED = 7100  # clear of the classifier's and the benchmark's seeds


def build_model():
    """Three stages of two 3 x 3 convolutions (16, 32, 64 channels), then a 4 x 4 map read
    whole: where in the crop the side faces lie matters, so no global pooling."""
    return located_net(3, (16, 32, 64), 64, 2)


def located_net(planes: int, widths: tuple[int, int, int], units: int, outputs: int):
    """Three stages of two 3 x 3 convolutions of `widths` channels, each pooled, then the
    INPUT_SIDE / 8 map read whole through `units` to `outputs`: the shape of the networks that
    say where something lies in a crop (this one, and the refiner's, refine_train.py)."""
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    layers, cin = [], planes
    for width in widths:
        layers += [*block(cin, width), *block(width, width), nn.MaxPool2d(2)]
        cin = width
    return nn.Sequential(
        *layers,
        nn.Flatten(),
        nn.Linear(cin * (INPUT_SIDE // 8) ** 2, units),
        nn.ReLU(),
        nn.Linear(units, outputs),
    )


def cached(cache: Path | None, key: str, make):
    """(crops, targets) from the .npz `cache` (targets under `key`) if it is there, else made
    by `make()` and kept there: a second training skips the minutes of making them."""
    if cache and cache.exists():
        z = np.load(cache)
        return z["crops"], z[key]
    x, y = make()
    if cache:
        np.savez(cache, **{"crops": x, key: y})
    return x, y


def _part(args):
    kind, scenes, seed = args
    return axis_crops(kind, scenes, seed, per_die=2)


def make_data(scenes: int, seed: int, jobs: int, part=_part):
    """Crops and targets of `scenes` photos a kind, in `jobs` processes (the same either way);
    `part((kind, scenes, seed))` makes one chunk's (a module-level function: it is pickled)."""
    chunk = 25
    tasks = [
        (kind, min(chunk, scenes - s), seed + s) for kind in KINDS for s in range(0, scenes, chunk)
    ]
    with Pool(jobs) as pool:
        parts = pool.map(part, tasks)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def train(model, x, y, epochs: int, seed: int, log, max_lr: float = 3e-3):
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    xs, ys = torch.from_numpy(x), torch.from_numpy(y)
    batch = 256
    steps = epochs * ((len(x) + batch - 1) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=max_lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    gen = torch.Generator().manual_seed(seed)
    mirror = torch.ones(ys.shape[1])  # a mirrored crop: its first target, across, changes sign
    mirror[0] = -1.0
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(x), generator=gen)
        total = 0.0
        for s in range(0, len(x), batch):
            idx = order[s : s + batch]
            xb, yb = xs[idx], ys[idx]
            flip = torch.rand(len(idx), generator=gen) < 0.5
            xb = torch.where(flip[:, None, None, None], xb.flip(3), xb)
            yb = torch.where(flip[:, None], yb * mirror, yb)
            loss = F.smooth_l1_loss(model(xb), yb, beta=0.1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        log(f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f}")
    model.eval()
    return model


def export(model, path: Path, planes: int = 3, output: str = "offset") -> None:
    """The network as ONNX, any number of crops at once (`planes` a crop: the refiner's 4)."""
    import torch

    dummy = torch.zeros(1, planes, INPUT_SIDE, INPUT_SIDE)
    torch.onnx.export(
        model,
        dummy,
        str(path),
        input_names=["crops"],
        output_names=[output],
        dynamic_axes={"crops": {0: "n"}, output: {0: "n"}},
        opset_version=13,
        dynamo=False,
    )


def errors(pred: np.ndarray, truth: np.ndarray) -> dict:
    """How far off the offsets are (in die sides), and their directions where they are long
    enough to have one (degrees): what the point below the camera is found from."""
    miss = np.linalg.norm(pred - truth, axis=1)
    long = np.linalg.norm(truth, axis=1) >= 0.15
    a = np.degrees(
        np.arctan2(pred[long, 1], pred[long, 0]) - np.arctan2(truth[long, 1], truth[long, 0])
    )
    turn = np.abs((a + 180) % 360 - 180)
    return {
        "median_miss": round(float(np.median(miss)), 4),
        "p90_miss": round(float(np.percentile(miss, 90)), 4),
        "median_turn_deg": round(float(np.median(turn)), 2),
        "p90_turn_deg": round(float(np.percentile(turn, 90)), 2),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=500, help="synthetic photos a kind")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", type=Path, help="an .npz to keep the crops in, or read them from")
    ap.add_argument("--out", type=Path, default=MODEL)
    ap.add_argument(
        "--photoreal",
        type=Path,
        nargs="*",
        default=[],
        help="also Blender-rendered scenes from these directories (render.py; not seed 0)",
    )
    ap.add_argument("--photoreal-per-die", type=int, default=6, help="crops of each rendered die")
    a = ap.parse_args(argv)
    t0 = time.time()

    def log(msg):
        print(f"[{time.time() - t0:6.0f} s] {msg}", flush=True)

    x, y = cached(a.cache, "offsets", lambda: make_data(a.scenes, a.seed, a.jobs))
    rendered = np.zeros(len(x), bool)
    if a.photoreal:
        px, py = photoreal_axis_crops(a.photoreal, a.seed, a.photoreal_per_die)
        x, y = np.concatenate([x, px]), np.concatenate([y, py])
        rendered = np.concatenate([rendered, np.ones(len(px), bool)])
    log(f"{len(x)} crops, {int(rendered.sum())} of them rendered")
    test = np.arange(len(x)) % 10 == 0  # one crop in ten held out
    blob = to_blob(list(x))
    import torch

    torch.set_num_threads(a.jobs)
    model = train(build_model(), blob[~test], y[~test], a.epochs, a.seed, log)
    pred = logits_of(model, blob[test])
    held = errors(pred, y[test])
    if rendered.any():  # (crops of the same dice are in training: a check, not a measure)
        held["rendered"] = errors(pred[rendered[test]], y[test][rendered[test]])
    log(f"held-out crops: {held}")
    export(model, a.out)
    meta = {"scenes_a_kind": a.scenes, "epochs": a.epochs, "seed": a.seed, "crops": len(x)}
    if a.photoreal:
        from vision.photoreal.truth import rendered_scenes

        meta["photoreal"] = rendered_scenes(a.photoreal) | {"per_die": a.photoreal_per_die}
    a.out.with_suffix(".json").write_text(json.dumps(meta | {"held_out": held}, indent=1) + "\n")
    log(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
