"""Where the errors lie by drawn condition: dice size, frame, tilt, background, colours (a tool for
deciding what to work on next, not a test: run it, read it).

    .venv/bin/python bench/condition_errors.py COUNTS.json... [--kind detrak] [--min-seed 11]

The counts are bench_vision.py's `--json` files, read as lost_scenes.py reads them (each seed
once, moved and hinted readings left out). Each scene's conditions are drawn again from its seed
without rendering it (vision/synth/conditions.py), so thousands of scenes are grouped in seconds.
For each condition's bins it prints the flat dice, the errors (fp + fn, as F1 counts them), their
share of the kind's errors, the errors per thousand flat dice, and the cocked dice not flagged.
Session 62 found with it that Détrak's dice under 22 px are 13 % of its flat dice and 42 % of its
errors, which sent that session to the 4032 px photos of tiny dice (rule 181).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lost_scenes import counts_parser, readings  # noqa: E402

DIE_PX = (22, 30, 45, 80)  # the dice-size bins' upper ends (issue 5: 18-150 px)
TILT = (10, 15)  # the camera's degrees off vertical: above the table, a little, oblique photos
PLAIN = ("background", "die_colour", "mark_colour", "shadows", "glare")


def _bin(value: float, ends: tuple) -> str:
    return next((f"<{e}" for e in ends if value < e), f">={ends[-1]}")


def bins(cond: dict) -> list[tuple[str, str]]:
    """(condition, bin) pairs a scene of these drawn conditions counts in."""
    out = [
        ("die px", _bin(cond["die_size"], DIE_PX)),
        ("frame", "x".join(str(v) for v in cond["frame"])),
        ("tilt", _bin(cond["tilt"], TILT)),
    ]
    return out + [(k, str(cond[k])) for k in PLAIN if k in cond]


def tally(scenes: list[tuple[dict, dict]]) -> dict[str, dict[str, list[int]]]:
    """condition -> bin -> [flat dice, errors, cocked dice, cocked not flagged], over
    (counts, conditions) pairs, one a scene; condition "all" holds the totals."""
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    for counts, cond in scenes:
        row = (
            counts["tp"] + counts["fn"],
            counts["fp"] + counts["fn"],
            counts.get("cocked", 0),
            counts.get("cocked", 0) - counts.get("cocked_flagged", 0),
        )
        for name, b in bins(cond) + [("all", "")]:
            out[name][b] = [x + y for x, y in zip(out[name][b], row, strict=True)]
    return out


def lines(kind: str, t: dict[str, dict[str, list[int]]]) -> list[str]:
    errors = max(t["all"][""][1], 1)
    out = [f"{kind}: {t['all'][''][0]} flat dice, {t['all'][''][1]} errors"]
    for name in (n for n in t if n != "all"):
        out.append(f"  {name}")
        for b, (flat, err, cocked, missed) in sorted(t[name].items()):
            per = 1000 * err / max(flat, 1)
            out.append(
                f"    {b:>12}: {flat:6} flat, {err:5} errors ({100 * err / errors:4.1f} %, "
                f"{per:5.1f} per 1000), cocked missed {missed}/{cocked}"
            )
    return out


def scenes_by_kind(paths: list[Path], kind: str | None, min_seed: int) -> dict[str, list]:
    """kind -> (counts, conditions) of each scene of the seeds from `min_seed` on, its
    conditions drawn again from its seed."""
    from vision.synth.conditions import benchmark_conditions

    out: dict[str, list[tuple[dict, dict]]] = defaultdict(list)
    for (k, seed), scenes in sorted(readings(paths, kind).items()):
        if seed >= min_seed:
            out[k] += list(zip(scenes, benchmark_conditions(k, len(scenes), seed), strict=True))
    return out


def main(argv=None) -> int:
    a = counts_parser(__doc__, min_seed=11).parse_args(argv)
    by_kind = scenes_by_kind(a.counts, a.kind, a.min_seed)
    if not by_kind:
        raise SystemExit(f"no seed of {a.min_seed} or more in the counts given")
    for kind, scenes in sorted(by_kind.items()):
        print("\n".join(lines(kind, tally(scenes))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
