"""Benchmark of the reader on Blender-rendered scenes (vision/photoreal; not a test: run it,
read it). Render a set first (a few minutes a kind):

    .venv/bin/python -m vision.photoreal.render --kind pips --n 40 --out /tmp/photoreal
    .venv/bin/python bench/bench_photoreal.py /tmp/photoreal [--failures DIR]

Scored as bench/bench_vision.py scores its synthetic scenes (the same Tally: face F1 over flat
dice, cocked dice flagged, faces at confidence >= 0.9 right), after dropping what the reader
says about dice the truth leaves out (cut by the frame, tipped 5-15°, under another die).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_vision import add_json_option  # noqa: E402
from scoring import Tally  # noqa: E402

from vision import draw_overlay, read  # noqa: E402
from vision.photoreal.truth import read_scene, scene_paths  # noqa: E402
from vision.readings import Readings  # noqa: E402
from vision.synth.scene import TruthDie  # noqa: E402


def load(path: Path):
    """A scene (image, scored truth, conditions) and the dice left out of the score."""
    record, image = read_scene(path)
    dice = [
        TruthDie(
            d["face"], d["x"], d["y"], d["size"], d["in_arena"], d["cocked"], tip=d.get("tip", 0.0)
        )
        for d in record["dice"]
    ]
    scene = SimpleNamespace(image=image, dice=dice, conditions=record["conditions"])
    return record["kind"], scene, record["left"]


def without_left_out(readings: Readings, left: list[dict]) -> Readings:
    """The readings minus those on a die the truth leaves out (within 0.6 of its side)."""
    keep = [
        d
        for d in readings.dice
        if not any(math.hypot(d.x - e["x"], d.y - e["y"]) < 0.6 * e["size"] for e in left)
    ]
    return replace(readings, dice=tuple(keep))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dirs", nargs="+", type=Path, help="directories of rendered scenes")
    p.add_argument("--failures", type=Path, default=None, help="overlays of scenes with an error")
    add_json_option(p)
    args = p.parse_args()
    cv2.setNumThreads(1)
    tallies: dict[str, Tally] = {}
    left_out = 0
    for path in scene_paths(args.dirs):
        kind, scene, left = load(path)
        left_out += len(left)
        arena = "auto" if scene.conditions.get("arena") else "none"
        readings = without_left_out(read(scene.image, kind, None, arena), left)
        tally = tallies.setdefault(kind, Tally())
        if tally.scene(scene, readings) and args.failures:
            args.failures.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(
                str(args.failures / path.with_suffix(".png").name),
                draw_overlay(scene.image, readings),
            )
    for kind, tally in tallies.items():
        tally.report(kind)
    print(f"dice left out of the score (cut by the frame, tipped 5-15°, covered): {left_out}")
    if args.json:
        counts = {kind: dict(tally.c) for kind, tally in tallies.items()}
        each = {kind: tally.each for kind, tally in tallies.items()}
        kept = {"kinds": counts, "scenes": each, "left_out": left_out}
        args.json.write_text(json.dumps(kept) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
