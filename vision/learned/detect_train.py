"""Train the dice detector from generated patches and export it to ONNX (needs torch: the `train`
extra; the product never imports this module).

    .venv/bin/python -m vision.learned.detect_train                # writes models/dice.onnx
    .venv/bin/python -m vision.learned.detect_train --scenes 20 --sim-tables 1 --epochs 1 --out /tmp/d
    .venv/bin/python -m vision.learned.detect_train --init vision/learned/models/dice.onnx \
        --max-lr 1e-3 --epochs 3 --tilted 0.4 --out /tmp/t1   # trained further, more oblique photos

A small encoder-decoder (CenterNet-like, four downsamplings and two upsamplings back to a stride
of 4) over the whole resized frame: per output cell, the chance that a flat die's centre is there,
the same for a cocked die, the die's log size and the centre's offset within the cell. Same seed,
same patches, same weights (CPU, 2 threads, deterministic algorithms).
"""

from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from vision.photoreal.truth import add_scenes_option, rendered_scenes

from .detect_data import (
    DIE_PX_RANGE,
    HEADS,
    PATCH,
    SIZE_REF,
    STRIDE,
    Patches,
    generate,
    joined,
    photoreal_patches,
)
from .detect_slim import SAMPLE, slimmed_detector

MODELS = Path(__file__).parent / "models"
ONNX_NAME = "dice.onnx"
META_NAME = "dice.json"
OPSET = 13
CHANNELS = (12, 24, 32, 48)
COCKED_WEIGHT = 3.0  # cocked dice are few (about one a scene) and must all be flagged
MEAN, SCALE = 128.0, 1 / 64.0  # input = (BGR - MEAN) * SCALE


def build_model(width: float = 1.0, channels: tuple[int, int, int, int] | None = None):
    """The detector; `width` scales every layer's channels (0.75 runs in two thirds of the time
    under OpenCV here: docs/vision-history.md, "Session 68"), or `channels` gives them."""
    import torch
    import torch.nn as nn

    def cbr(cin, cout, stride=1, dilation=1):
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    a, b, c, d = channels or (max(4, round(ch * width)) for ch in CHANNELS)

    class Detector(nn.Module):
        def __init__(self):
            super().__init__()
            self.to4 = nn.Sequential(cbr(3, a, 2), cbr(a, b, 2), cbr(b, b))
            self.to8 = nn.Sequential(cbr(b, c, 2), cbr(c, c))
            self.to16 = nn.Sequential(cbr(c, d, 2), cbr(d, d, 1, 2))
            self.up8 = cbr(d + c, c)
            self.up4 = cbr(c + b, b)
            self.head = nn.Conv2d(b, HEADS, 1)
            self.head.bias.data[:2] = -4.0  # few cells hold a centre: start there

        def forward(self, x):
            x4 = self.to4(x)
            x8 = self.to8(x4)
            x16 = self.to16(x8)
            y = self.up8(torch.cat([nn.functional.interpolate(x16, scale_factor=2.0), x8], 1))
            y = self.up4(torch.cat([nn.functional.interpolate(y, scale_factor=2.0), x4], 1))
            return self.head(y)

    return Detector()


def _generate_kind(args):
    kind, seed, scenes, sim_tables, per_frame, tilted = args
    return generate(kind, seed, scenes, sim_tables, per_frame, tilted)


def make_data(seed, scenes, sim_tables, per_frame, workers=2, tilted=0.0) -> Patches:
    jobs = [(k, seed, scenes, sim_tables, per_frame, tilted) for k in ("pips", "strike", "detrak")]
    with Pool(workers) as pool:
        parts = pool.map(_generate_kind, jobs)
    return joined(parts)


def augment(images, targets, mask, rng):
    """Flips, transposes and colour changes that keep the truth true (offsets follow the flip)."""
    images, targets, mask = images.copy(), targets.copy(), mask.copy()
    for n in range(len(images)):
        if rng.random() < 0.5:
            images[n], targets[n], mask[n] = (
                images[n, :, ::-1],
                targets[n, :, :, ::-1],
                mask[n, :, ::-1],
            )
            targets[n, 3] *= -1
        if rng.random() < 0.5:
            images[n], targets[n], mask[n] = images[n, ::-1], targets[n, :, ::-1], mask[n, ::-1]
            targets[n, 4] *= -1
        if rng.random() < 0.5:
            images[n] = images[n].transpose(1, 0, 2)
            targets[n] = targets[n].transpose(0, 2, 1)[[0, 1, 2, 4, 3]]
            mask[n] = mask[n].T
        if rng.random() < 0.3:
            images[n] = images[n][:, :, rng.permutation(3)]
    x = images.astype(np.float32)
    gain = rng.uniform(0.75, 1.25, (len(x), 1, 1, 1)).astype(np.float32)
    bias = rng.uniform(-20, 20, (len(x), 1, 1, 1)).astype(np.float32)
    x = np.clip(x * gain + bias, 0, 255)
    return (x - MEAN) * SCALE, targets, mask


def loss_fn(out, targets, mask, cocked_weight: float = COCKED_WEIGHT):
    """Focal loss on the two centre heats (CenterNet's), L1 on size and offset at the centres."""
    import torch

    heat = torch.sigmoid(out[:, :2]).clamp(1e-4, 1 - 1e-4)
    t = targets[:, :2]
    m = mask[:, None]
    pos = (t >= 1.0).float()
    neg = (1 - pos) * (1 - t) ** 4
    weight = torch.tensor([1.0, cocked_weight]).view(1, 2, 1, 1)
    lp = -(torch.log(heat) * (1 - heat) ** 2 * pos * m * weight).sum()
    ln = -(torch.log(1 - heat) * heat**2 * neg * m).sum()
    npos = pos.sum().clamp(min=1.0)
    centre = pos.amax(1)
    l1 = (out[:, 2:] - targets[:, 2:]).abs() * centre[:, None]
    return (lp + ln) / npos + l1.sum() / npos


def teacher_loss(out, teacher_out, targets, mask):
    """How far a student's maps are from a teacher's (distillation): cross-entropy of its two
    heats against the teacher's, and L1 on size and offset where the teacher sees a centre.
    The reader's rules were tuned on det17's heats (sessions 34-47: detectors trained anew from
    the truth read worse), so a cheaper detector is taught det17's maps, not the truth alone.
    Normalised as loss_fn is, by the true centres."""
    import torch

    m = mask[:, None]
    soft = torch.sigmoid(teacher_out[:, :2])
    heat = torch.nn.functional.binary_cross_entropy_with_logits(out[:, :2], soft, reduction="none")
    entropy = torch.nn.functional.binary_cross_entropy_with_logits(
        teacher_out[:, :2], soft, reduction="none"
    )
    npos = (targets[:, :2] >= 1.0).float().sum().clamp(min=1.0)
    where = soft.amax(1, keepdim=True) * m
    l1 = (out[:, 2:] - teacher_out[:, 2:]).abs() * where
    return ((heat - entropy) * m).sum() / npos + l1.sum() / npos


def from_onnx(path) -> object:
    """build_model()'s network with an exported detector's weights, to train further.

    The export folds each batch norm into its convolution: the network comes back with biased
    convolutions and no batch norm, so a fine-tune starts from exactly what the product reads."""
    import torch.nn as nn

    from .network import exported_graph, exported_weights

    graph = exported_graph(path)
    weight = exported_weights(graph)
    convs = [n for n in graph.node if n.op_type == "Conv"]
    if len(convs) < 7:
        raise ValueError(f"{path}: expected a detector of 10 convolutions, found {len(convs)}")
    widths = [len(weight(convs[i].input[1])) for i in (0, 2, 4, 6)]  # (a slimmed one is narrower)
    model = build_model(channels=tuple(widths))
    blocks = [m for m in model.modules() if isinstance(m, nn.Sequential) and len(m) == 3]
    blocks = [b for b in blocks if isinstance(b[1], nn.BatchNorm2d)]
    if len(convs) != len(blocks) + 1 or any(len(n.input) < 3 for n in convs):
        raise ValueError(f"{path}: expected {len(blocks) + 1} convolutions, found {len(convs)}")
    weights = [(weight(n.input[1]), weight(n.input[2])) for n in convs]
    for block, (w, b) in zip(blocks, weights[:-1], strict=True):
        old = block[0]
        if tuple(old.weight.shape) != w.shape:
            raise ValueError(
                f"{path}: a convolution of shape {w.shape}, expected {old.weight.shape}"
            )
        conv = nn.Conv2d(
            old.in_channels, old.out_channels, 3, old.stride, old.padding, old.dilation
        )
        conv.weight.data, conv.bias.data = w, b
        block[0], block[1] = conv, nn.Identity()
    model.head.weight.data, model.head.bias.data = weights[-1]
    return model


def _start(data: Patches, init, width: float, slim: float | None, seed: int):
    """The network training starts from: built anew, or `init`'s, slimmed on a sample of the
    patches (detect_slim.py)."""
    if not init:
        return build_model(width)
    model = from_onnx(init)
    if slim is None:
        return model
    rng = np.random.default_rng([seed, 43])
    idx = np.sort(rng.choice(len(data.images), min(SAMPLE, len(data.images)), replace=False))
    x = (data.images[idx].astype(np.float32) - MEAN) * SCALE
    return slimmed_detector(model, slim, x.transpose(0, 3, 1, 2))


def train(
    data: Patches,
    epochs: int,
    seed: int,
    log=print,
    cocked_weight: float = COCKED_WEIGHT,
    init=None,
    max_lr: float = 3e-3,
    width: float = 1.0,
    teacher=None,
    teacher_share: float = 0.0,
    slim: float | None = None,
):
    """A new detector, or the exported one at `init` trained further (first slimmed to `slim`
    of its channels, if given); with `teacher` (an exported detector), its loss is
    `teacher_share` of teacher_loss and the rest loss_fn."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    torch.use_deterministic_algorithms(True)
    model = _start(data, init, width, slim, seed)
    guide = from_onnx(teacher).eval() if teacher else None
    opt = torch.optim.AdamW(model.parameters(), lr=max_lr, weight_decay=1e-4)
    batch = 32
    steps = epochs * (len(data.images) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    rng = np.random.default_rng([seed, 41])
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(data.images))
        total, t0 = 0.0, time.time()
        for k in range(len(order) // batch):
            idx = np.sort(order[k * batch : (k + 1) * batch])
            x, t, m = augment(data.images[idx], data.targets[idx], data.mask[idx], rng)
            xt = torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))
            out = model(xt)
            t, m = torch.from_numpy(t), torch.from_numpy(m)
            loss = loss_fn(out, t, m, cocked_weight)
            if guide is not None:
                with torch.no_grad():
                    taught = guide(xt)
                loss = (1 - teacher_share) * loss + teacher_share * teacher_loss(out, taught, t, m)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        log(
            f"epoch {epoch + 1}/{epochs}: loss {total / max(1, k + 1):.4f} ({time.time() - t0:.0f} s)"
        )
    return model.eval()


def export(model, out_dir: Path, figures: dict) -> None:
    import torch

    out_dir.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        torch.zeros(1, 3, PATCH, PATCH),
        str(out_dir / ONNX_NAME),
        opset_version=OPSET,
        input_names=["image"],
        output_names=["maps"],
        dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}},
        dynamo=False,
    )
    meta = {
        "stride": STRIDE,
        "multiple": 16,
        "mean": MEAN,
        "scale": SCALE,
        "size_ref": SIZE_REF,
        "die_px_range": list(DIE_PX_RANGE),
        "heads": ["flat", "cocked", "log_size", "dx", "dy"],
        **figures,
    }
    (out_dir / META_NAME).write_text(json.dumps(meta, indent=1) + "\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="train the dice detector (vision/learned)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--scenes", type=int, default=700, help="synthetic photos per kind")
    p.add_argument("--sim-tables", type=int, default=30, help="simulated tables per kind (x 8)")
    p.add_argument("--per-frame", type=int, default=3, help="patches per frame")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--cache", type=Path, help="keep the generated patches in this .npz")
    add_scenes_option(p)
    p.add_argument(
        "--photoreal-per-frame", type=int, default=9, help="patches per rendered scene (few)"
    )
    p.add_argument(
        "--cocked-weight",
        type=float,
        default=COCKED_WEIGHT,
        help="the focal loss's weight on cocked centres (5: det18, not kept)",
    )
    p.add_argument(
        "--tilted", type=float, default=0.0, help="share of the synthetic photos drawn oblique"
    )
    p.add_argument("--init", type=Path, help="an exported detector to train further")
    p.add_argument("--max-lr", type=float, default=3e-3, help="the one-cycle schedule's peak")
    p.add_argument("--width", type=float, default=1.0, help="every layer's channels scaled")
    p.add_argument(
        "--slim", type=float, help="with --init: keep this share of each layer's channels"
    )
    p.add_argument("--teacher", type=Path, help="an exported detector whose maps are taught")
    p.add_argument(
        "--teacher-share", type=float, default=0.8, help="the teacher's share of the loss"
    )
    p.add_argument("--out", type=Path, default=MODELS)
    args = p.parse_args(argv)
    if not 0.0 < args.width <= 2.0 or (args.init and args.width != 1.0):
        p.error(f"--width: expected a scale in (0, 2] and no --init, got {args.width}")
    if args.slim is not None and (not args.init or not 0.0 < args.slim <= 1.0):
        p.error(
            f"--slim: expected a share in (0, 1] of an --init detector's channels, got {args.slim}"
        )
    if not 0.0 <= args.teacher_share <= 1.0:
        p.error(f"--teacher-share: expected a share in [0, 1], got {args.teacher_share}")
    if args.teacher and not args.teacher.is_file():
        p.error(f"--teacher: expected an exported detector (ONNX), {args.teacher} is not a file")
    t0 = time.time()
    if args.cache and args.cache.exists():
        z = np.load(args.cache)
        data = Patches(z["images"], z["targets"], z["mask"])
    else:
        data = make_data(
            args.seed, args.scenes, args.sim_tables, args.per_frame, tilted=args.tilted
        )
        if args.cache:
            np.savez(args.cache, images=data.images, targets=data.targets, mask=data.mask)
    rendered = photoreal_patches(args.photoreal, args.seed, args.photoreal_per_frame)
    if rendered is not None:
        print(f"{len(rendered.images)} patches of rendered scenes", flush=True)
        data = joined([data, rendered])
    print(f"{len(data.images)} patches ({time.time() - t0:.0f} s)", flush=True)
    model = train(
        data,
        args.epochs,
        args.seed,
        lambda s: print(s, flush=True),
        args.cocked_weight,
        args.init,
        args.max_lr,
        args.width,
        args.teacher,
        args.teacher_share,
        args.slim,
    )
    figures = {"seed": args.seed, "patches": int(len(data.images))}
    for name in ("tilted", "init", "max_lr", "width", "teacher", "slim"):
        if getattr(args, name) != p.get_default(name):
            path = name in ("init", "teacher")
            figures[name] = str(getattr(args, name)) if path else getattr(args, name)
    if args.teacher:
        figures["teacher_share"] = args.teacher_share
    if args.cocked_weight != COCKED_WEIGHT:
        figures["cocked_weight"] = args.cocked_weight
    if args.photoreal:
        figures |= {
            "photoreal": rendered_scenes(args.photoreal),
            "photoreal_per_frame": args.photoreal_per_frame,
        }
    export(model, args.out, figures)
    print(f"wrote {args.out / ONNX_NAME} ({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
