"""Whole demo games as the check of the reader's confidence: does any misread reach the record?

    .venv/bin/python bench/bench_games.py                       # the usual games, 640 x 480
    .venv/bin/python bench/bench_games.py --games strike:3:3,strike:4:2 --size 1280x960 --jobs 2

A benchmark of frames says how often a confident face is right; a game says whether the table
ever records a wrong one. Session 7's better classifier passed the first and failed the second (a
4 read as a sure 6), so a reader or a confidence table is adopted only when these games record no
misread. Each game is `arbitre demo --headless` (bots, simulated camera, the real watcher, reader,
controller and table); per game it prints the throws recorded, the questions asked (checks the
players answered), the frames misread, and how many of those reached the record.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# game:seed:players, with the misread rate injected after a slash (the usual check since session 6)
GAMES = "strike:3:3,strike:4:2,strike:11:3,strike:12:3,strike:11:3/0.05,knister:3:2,detrak:5:2"


def parse(spec: str) -> tuple[str, int, int, float]:
    """One game's spec: game:seed[:players][/misread rate]."""
    head, _, rate = spec.partition("/")
    parts = head.split(":")
    if len(parts) not in (2, 3) or not parts[1].isdigit():
        raise SystemExit(f"a game is game:seed[:players][/rate], not {spec!r}")
    players = int(parts[2]) if len(parts) == 3 else (3 if parts[0] == "strike" else 2)
    return parts[0], int(parts[1]), players, float(rate or 0.0)


def play(spec: str, size: tuple[int, int]) -> dict:
    """One headless game on a fresh table; what it recorded, asked and let slip."""
    import cv2

    from kiosk.config import load_config
    from kiosk.demo import DemoOptions, DemoStalled, run_demo
    from kiosk.table import Table

    cv2.setNumThreads(1)
    game, seed, players, rate = parse(spec)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="arbitre-bench-") as data:
        table = Table(load_config(None, data_dir=data, serial_port="none"))
        opts = DemoOptions(game=game, players=players, seed=seed, misread_rate=rate, size=size)
        try:
            stats = run_demo(opts, table)
            stalled = ""
        except DemoStalled as err:
            stats, stalled = None, str(err)
        lines = table.record_text().splitlines()[1:]
        table.log.close()
    throws = sum('"arena"' in line or '"roll"' in line for line in lines)
    out = {
        "spec": spec,
        "throws": throws,
        "s": round(time.perf_counter() - start),
        "stalled": stalled,
    }
    if stats is not None:
        out.update(
            asked=stats.confirmations,
            misreads=stats.misreads,
            slipped=stats.slipped,
            slips=stats.wrong_actions,
            decisions=dict(stats.decisions.most_common()),
        )
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default=GAMES, help=f"comma-separated (default {GAMES})")
    p.add_argument("--size", default="640x480")
    p.add_argument("--jobs", type=int, default=1, help="games played at once (one core each)")
    args = p.parse_args()
    w, _, h = args.size.partition("x")
    size = (int(w), int(h))
    specs = args.games.split(",")
    for spec in specs:
        parse(spec)  # a wrong spec fails before any game is played
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(play, specs, [size] * len(specs)))
    slipped = stalled = 0
    for r in results:
        if r["stalled"]:
            stalled += 1
            print(f"{r['spec']:>18}: stalled ({r['stalled']}) after {r['s']} s")
            continue
        slipped += r["slipped"]
        print(
            f"{r['spec']:>18}: {r['throws']:3d} throws recorded, {r['asked']:3d} asked, "
            f"{r['misreads']:3d} frames misread, {r['slipped']} reached the record ({r['s']} s)"
        )
        print(f"{'':>20}decisions: {r['decisions']}")
        for slip in r["slips"]:
            print(f"{'':>20}slipped: {slip['line']} for {slip['truth']}")
    print(
        f"total: {slipped} misreads reached the record, {stalled} games stalled, size {args.size}"
    )
    return 1 if slipped or stalled else 0


if __name__ == "__main__":
    raise SystemExit(main())
