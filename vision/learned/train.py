"""Train the face classifier from generated crops and export it to ONNX (needs torch: the `train`
extra; the product itself never imports this module).

    .venv/bin/python -m vision.learned.train                 # writes vision/learned/models/
    .venv/bin/python -m vision.learned.train --scenes 60 --epochs 2 --out /tmp/m   # a quick try

Same seed, same data, same weights (CPU, 2 threads, deterministic algorithms). The steps: generate
training crops (synthetic photos + the simulated table, all three kinds), train one small CNN
over all 14 classes, fit a temperature per kind on separately generated calibration crops (the
softmax over the kind's faces plus "none"), export the network (logits) to ONNX and write
faces.json (classes, input size, crop factor, temperatures, figures).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from vision.photoreal.truth import add_scenes_option, rendered_scenes

from .classes import CLASSES, KINDS
from .crops import CHANNELS, CROP_FACTOR, INPUT, to_input
from .data import FOCUS, CropSet, class_counts
from .distill import agreement, route_targets
from .doubt import only_doubted, problem
from .half import halve
from .network import build_model, from_onnx
from .photoreal_crops import photoreal_crops
from .slim import SAMPLE, slimmed
from .temperature import fit_temperature
from .training_loop import logits_of, train
from .trainset import cached, inputs, make_data

MODELS = Path(__file__).parent / "models"
NAME = "faces"  # the files written: <name>.onnx and <name>.json
OPSET = 13
DATA_SEED_STEP = 1000  # the seeds of further training sets (--data-sets)


def kind_masks(tags) -> dict[str, np.ndarray]:
    kinds = np.array([t["kind"] for t in tags])
    return {k: kinds == k for k in KINDS}


def export(model, path: Path) -> None:
    import torch

    dummy = torch.zeros(1, CHANNELS, INPUT, INPUT)
    torch.onnx.export(
        model,
        dummy,
        str(path),
        opset_version=OPSET,
        dynamo=False,
        input_names=["crops"],
        output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
    )
    halve(path)  # stored as float16 (half.py): room for a fourth classifier in 5 MB


def calibrate(logits_fn, a, hard: bool, log) -> tuple[dict, dict]:
    """A temperature per kind, fitted on separately generated crops (seed + 500)."""
    log("calibration crops")
    calib = make_data(
        a.seed + 500,
        a.calib_scenes,
        max(2, a.sim_tables // 3),
        1,
        log,
        1,
        hard,
        kinds=a.kinds,
        wide=a.wide_jitter,
        cocked_upper=a.cocked_upper,
        turn_below=a.turn_below,
    )
    calib = only_doubted(calib, a.doubted_by, a.doubt_below, log)  # what it will be shown
    c_images, c_labels = calib.arrays()
    c_logits = logits_fn(to_input(list(c_images)))
    temps, stats = {}, {}
    masks = kind_masks(calib.tags)
    for kind in a.kinds:  # no temperature for another kind: the network will not read it
        mask = masks[kind]
        temps[kind], stats[kind] = fit_temperature(c_logits[mask], c_labels[mask], kind)
        log(f"  {kind}: {stats[kind]}")
    return temps, stats


def recalibrate(a, hard: bool) -> int:
    """The temperatures of the exported network fitted again (the network run by cv2.dnn, as
    the product runs it), written into its faces.json: for a change of the fitting rule that
    needs no new training."""
    import cv2

    start = time.time()

    def log(msg):
        print(f"[{time.time() - start:6.0f} s] {msg}", flush=True)

    net = cv2.dnn.readNetFromONNX(str(a.out / f"{a.name}.onnx"))

    def logits_fn(blob):
        out = []
        for s in range(0, len(blob), 256):
            net.setInput(blob[s : s + 256])
            out.append(np.asarray(net.forward(), np.float32).reshape(-1, len(CLASSES)))
        return np.concatenate(out)

    temps, stats = calibrate(logits_fn, a, hard, log)
    meta = json.loads((a.out / f"{a.name}.json").read_text())
    meta.update(temperatures=temps, calibration=stats)
    (a.out / f"{a.name}.json").write_text(json.dumps(meta, indent=1) + "\n")
    log(f"wrote the temperatures into {a.out}/{a.name}.json")
    return 0


def _route_stems(kinds) -> dict[str, list[str]]:
    from .runtime import models_for

    return {k: list(models_for(k)) for k in kinds}


def _stems(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in text.split(",") if s.strip())


def _share(text: str) -> float:
    try:
        share = float(text)
    except ValueError:
        share = -1.0
    if not 0.0 <= share <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a share between 0 and 1, got {text!r}")
    return share


def _kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        raise argparse.ArgumentTypeError(f"expected kinds among {', '.join(KINDS)}, got {text!r}")
    return kinds


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--scenes", type=int, default=500, help="synthetic scenes per kind")
    p.add_argument("--sim-tables", type=int, default=10, help="simulated tables per kind")
    p.add_argument("--per-die", type=int, default=2, help="jittered crops per die")
    p.add_argument("--cocked-crops", type=int, default=4, help="crops per cocked die")
    p.add_argument(
        "--wide-jitter",
        type=_share,
        default=0.0,
        help="share of the jittered crops cut off by data.WIDE_SHIFT (as the detector's finds on"
        " dice that touch), not data.JITTER_SHIFT; 0: the recipes before it",
    )
    p.add_argument(
        "--cocked-upper",
        type=_share,
        default=0.0,
        help="share of the synthetic cocked crops centred on the die's upmost face, where the"
        " detector finds a die tipped 25-35 degrees, not on its cube; 0: the recipes before it",
    )
    p.add_argument(
        "--turn-below",
        type=_share,
        default=0.0,
        help="share of the synthetic oblique photos whose crops are turned about the point below"
        " the camera, as the reader turns them (data.turn_point); 0: the recipes before it",
    )
    p.add_argument(
        "--cocked-ends",
        type=int,
        default=1,
        help="times as many crops of a synthetic cocked die tipped near 25 or 65 degrees"
        " (data.ENDS), the ones the reader misses most; 1: the recipes before it",
    )
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument(
        "--data-sets",
        type=int,
        default=1,
        help="training sets of that size, each from its own seed (seed, seed + 1000, ...)",
    )
    p.add_argument(
        "--focus-scenes", type=int, default=200, help="scenes per kind of each hard case (FOCUS)"
    )
    p.add_argument("--cache", type=Path, default=None, help="keep/reuse the training crops here")
    add_scenes_option(p)
    p.add_argument(
        "--photoreal-weight",
        type=int,
        default=4,
        help="jittered crops of a rendered die for each of a synthetic one (they are few)",
    )
    p.add_argument("--calib-scenes", type=int, default=60, help="calibration scenes per kind")
    p.add_argument(
        "--no-hard",
        action="store_true",
        help="leave out the crops where the detector (models/dice.onnx) finds dice",
    )
    p.add_argument(
        "--full-res-layers",
        type=int,
        default=2,
        help="3x3 layers before the first pooling (2: m14, committed; 1: m10, sessions 6-10)",
    )
    p.add_argument("--width", type=float, default=1.0, help="channels, times m14's (network.py)")
    p.add_argument(
        "--init",
        type=Path,
        default=None,
        help="an exported classifier (ONNX) to train further instead of a new network (its own"
        " layers: --full-res-layers and --width are not used); give it a lower --max-lr",
    )
    p.add_argument(
        "--slim",
        type=float,
        default=None,
        help="with --init: keep this share of each convolution's channels, the ones worth the most"
        " to the next layer on the training crops, then train (slim.py: a faster network)",
    )
    p.add_argument(
        "--slim-whole",
        type=int,
        default=0,
        help="with --slim: the first convolutions that keep all their channels (2: the"
        " full-resolution ones)",
    )
    p.add_argument("--max-lr", type=float, default=4e-3, help="the one-cycle schedule's peak")
    p.add_argument(
        "--doubted-by",
        type=_stems,
        default=(),
        help="comma-separated stems of networks in models/ ('first': each crop's kind's first"
        " network): learn only the crops one of them gives under --doubt-below (a route's"
        " second opinion: doubt.py)",
    )
    p.add_argument("--doubt-below", type=float, default=0.995)
    p.add_argument(
        "--teacher-share",
        type=_share,
        default=0.0,
        help="share of each crop's target given by the committed route's probabilities for its"
        " kind (models/classifiers.json; distill.py), the rest its label: a screen; 0: labels",
    )
    p.add_argument("--out", type=Path, default=MODELS)
    p.add_argument(
        "--name",
        default=NAME,
        help="file stem (models/classifiers.json routes pips to faces-photoreal first, Strike to"
        " faces-strike)",
    )
    p.add_argument(
        "--recalibrate",
        action="store_true",
        help="only fit the temperatures again, for the network already in --out (no torch)",
    )
    p.add_argument(
        "--kinds",
        type=_kinds,
        default=KINDS,
        help="comma-separated dice kinds the network learns (default all; one kind: a network"
        " for models/classifiers.json to route that kind to)",
    )
    a = p.parse_args(argv)
    if wrong := problem(a.doubted_by, a.doubt_below, a.width):
        p.error(wrong)
    if a.init is not None and not a.init.is_file():
        p.error(f"--init: expected an exported classifier (ONNX file), {a.init} is not a file")
    if a.slim is not None and (a.init is None or not 0.0 < a.slim <= 1.0):
        alone = "" if a.init else " without --init (the trained network to narrow)"
        p.error(
            f"--slim: expected a share in (0, 1] of an --init network's channels, got {a.slim}"
            + alone
        )
    if a.slim_whole < 0 or (a.slim_whole and a.slim is None):
        p.error(
            f"--slim-whole: expected a number of convolutions, 0 or more, with --slim; got"
            f" {a.slim_whole}" + ("" if a.slim is not None else " without --slim")
        )
    hard = not a.no_hard
    if hard:
        from .detector import available

        if not available():
            p.error("the detector (models/dice.onnx) is missing: train it first, or --no-hard")

    if a.recalibrate:
        return recalibrate(a, hard)

    import torch

    torch.set_num_threads(2)
    torch.manual_seed(a.seed)
    torch.use_deterministic_algorithms(True)
    start = time.time()

    def log(msg):
        print(f"[{time.time() - start:6.0f} s] {msg}", flush=True)

    log("training crops")
    data = CropSet()
    for j in range(a.data_sets):
        seed = a.seed + DATA_SEED_STEP * j
        path = a.cache if a.cache is None or j == 0 else a.cache.with_stem(f"{a.cache.stem}-{j}")
        data.extend(
            cached(
                path,
                lambda seed=seed: make_data(
                    seed,
                    a.scenes,
                    a.sim_tables,
                    a.per_die,
                    log,
                    a.cocked_crops,
                    hard,
                    a.focus_scenes,
                    a.kinds,
                    a.wide_jitter,
                    a.cocked_upper,
                    a.turn_below,
                    a.cocked_ends,
                ),
            )
        )
    if a.photoreal:
        w = a.photoreal_weight
        part = photoreal_crops(
            a.photoreal, a.seed, a.per_die * w, a.cocked_crops * w, hard, a.wide_jitter
        )
        log(f"  photoreal: {len(part)} crops {class_counts(part.labels)}")
        data.extend(part)
    if set(a.kinds) != set(KINDS):
        data = data.only(a.kinds)
    data = only_doubted(data, a.doubted_by, a.doubt_below, log)
    x, labels = inputs(data)
    log(f"{len(labels)} training crops {class_counts(labels)}")
    targets = None
    if a.teacher_share:
        kinds = [t["kind"] for t in data.tags]
        targets = route_targets(x, labels, kinds, a.teacher_share)
        agree = agreement(targets, labels, a.teacher_share)
        log(f"  the route reads {agree:.4f} of them as labelled")
    start_from = from_onnx(a.init) if a.init else build_model(a.full_res_layers, a.width)
    if a.slim is not None:
        sample = np.random.default_rng(a.seed).permutation(len(x))[:SAMPLE]
        start_from = slimmed(start_from, a.slim, x[np.sort(sample)], a.slim_whole)
    model = train(start_from, x, labels, data.tags, a.epochs, a.seed, log, a.max_lr, targets)

    temps, stats = calibrate(lambda crops: logits_of(model, crops), a, hard, log)
    a.out.mkdir(parents=True, exist_ok=True)
    export(model, a.out / f"{a.name}.onnx")
    meta = {
        "classes": [c if isinstance(c, str) else int(c) for c in CLASSES],
        "input": INPUT,
        "channels": CHANNELS,
        "crop_factor": CROP_FACTOR,
        "temperatures": temps,
        "calibration": stats,
        "training": {
            "seed": a.seed,
            "scenes_per_kind": a.scenes,
            "sim_tables_per_kind": a.sim_tables,
            "focus_scenes_per_kind": {name: a.focus_scenes for name in FOCUS},
            "data_sets": a.data_sets,
            "kinds": list(a.kinds),
            "full_res_layers": None if a.init else a.full_res_layers,  # --init: its parent's
            "width": None if a.init else a.width,
            "init": str(a.init) if a.init else None,
            "slim": a.slim,
            "slim_whole": a.slim_whole if a.slim is not None else None,
            "max_lr": a.max_lr,
            "doubted_by": list(a.doubted_by),
            "doubt_below": a.doubt_below if a.doubted_by else None,
            "teacher_share": a.teacher_share,
            "teacher": _route_stems(a.kinds) if a.teacher_share else None,
            "photoreal": rendered_scenes(a.photoreal),
            "photoreal_weight": a.photoreal_weight,
            "wide_jitter": a.wide_jitter,
            "cocked_upper": a.cocked_upper,
            "turn_below": a.turn_below,
            "cocked_ends": a.cocked_ends,
            "crops": int(len(labels)),
            "epochs": a.epochs,
            "hard_negatives": hard,
            "seconds": round(time.time() - start),
            "torch": torch.__version__,
            "opset": OPSET,
        },
    }
    (a.out / f"{a.name}.json").write_text(json.dumps(meta, indent=1) + "\n")
    size = (a.out / f"{a.name}.onnx").stat().st_size
    log(f"wrote {a.out}/{a.name}.onnx ({size} bytes) and {a.name}.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
