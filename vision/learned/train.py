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

import json
import time
from pathlib import Path

import numpy as np

from vision.photoreal.truth import rendered_scenes

from .classes import CLASSES, KINDS
from .crops import CHANNELS, CROP_FACTOR, INPUT, to_input
from .data import FOCUS, CropSet, class_counts
from .distill import agreement, route_targets
from .doubt import only_doubted
from .half import halve
from .network import build_model, from_onnx
from .photoreal_crops import photoreal_crops
from .slim import SAMPLE, slimmed
from .temperature import fit_temperature
from .train_options import options
from .training_loop import logits_of, train
from .trainset import cached, inputs, make_data

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


def calibration_crops(a, hard: bool, log) -> CropSet:
    """The crops a temperature is fitted on, generated apart (seed + 500). Not with
    --cocked-ends: the reader meets cocked dice as often as the benchmark draws them, and a
    temperature fitted on more of them would promise what it does not keep. Also what
    bench/calibration_figures.py reads networks on, so that a kept network's figures are these."""
    log("calibration crops")
    return make_data(
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


def calibrate(logits_fn, a, hard: bool, log) -> tuple[dict, dict]:
    """A temperature per kind, fitted on the calibration crops the network will be shown."""
    calib = calibration_crops(a, hard, log)
    calib = only_doubted(calib, a.doubted_by, a.doubt_below, log)
    c_images, c_labels = calib.arrays()
    c_logits = logits_fn(to_input(list(c_images)))
    temps, stats = {}, {}
    masks = kind_masks(calib.tags)
    for kind in a.kinds:  # no temperature for another kind: the network will not read it
        mask = masks[kind]
        temps[kind], stats[kind] = fit_temperature(c_logits[mask], c_labels[mask], kind)
        log(f"  {kind}: {stats[kind]}")
    return temps, stats


def onnx_logits(path: Path):
    """The logits of an exported network run by cv2.dnn, as the product runs it (read_onnx: its
    engine, and float16 weights widened where the OpenCV cannot read them), batch by batch."""
    from .onnx_net import read_onnx

    net = read_onnx(Path(path))

    def logits_fn(blob):
        out = []
        for s in range(0, len(blob), 256):
            net.setInput(blob[s : s + 256])
            out.append(np.asarray(net.forward(), np.float32).reshape(-1, len(CLASSES)))
        return np.concatenate(out)

    return logits_fn


def recalibrate(a, hard: bool) -> int:
    """The temperatures of the exported network fitted again (the network run by cv2.dnn, as
    the product runs it), written into its faces.json: for a change of the fitting rule that
    needs no new training."""
    start = time.time()

    def log(msg):
        print(f"[{time.time() - start:6.0f} s] {msg}", flush=True)

    temps, stats = calibrate(onnx_logits(a.out / f"{a.name}.onnx"), a, hard, log)
    meta = json.loads((a.out / f"{a.name}.json").read_text())
    meta.update(temperatures=temps, calibration=stats)
    (a.out / f"{a.name}.json").write_text(json.dumps(meta, indent=1) + "\n")
    log(f"wrote the temperatures into {a.out}/{a.name}.json")
    return 0


def _route_stems(kinds) -> dict[str, list[str]]:
    from .runtime import models_for

    return {k: list(models_for(k)) for k in kinds}


def main(argv=None) -> int:
    a, hard = options(argv, __doc__)
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
            a.photoreal,
            a.seed,
            a.per_die * w,
            a.cocked_crops * w,
            hard,
            a.wide_jitter,
            a.photoreal_turn,
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
            "photoreal_turn": a.photoreal_turn,
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
