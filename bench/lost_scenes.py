"""The scenes a reading lost whole: where half its flat dice or more were not read (a tool for
deciding what to work on next, not a test: run it, read it).

    .venv/bin/python bench/lost_scenes.py COUNTS.json... [--kind detrak] [--share 0.5] [--least 5]

The counts are bench_vision.py's `--json` files (bench/compare_trees.py keeps one per tree and
seed in its --out directory). A table that reads nothing of a frame is the worst a player sees,
and such frames are few but heavy: over the unhinted seeds read in sessions 50-58, 19 Détrak
scenes of 5 550 held 171 of its 1 764 errors (session 59, docs/vision-history.md). Each scene is
listed with its conditions, drawn again from its seed (vision/synth/scene.py), so that the lost
scenes can be grouped by what they share; `vision_errors.py --seed S --scenes N` then says die
by die where each was lost. Files of moved or hinted readings are left out (their scenes are not
the seed's as drawn), and a seed met in several files is listed once.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CONDITIONS = ("frame", "die_size", "tilt", "background", "die_colour", "mark_colour")


def lost(scenes: list[dict], share: float = 0.5, least: int = 5) -> list[tuple[int, int, int]]:
    """(index, flat dice lost, flat dice) of each scene of `least` flat dice or more whose
    share lost (fn over tp + fn) is `share` or more."""
    out = []
    for i, s in enumerate(scenes):
        flat = s["tp"] + s["fn"]
        if flat >= least and s["fn"] >= share * flat:
            out.append((i, s["fn"], flat))
    return out


def readings(paths: list[Path], kind: str | None) -> dict[tuple[str, int], list[dict]]:
    """(kind, seed) -> its scenes' counts, from the files as drawn (not moved, not hinted)."""
    out: dict[tuple[str, int], list[dict]] = {}
    for seed, kinds in drawn_counts(paths, "scenes"):
        for k, scenes in kinds.items():
            if kind in (None, k):
                out.setdefault((k, seed), scenes)
    return out


def drawn_counts(paths: list[Path], key: str):
    """(seed, the file's `key`: "scenes" or "kinds") of each bench_vision.py --json file read as
    its seed was drawn: a moved or hinted reading is another set's (bench/pooled_counts.py too)."""
    for path in paths:
        try:
            data = json.loads(path.read_text())
            seed, part = int(data["seed"]), data[key]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise SystemExit(f"{path}: expected bench_vision.py --json counts ({e})") from None
        if not (data.get("moved") or data.get("hinted")):
            yield seed, part


def describe(kind: str, seed: int, index: int) -> str:
    """The scene's conditions, drawn again from its seed."""
    from vision.synth.scene import benchmark_scene

    cond = benchmark_scene(kind, index, seed).conditions
    parts = []
    for key in CONDITIONS:
        value = cond.get(key)
        if isinstance(value, float):
            value = round(value)
        parts.append(f"{key} {value}")
    return ", ".join(parts)


def counts_parser(doc: str, min_seed: int | None = None) -> argparse.ArgumentParser:
    """The command line the counts tools share (this one, pooled_counts.py, condition_errors.py):
    the counts files, one kind or all, and, given a default, --min-seed."""
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("counts", type=Path, nargs="+", help="bench_vision.py --json files")
    p.add_argument("--kind", default=None)
    if min_seed is not None:
        p.add_argument(
            "--min-seed", type=int, default=min_seed, help="leave out the seeds below (0-10: tuned)"
        )
    return p


def main(argv=None) -> int:
    p = counts_parser(__doc__)
    p.add_argument("--share", type=float, default=0.5, help="share of flat dice lost, at least")
    p.add_argument("--least", type=int, default=5, help="flat dice in the scene, at least")
    a = p.parse_args(argv)
    if not 0.0 < a.share <= 1.0:
        p.error(f"--share: expected a share in (0, 1], got {a.share}")
    totals: dict[str, list[int]] = {}
    for (kind, seed), scenes in sorted(readings(a.counts, a.kind).items()):
        t = totals.setdefault(kind, [0, 0, 0, 0])  # scenes, errors, scenes lost, their errors
        t[0] += len(scenes)
        t[1] += sum(s["fp"] + s["fn"] for s in scenes)
        for i, fn, flat in lost(scenes, a.share, a.least):
            t[2] += 1
            t[3] += scenes[i]["fp"] + fn
            print(f"{kind} seed {seed} scene {i}: {fn} of {flat} lost | {describe(kind, seed, i)}")
    for kind, (n, errors, bad, theirs) in totals.items():
        print(f"{kind}: {bad} of {n} scenes lost whole, {theirs} of {errors} errors")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
