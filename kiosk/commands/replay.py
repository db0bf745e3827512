"""`arbitre replay RECORD [--seat N]`: the state a record reaches, as one JSON object."""

from __future__ import annotations

import argparse
import json
import sys

from engine.record import RecordError, replay

HELP = "print the state a game record reaches (JSON); exit 2 on a bad line"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a game record (JSON Lines), or - for standard input")
    p.add_argument("--seat", type=int, default=None, help="print only what this seat may see")


def run(args: argparse.Namespace) -> int:
    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            with open(args.record, encoding="utf-8") as f:
                text = f.read()
    except OSError as err:
        print(f"cannot read {args.record}: {err.strerror}", file=sys.stderr)
        return 2
    try:
        result = replay(text, keep_states=False)
    except RecordError as err:
        print(str(err), file=sys.stderr)
        return 2
    n = result.game.num_players
    if args.seat is not None and not 0 <= args.seat < n:
        print(f"--seat must be 0..{n - 1} for this game, not {args.seat}", file=sys.stderr)
        return 2
    print(json.dumps(result.state.view(args.seat), ensure_ascii=False))
    return 0
