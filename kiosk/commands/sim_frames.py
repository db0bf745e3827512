"""`arbitre sim-frames`: frames of the simulated table with their ground truth, a vision dataset.

Writes, in DIR: frame_NNNNNN.png and frame_NNNNNN.json (the truth of that frame: every die's
face, position and size in pixels, cocked, in the arena, moving), record.jsonl for Strike (the game
record of what was played, replayable with `arbitre replay`) and meta.json (the run's settings).
Every `--every`-th frame is written, and always the first still frame after each throw
(`--every 0`: only those).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "write frames and ground truth of the simulated table (PNG + JSON) for vision benchmarks"


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        message = f"expected WIDTHxHEIGHT such as 1280x960, not {text!r}"
        raise argparse.ArgumentTypeError(message) from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise argparse.ArgumentTypeError(f"size {text}: each side must be 64..4096 pixels")
    return w, h


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", choices=("strike", "detrak", "knister"), default="strike")
    p.add_argument("--seed", type=int, default=0, help="same seed, same frames (default 0)")
    p.add_argument("--out", required=True, help="folder to write into (created if missing)")
    p.add_argument(
        "--throws", type=int, default=5, help="throws (Strike) or rolls to play (default 5)"
    )
    p.add_argument("--players", type=int, default=3, choices=range(2, 6), metavar="2..5")
    p.add_argument("--size", type=_size, default=(1280, 960), help="WIDTHxHEIGHT (1280x960)")
    p.add_argument(
        "--every",
        type=int,
        default=10,
        help="write every Nth frame (default 10); 0: only the still frame after each throw",
    )
    p.add_argument("--fps", type=float, default=30.0)


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.sim import SimCamera
    from vision.sim.drivers import game_for

    if args.throws < 1 or args.every < 0 or args.fps <= 0:
        print("--throws must be at least 1, --every 0 or more, --fps positive", file=sys.stderr)
        return 2
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        print(f"cannot create {out}: {err.strerror}", file=sys.stderr)
        return 2
    cam = SimCamera(args.game, seed=args.seed, size=args.size, fps=args.fps, players=args.players)
    record: list = []
    written = throws = 0

    def write(frame) -> None:
        nonlocal written
        stem = out / f"frame_{cam.frame_index - 1:06d}"
        cv2.imwrite(str(stem.with_suffix(".png")), frame)
        stem.with_suffix(".json").write_text(json.dumps(cam.truth(), ensure_ascii=False))
        written += 1

    for event in game_for(cam, seed=args.seed, record=record):
        if event.kind == "over":
            break
        while True:
            frame = cam.read()
            if args.every and cam.frame_index % args.every == 0:
                write(frame)
            if cam.truth()["settled"]:
                break
        if event.kind in ("throw", "roll"):
            if not args.every or cam.frame_index % args.every != 0:
                write(frame)
            throws += 1
            if throws >= args.throws:
                break
    if record:
        lines = "\n".join(json.dumps(line, ensure_ascii=False) for line in record)
        (out / "record.jsonl").write_text(lines + "\n")
    meta = {
        "game": args.game,
        "seed": args.seed,
        "size": list(args.size),
        "fps": args.fps,
        "frames": cam.frame_index,
        "written": written,
        "throws": throws,
        "look": {k: v for k, v in vars(cam.look).items()},
        "arena": cam.arena_ellipse(),
    }
    (out / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1))
    print(f"{written} frames and their truth written to {out} ({throws} throws)")
    return 0
