"""The table's reads about the point below its camera that it learned, against about the frame's
centre (a tool, not a test: run it, read it).

    .venv/bin/python bench/bench_camera_point.py --kind pips --seeds 254,255 [--frames 5] \\
        [--max-tilt 10] [--json OUT]
    .venv/bin/python bench/bench_camera_point.py --kind pips --cost   # ms a settled throw
    .venv/bin/python bench/bench_camera_point.py --kind strike --seeds 236,237 --any-kind
                                                  # a kind that does not learn it, as if it did

The table's camera is mounted within 10 degrees of vertical and does not move between throws, so
vision/camera_point.py learns its point below from the throws the watcher settles on. Each scene
of the benchmark seeds tilted `--max-tilt` degrees or less stands for one such camera: `--frames`
other scenes with the same camera (frame, focal length, dice size, tilt; other dice, table and
light) are read as the watcher reads them, the point learned so far given to each, and teach it;
the scene is then read knowing its dice's size about that point and about the centre (the
reading before session 72). Printed: the errors (the face F1's fp + fn), cocked dice flagged,
faces at 0.9 or more wrong, cocked dice read so, for both; how far the learned point lies from
the truth, in frame lengths; and the errors by tilt (0-5 and 5-10 degrees). Session 72's rule
221 was gated with it (docs/vision-history.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_vision import SPEED_FRAMES, speed_frames, tilted_within, watcher_hint  # noqa: E402
from scoring import Tally  # noqa: E402

from vision import camera_point, read  # noqa: E402
from vision.camera_point import CameraPoint  # noqa: E402
from vision.synth.scene import benchmark_set, render_scene  # noqa: E402

CAMERA = ("frame", "focal", "die_size", "tilt", "tilt_azimuth", "distortion")  # one camera's
WAYS = ("centre", "learned")
KEPT = ("fp", "fn", "cocked", "cocked_flagged", "sure_total", "sure_right", "cocked_unasked")


def learned_point(scene, kind: str, frames: int, rng_key: list[int]):
    """The point CameraPoint learns from `frames` other scenes taken by `scene`'s camera, each
    read as the watcher reads (its dice's size known, the point learned so far given)."""
    camera = {k: scene.conditions[k] for k in CAMERA}
    learner = CameraPoint(kind)
    for k in range(frames):
        other = render_scene(kind, np.random.default_rng([*rng_key, k]), **camera)
        h, w = other.image.shape[:2]
        hint = replace(watcher_hint(other), below=learner.at((w, h)))
        learner.learn(other.image, read(other.image, kind, hint, "none"))
    h, w = scene.image.shape[:2]
    return learner.at((w, h))


def _apart(point, to, scene) -> float | None:
    """How far `point` lies from `to`, in the scene's frame lengths (None for no point)."""
    if point is None:
        return None
    h, w = scene.image.shape[:2]
    return float(np.hypot(point[0] - to[0], point[1] - to[1]) / max(w, h))


def point_error(point, scene) -> float | None:
    """How far `point` lies from the scene's true point below, in frame lengths."""
    return _apart(point, scene.below, scene)


def off_centre(point, scene) -> float | None:
    """How far `point` lies from the frame's centre, in frame lengths."""
    h, w = scene.image.shape[:2]
    return _apart(point, ((w - 1) / 2, (h - 1) / 2), scene)


def _errors(c) -> int:
    return c.get("fp", 0) + c.get("fn", 0)


def _sure_wrong(c) -> int:
    return c.get("sure_total", 0) - c.get("sure_right", 0)


def run(kind: str, seeds: list[int], frames: int, max_tilt: float, n: int) -> dict:
    tallies = {way: Tally() for way in WAYS}
    rows = []
    for seed in seeds:
        for i, scene in enumerate(benchmark_set(kind, n, seed)):
            if not tilted_within(scene, max_tilt):
                continue
            point = learned_point(scene, kind, frames, [seed, i, 7])
            row = {"seed": seed, "scene": i, "tilt": scene.conditions["tilt"]}
            row["point_error"] = point_error(point, scene)
            row["point_off_centre"] = off_centre(point, scene)
            for way, below in zip(WAYS, (None, point), strict=True):
                t = tallies[way]
                before = dict(t.c)
                hint = replace(watcher_hint(scene), below=below)
                t.scene(scene, read(scene.image, kind, hint, "auto"))
                row[way] = _errors(t.c) - _errors(before)
                row[f"{way} cocked flagged"] = t.c["cocked_flagged"] - before.get(
                    "cocked_flagged", 0
                )
                row[f"{way} sure wrong"] = _sure_wrong(t.c) - _sure_wrong(before)
            rows.append(row)
    return {"counts": {w: {k: t.c[k] for k in KEPT} for w, t in tallies.items()}, "rows": rows}


def report(kind: str, got: dict) -> list[str]:
    lines = []
    for way, c in got["counts"].items():
        lines.append(
            f"{kind} {way}: errors {c['fp'] + c['fn']}, cocked {c['cocked_flagged']} / {c['cocked']},"
            f" sure faces wrong {c['sure_total'] - c['sure_right']} of {c['sure_total']},"
            f" cocked read as sure faces {c['cocked_unasked']}"
        )
    rows = got["rows"]
    missed = [r["point_error"] for r in rows if r["point_error"] is not None]
    if missed:
        lines.append(
            f"   a point learned for {len(missed)} of {len(rows)} cameras, off the truth by"
            f" {np.median(missed):.3f} frame lengths (median), {np.percentile(missed, 90):.3f}"
            " (90th percentile)"
        )
    for lo, hi in ((0.0, 5.0), (5.0, 10.0)):
        band = [r for r in rows if lo <= r["tilt"] < hi or (hi == 10.0 and r["tilt"] == hi)]
        each = ", ".join(f"{w} {sum(r[w] for r in band)}" for w in WAYS)
        lines.append(f"   tilted {lo:.0f}-{hi:.0f} degrees: {len(band)} scenes, errors {each}")
    return lines


def learning_cost(kind: str) -> list[float]:
    """ms CameraPoint.learn takes on each speed frame's reading (20 dice, one thread): what a
    settled throw costs the watcher once, on top of its readings."""
    frames = speed_frames(kind, SPEED_FRAMES)
    readings = [read(f, kind) for f in frames]
    CameraPoint(kind).learn(frames[0], readings[0])  # (loads the axis network)
    learner, spent = CameraPoint(kind), []
    for frame, r in zip(frames, readings, strict=True):
        t = time.perf_counter()
        learner.learn(frame, r)
        spent.append((time.perf_counter() - t) * 1000)
    return spent


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kind", required=True, choices=("pips", "strike", "detrak"))
    p.add_argument("--seeds", default="", help="comma-separated benchmark seeds")
    p.add_argument("--cost", action="store_true", help="time the learning instead")
    p.add_argument(
        "--any-kind",
        action="store_true",
        help="learn the point for this kind too (camera_point.KINDS is pips' alone since session 72)",
    )
    p.add_argument("--frames", type=int, default=5, help="frames the point is learned from")
    p.add_argument("--max-tilt", type=float, default=10.0, metavar="DEG")
    p.add_argument("--n", type=int, default=150, help="scenes a seed (default 150)")
    p.add_argument("--json", type=Path, default=None, help="keep the counts and rows here")
    a = p.parse_args()
    cv2.setNumThreads(1)
    if a.any_kind:
        camera_point.KINDS = (*camera_point.KINDS, a.kind)
    if a.cost:
        spent = learning_cost(a.kind)
        print(
            f"{a.kind}: learning a settled throw of 20 dice {np.median(spent):.1f} ms (median),"
            f" {max(spent):.1f} at most, over {len(spent)} frames"
        )
        return 0
    try:
        seeds = [int(s) for s in a.seeds.split(",")]
    except ValueError:  # ("" too: seeds are needed unless --cost)
        p.error(f"--seeds: expected seeds separated by commas, got {a.seeds!r}")
    got = run(a.kind, seeds, a.frames, a.max_tilt, a.n)
    print("\n".join(report(a.kind, got)))
    if a.json:
        a.json.write_text(json.dumps(got) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
