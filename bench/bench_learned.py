"""Benchmark of the learned face classifier (vision.learned) on freshly generated held-out crops.

    .venv/bin/python bench/bench_learned.py                    # 60 scenes per kind, seed 77
    .venv/bin/python bench/bench_learned.py --scenes 150 --json var/bench-learned.json

Held-out crops: synthetic photos walking the benchmark's cycle of conditions (every frame size,
die size band, tilt band, colour, background, blur, noise, JPEG and lens value; vision.synth
benchmark_conditions) with a seed the training never used, plus still frames of the simulated
table. Crops are jittered as an imperfect detector would give them (centre +-12 %, size -13..+18 %,
any rotation); `--exact` crops on the truth instead. Prints accuracy per kind and per condition
group, the confidence's reliability (share of crops at >= 0.9 and their accuracy), the time of a
batch (one thread, cv2.setNumThreads(1)) and the model's size.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.learned import runtime  # noqa: E402
from vision.learned.classes import CLASSES, COCKED, KINDS, NONE  # noqa: E402
from vision.learned.data import CropSet, synth_crops  # noqa: E402
from vision.learned.sim_data import sim_crops  # noqa: E402

SIZE_BANDS = ((18, 24), (24, 36), (36, 60), (60, 100), (100, 151))


def size_band(size: float) -> str:
    for lo, hi in SIZE_BANDS:
        if size < hi:
            return f"{lo}-{hi if hi != 151 else 150}"
    return "150+"


def held_out(kind: str, scenes: int, sim_tables: int, seed: int, exact: bool) -> CropSet:
    data = synth_crops(kind, scenes, seed, benchmark=True, jitter=not exact)
    data.extend(sim_crops(kind, sim_tables, 8, seed + 1, jitter=not exact))
    return data


def score(data: CropSet, kind: str) -> dict:
    images, labels = data.arrays()
    probs = runtime.probabilities(list(images), kind)
    from vision.learned.classes import kind_classes

    names = kind_classes(kind)
    pred = [names[i] for i in probs.argmax(1)]
    truth = [CLASSES[i] for i in labels]
    conf = probs.max(1)
    right = np.array([p == t for p, t in zip(pred, truth, strict=True)])
    groups: dict[str, list[int]] = defaultdict(list)
    for i, t in enumerate(data.tags):
        groups["all"].append(i)
        groups[f"source={t['source']}"].append(i)
        groups[f"crop={t['group']}"].append(i)
        if t["group"] == "face":
            groups[f"size={size_band(t['size'])}"].append(i)
        for key in ("blur", "tilt", "jpeg", "noise", "die_colour", "background", "glare"):
            if key in t and t["group"] == "face":
                groups[f"{key}={t[key]}"].append(i)
    table = {}
    for g, idx in groups.items():
        idx = np.array(idx)
        sure = conf[idx] >= 0.9
        table[g] = {
            "n": int(len(idx)),
            "accuracy": round(float(right[idx].mean()), 4),
            "share_at_0.9": round(float(sure.mean()), 4),
            "accuracy_at_0.9": round(float(right[idx][sure].mean()), 4) if sure.any() else None,
        }
    faces = np.array([t not in (NONE, COCKED) for t in truth])
    table["faces_called_none"] = round(
        float(np.mean([p == NONE for p, f in zip(pred, faces, strict=True) if f])), 4
    )
    return table


def timing(crops: list[np.ndarray], kind: str, batch: int, repeats: int) -> dict:
    cv2.setNumThreads(1)
    runtime.classify_faces(crops[:batch], kind)  # load and warm up
    t = time.perf_counter()
    for r in range(repeats):
        s = (r * batch) % max(1, len(crops) - batch)
        runtime.classify_faces(crops[s : s + batch], kind)
    ms = (time.perf_counter() - t) * 1000 / repeats
    return {"batch": batch, "ms_per_batch": round(ms, 2), "ms_per_crop": round(ms / batch, 3)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--scenes", type=int, default=60, help="synthetic scenes per kind")
    p.add_argument("--sim-tables", type=int, default=4, help="simulated tables per kind")
    p.add_argument("--seed", type=int, default=77)
    p.add_argument("--exact", action="store_true", help="crops exactly on the truth (no jitter)")
    p.add_argument("--json", type=Path, help="also write the figures there")
    a = p.parse_args(argv)
    missing = [
        str(path) for k in KINDS if not runtime.available(k) for path in runtime.onnx_paths(k)
    ]
    if missing:
        print(
            f"no model at {', '.join(missing)}: run python -m vision.learned.train", file=sys.stderr
        )
        return 1
    report: dict = {"kinds": {}}
    for kind in KINDS:
        for path in runtime.onnx_paths(kind):
            print(f"{kind}: model {path.name}, {path.stat().st_size / 1024:.0f} KiB")
    for kind in KINDS:
        t = time.time()
        data = held_out(kind, a.scenes, a.sim_tables, a.seed, a.exact)
        table = score(data, kind)
        images, _ = data.arrays()
        table["models"] = list(runtime.models_for(kind))
        table["timing"] = [timing(list(images), kind, b, 30) for b in (1, 8, 32)]
        report["kinds"][kind] = table
        print(f"\n{kind}: {len(data)} held-out crops ({time.time() - t:.0f} s)")
        for g, row in sorted(table.items(), key=lambda kv: (kv[0] != "all", kv[0])):
            if isinstance(row, dict):
                print(
                    f"  {g:24s} n={row['n']:5d}  acc {row['accuracy']:.4f}  "
                    f">=0.9: {row['share_at_0.9']:.3f} of crops, acc {row['accuracy_at_0.9']}"
                )
        print(f"  faces called none: {table['faces_called_none']}")
        for tm in table["timing"]:
            print(
                f"  batch {tm['batch']:3d}: {tm['ms_per_batch']} ms ({tm['ms_per_crop']} ms/crop)"
            )
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
