"""The figures of many seeds read by one tree, pooled (a tool for stating where the reader stands,
not a test: run it, read it).

    .venv/bin/python bench/pooled_counts.py COUNTS.json... [--kind pips] [--min-seed 11]

The counts are bench_vision.py's `--json` files (bench/compare_trees.py keeps one per tree and
seed in its --out directory: pass its `committed-seed*.json` for the committed tree). Seed 0 is
the benchmark's published set, but rules have been chosen on it for sixty sessions; the seeds a
session's gates read fresh are the fairer figure. One seed's F1 lands anywhere in a hundredth
(pips' fresh seeds 0.982-0.994 for one tree), so a dozen are pooled (docs/vision.md, "Where it
stands"). Per kind:
F1 over the pooled dice and the spread of the seeds' own, the cocked dice flagged by how far they
are tipped (a die tipped 25-35 or 55-65 degrees shows a face nearly as a flat die does), the
faces read at 0.9 or more that are right, and Strike's in / out of the arena. Files of moved or
hinted readings are left out (their scenes are not the seed's as drawn), and a seed met in
several files is counted once: the first file given that holds it.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare_trees import figures, summed  # noqa: E402
from lost_scenes import counts_parser, drawn_counts  # noqa: E402
from scoring import TIP_BANDS, f1_in_range  # noqa: E402

TARGET_F1 = 0.99


def kind_counts(paths: list[Path], kind: str | None, min_seed: int) -> dict[str, dict[int, dict]]:
    """kind -> seed -> that seed's counts (scoring.Tally's), each seed once."""
    out: dict[str, dict[int, dict]] = {}
    for seed, kinds in drawn_counts(paths, "kinds"):
        if seed < min_seed:
            continue
        for k, counts in kinds.items():
            if kind in (None, k):
                out.setdefault(k, {}).setdefault(seed, counts)
    return out


def pooled(by_seed: dict[int, dict]) -> dict:
    """One kind's figures over its seeds: the pooled ones, and the seeds' own F1."""
    total = Counter(summed(list(by_seed.values())))  # (a band no seed held counts 0)

    def counted(key: str) -> bool:  # (older counts lack the newer keys)
        return all(key in c for c in by_seed.values())

    each = [figures(c)["f1"] for c in by_seed.values()]
    out = dict(figures(total))
    out.update(
        seeds=sorted(by_seed),
        scenes=total["scenes"],
        f1_median=statistics.median(each),
        f1_range=(min(each), max(each)),
        seeds_at_target=sum(f >= TARGET_F1 for f in each),
        sure=(total["sure_right"], total["sure_total"]),
        bands={b: (total[f"cocked {b} flagged"], total[f"cocked {b}"]) for b in TIP_BANDS},
        # (a cocked die read as a face at 0.9 or more goes into a record unasked: since session 63)
        unasked=(total["cocked_unasked"], total["cocked"]) if counted("cocked_unasked") else None,
        # (only when every seed counted its dice outside issue 5's sizes: since session 62)
        f1_in_range=f1_in_range(total) if counted("tp outside") else None,
    )
    return out


def _share(part: int, whole: int) -> str:
    return f"{part} / {whole} ({part / whole:.4f})" if whole else "-"


def lines(kind: str, f: dict) -> list[str]:
    seeds = f["seeds"]
    out = [
        f"{kind}: {len(seeds)} seeds ({seeds[0]}-{seeds[-1]}), {f['scenes']} scenes",
        f"  face F1 {f['f1']:.4f} pooled; seeds' own: median {f['f1_median']:.4f}, "
        f"{f['f1_range'][0]:.4f}-{f['f1_range'][1]:.4f}, {f['seeds_at_target']} of {len(seeds)}"
        f" at {TARGET_F1} or more; {f['errors']} errors",
    ]
    if f["f1_in_range"] is not None:
        out.append(f"  face F1 over the dice of 18-150 px alone {f['f1_in_range']:.4f} pooled")
    out.append(
        f"  cocked dice flagged {_share(f['cocked'], f['of_cocked'])}; tipped "
        + ", ".join(f"{b}: {_share(*f['bands'][b])}" for b in TIP_BANDS)
    )
    if f["unasked"] is not None:
        out.append(f"  cocked dice read as faces at 0.9 or more {_share(*f['unasked'])}")
    out.append(f"  faces at 0.9 or more right {_share(*f['sure'])}")
    if f["of_arena"]:
        out.append(
            f"  in / out of the arena right {_share(f['of_arena'] - f['arena_wrong'], f['of_arena'])}"
        )
    return out


def main(argv=None) -> int:
    a = counts_parser(__doc__, min_seed=0).parse_args(argv)
    found = kind_counts(a.counts, a.kind, a.min_seed)
    if not found:
        print("no unmoved, unhinted counts of those kinds and seeds in the files given")
        return 1
    for kind in sorted(found):
        print("\n".join(lines(kind, pooled(found[kind]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
