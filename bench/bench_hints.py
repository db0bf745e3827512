"""Latency of the placement helper (`engine.hints.rank`) and the strength of play it gives.

    .venv/bin/python bench/bench_hints.py [--games 30] [--lookahead N] [--rollouts 0] [--seed 1]

Plays solo games of Knister and Détrak (seat 0 follows the helper's best placement), times every
call of `rank` during them, and prints p50 / p95 / max in milliseconds, then the mean final score.
The first call of a process fills the per-line tables; it is timed apart ("cold").
Target (issue 3): under 100 ms a call on the Pi-class machine the project runs on.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# the tree this script is in, not the one installed (a worktree measures its own models)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import bots, hints  # noqa: E402
from engine.registry import new_game  # noqa: E402

GAMES = {
    "knister": {},
    "knister (published 12)": {"straight_without_7": 12},
    "detrak": {},
    "detrak (gigamic)": {"rules": "gigamic"},
}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(name: str, options: dict, games: int, args: argparse.Namespace) -> dict:
    game = new_game({"game": name.split()[0], "players": ["Solo"], "options": options})
    rng, times, cpu, finals, cold = random.Random(args.seed), [], [], [], None
    for _ in range(games):
        state = game.initial_state()
        while not state.is_over():
            if state.dice():
                state = state.apply(bots.chance(state, rng))
            elif state.phase == "choose":
                state = state.apply(bots.bot(game.name, "greedy").act(state, 0, rng))
            else:
                start, start_cpu = time.perf_counter(), time.process_time()
                best = hints.rank(
                    state, 0, lookahead=args.lookahead, rollouts=args.rollouts, rng=rng
                )[0]
                elapsed = (time.perf_counter() - start) * 1000
                if cold is None:
                    cold = elapsed
                else:
                    times.append(elapsed)
                    cpu.append((time.process_time() - start_cpu) * 1000)
                state = state.apply(best.action)
        finals.append(state.scores()[0])
    return {"times": times, "cpu": cpu, "finals": finals, "cold": cold}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument(
        "--lookahead", type=int, default=None, help="placements given the lookahead (0: baseline)"
    )
    parser.add_argument(
        "--rollouts", type=int, default=0, help="Monte Carlo rollouts (0: exact baseline)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lookahead = "default" if args.lookahead is None else args.lookahead
    print(
        f"rank(): {args.games} solo games each, lookahead={lookahead}, "
        f"rollouts={args.rollouts}, seed={args.seed}"
    )
    print("wall-clock ms per call (cold: the first call of the process); cpu: process time p95")
    print(
        f"{'game':24} {'calls':>6} {'cold':>7} {'p50':>7} {'p95':>7} {'max':>7} {'cpu p95':>8}"
        "  mean score"
    )
    for label, options in GAMES.items():
        hints._knister_line.cache_clear()
        hints._detrak_line.cache_clear()
        r = play(label, options, args.games, args)
        t, f = r["times"], r["finals"]
        extra = ""
        if label.startswith("detrak"):
            extra = f"  ({sum(s > 30 for s in f) / len(f):.0%} above 30, grand maître)"
        print(
            f"{label:24} {len(t):6d} {r['cold']:7.1f} {statistics.median(t):7.2f} "
            f"{_percentile(t, 0.95):7.2f} {max(t):7.2f} {_percentile(r['cpu'], 0.95):8.2f}"
            f"  {statistics.mean(f):6.1f}{extra}"
        )


if __name__ == "__main__":
    main()
