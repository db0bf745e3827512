"""Every report of a reading paired with its truth die and with what the reader saw at its find:
the classifier's row and the detector's heats (a tool for deciding what to work on next, not a
test: run it, read it).

    .venv/bin/python bench/report_rows.py --kind detrak --seed 202 [--n 150] --out ROWS.jsonl
    .venv/bin/python bench/report_rows.py --summary ROWS.jsonl... [--line 18]

The first form reads a synthetic seed and writes one JSON line per report (face or cocked, its
confidence and reported size, the truth die it matched or none, the classifier's odds and the
detector's flat and cocked heats at the find it came from) and one per truth die no report
matched. The second prints, from such files, the faces read at 0.9 or more by reported size (how
often right: rule 183 came from it, session 63) and how the faces read on cocked dice compare with
the flat ones on the classifier's "cocked" odds and the detector's heats (whether a line parts
them: sessions 58 and 63 found none). Sessions 58 and 63 each wrote this pairing as a /tmp script.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scoring import SURE, match  # noqa: E402
from vision_errors import find_of, listening  # noqa: E402

from vision import read  # noqa: E402
from vision.learned.classes import kind_classes  # noqa: E402

SIZE_BANDS = (14, 16, 18, 20, 22, 26, 30, 40, 60, 100)  # reported sides, px (issue 5: from 18)
ODDS = (0.05, 0.1, 0.15, 0.2)  # "cocked" odds lines tried against the faces on cocked dice
HEATS = (0.3, 0.4, 0.5)  # ...and detector cocked heats


def rows_of(scene, kind: str, label: object = None) -> list[dict]:
    """One row per report of `scene` read unhinted, and one per truth die no report matched."""
    with listening() as heard:
        dice = read(scene.image, kind, None, "auto").dice
    names = kind_classes(kind)
    found, probs = heard.get("read", ([], []))
    pairs = match(dice, scene.dice)
    truth_of = {j: scene.dice[i] for i, j in pairs.items()}
    out = []
    for j, d in enumerate(dice):
        t = truth_of.get(j)
        row = {"scene": label, "face": _face(d.face), "cocked": bool(d.cocked)}
        row.update(conf=round(float(d.confidence), 4), size=round(float(d.size), 2))
        row.update(truth=None if t is None else {"face": _face(t.face), "cocked": t.cocked})
        if len(found):
            k = find_of(found, d)
            row["heat"] = [
                round(float(found[k].flat_score), 3),
                round(float(found[k].cocked_score), 3),
            ]
            row["odds"] = {n: round(float(p), 4) for n, p in zip(names, probs[k], strict=True)}
        out.append(row)
    for i, t in enumerate(scene.dice):
        if i not in pairs:
            out.append({"scene": label, "missed": {"face": _face(t.face), "cocked": t.cocked}})
    return out


def _face(face) -> str | None:
    return None if face is None else str(face)


def wrong(row: dict) -> bool:
    """Whether a face report is wrong: on no die, on a cocked die, or another face."""
    t = row["truth"]
    return t is None or t["cocked"] or row["face"] != t["face"]


def sure_by_size(rows: list[dict], bands=SIZE_BANDS) -> list[tuple[str, int, int]]:
    """(band, faces read at SURE or more, wrong ones) by reported size, bands of `bands`' ends."""
    sure = [r for r in rows if r.get("face") is not None and r["conf"] >= SURE]
    out = []
    for lo, hi in zip((0,) + tuple(bands), tuple(bands) + (math.inf,), strict=True):
        band = [r for r in sure if lo <= r["size"] < hi]
        if band:
            out.append((f"{lo}-{hi}", len(band), sum(map(wrong, band))))
    return out


def faces_on_cocked(rows: list[dict]) -> list[tuple[str, int, int, int, int]]:
    """(line, faces on cocked dice over it, of them, flat faces over it, of them): for each
    "cocked" odds and cocked heat line, how many faces it would take back of each."""
    faces = [r for r in rows if r.get("face") is not None and r.get("truth") and "odds" in r]
    on_cocked = [r for r in faces if r["truth"]["cocked"]]
    flat = [r for r in faces if not r["truth"]["cocked"]]
    tests = [(f'"cocked" odds >= {x}', lambda r, x=x: r["odds"]["cocked"] >= x) for x in ODDS]
    tests += [(f"cocked heat >= {x}", lambda r, x=x: r["heat"][1] >= x) for x in HEATS]
    return [
        (name, sum(map(over, on_cocked)), len(on_cocked), sum(map(over, flat)), len(flat))
        for name, over in tests
    ]


def summary(rows: list[dict]) -> list[str]:
    out = ["faces read at 0.9 or more, by reported size:"]
    for band, n, bad in sure_by_size(rows):
        out.append(f"  {band:>9} px: {n:6d}, {bad:3d} wrong, right {(n - bad) / n:.4f}")
    out.append("faces read on cocked dice against flat ones, by the line that would take them:")
    for name, a, na, b, nb in faces_on_cocked(rows):
        out.append(f"  {name}: cocked {a} / {na}, flat {b} / {nb}")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kind", choices=("pips", "strike", "detrak"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--n", type=int, default=150, help="scenes (default 150, as bench_vision)")
    p.add_argument("--out", type=Path, help="write the rows here (JSON lines)")
    p.add_argument("--summary", type=Path, nargs="+", help="rows files to sum up instead")
    args = p.parse_args(argv)
    if args.summary:
        rows = [json.loads(line) for path in args.summary for line in path.open()]
        print("\n".join(summary(rows)))
        return 0
    if not (args.kind and args.out):
        p.error("--kind and --out, or --summary")
    from vision.synth.scene import benchmark_scene

    with args.out.open("w") as fh:
        for i in range(args.n):
            for row in rows_of(benchmark_scene(args.kind, i, args.seed), args.kind, i):
                fh.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
