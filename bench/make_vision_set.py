"""Write the synthetic vision benchmark set: images + ground truth JSON, and time the generator.

    .venv/bin/python bench/make_vision_set.py --out var/vision-set [--n 200] [--seed 0]
        [--kinds pips,strike,detrak] [--time-only]

Layout: OUT/<kind>/<kind>-0000.png (or .jpg when the scene was JPEG-compressed: the very file the
generator produced) and OUT/<kind>/<kind>-0000.json = {"image": name, "dice": [...],
"arena": {...} | null, "conditions": {...}}; OUT/index.json lists them. The set is
`vision.synth.scene.benchmark_set(kind, n, seed)`: the same arguments give the same files.
Prints the time per scene (wall and CPU, single thread) overall and for 1280x960 frames.
OUT should be git-ignored (var/ or /tmp).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.synth.scene import KINDS, benchmark_set  # noqa: E402


def _write(scene, folder: Path, stem: str) -> str:
    if scene.jpeg is not None:
        name = f"{stem}.jpg"
        (folder / name).write_bytes(scene.jpeg)
    else:
        name = f"{stem}.png"
        cv2.imwrite(str(folder / name), scene.image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    truth = {"image": name, **scene.truth_json()}
    (folder / f"{stem}.json").write_text(json.dumps(truth, ensure_ascii=False) + "\n")
    return name


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, help="output folder (git-ignored)")
    p.add_argument("--time-only", action="store_true", help="render and time, write nothing")
    p.add_argument("--n", type=int, default=200, help="scenes per kind (default 200)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--kinds", default=",".join(KINDS), help="comma-separated: pips,strike,detrak")
    args = p.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    bad = [k for k in kinds if k not in KINDS]
    if bad or args.n < 1:
        p.error(f"--kinds: expected some of {', '.join(KINDS)}; --n: at least 1")
    if args.out is None and not args.time_only:
        p.error("--out DIR is required (or --time-only)")
    cv2.setNumThreads(1)
    index, timings = [], []
    for kind in kinds:
        folder = None if args.time_only else args.out / kind
        if folder:
            folder.mkdir(parents=True, exist_ok=True)
        scenes = benchmark_set(kind, args.n, args.seed)
        for i in range(args.n):
            wall, cpu = time.perf_counter(), time.process_time()
            scene = next(scenes)
            timings.append(
                (scene.conditions["frame"], time.perf_counter() - wall, time.process_time() - cpu)
            )
            if folder is None:
                continue
            name = _write(scene, folder, f"{kind}-{i:04d}")
            index.append(
                {
                    "kind": kind,
                    "image": f"{kind}/{name}",
                    "truth": f"{kind}/{kind}-{i:04d}.json",
                    "dice": len(scene.dice),
                }
            )
    if not args.time_only:
        (args.out / "index.json").write_text(
            json.dumps({"seed": args.seed, "n": args.n, "scenes": index}, indent=1) + "\n"
        )
    _report(timings, len(index))
    return 0


def _report(timings, count: int) -> None:
    def line(label, rows):
        if not rows:
            return
        wall = sum(r[1] for r in rows) / len(rows) * 1000
        cpu = sum(r[2] for r in rows) / len(rows) * 1000
        print(f"{label}: {len(rows)} scenes, {wall:.0f} ms wall, {cpu:.0f} ms CPU per scene")

    print(f"rendered {len(timings)} scenes, wrote {count}")
    line("all frames", timings)
    line("1280x960", [r for r in timings if tuple(r[0]) == (1280, 960)])
    line("4032x3024", [r for r in timings if tuple(r[0]) == (4032, 3024)])


if __name__ == "__main__":
    raise SystemExit(main())
