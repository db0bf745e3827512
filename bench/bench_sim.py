"""How fast the simulated table renders, on one core: frames per second while a game is played.

    .venv/bin/python bench/bench_sim.py [--size 1280x960] [--seconds 60] [--game strike]
    .venv/bin/python bench/bench_sim.py --read 8     # how vision.read does on settled frames

Plays the game through the driver (throws, knocks, the hand, gathering, pairs taken, dice set
aside), renders every frame, and reports frames per second overall, the slowest 1% of frames, and
the time to build a table (background, textures, noise tiles). OpenCV is held to one thread.

With --read N it instead renders the still frame after N throws (N seeds) per game and reports
the share of dice in the arena that vision.read finds at their place and reads right.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402

from vision.sim import SimCamera  # noqa: E402
from vision.sim.drivers import game_for, settled_throw  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", default="1280x960")
    p.add_argument("--seconds", type=float, default=60.0, help="simulated seconds to play")
    p.add_argument("--game", default="strike", choices=("strike", "knister", "detrak"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--read", type=int, default=0, metavar="N", help="reader check on N tables")
    args = p.parse_args()
    cv2.setNumThreads(1)
    if args.read:
        return read_check(args.read, args.size)
    w, h = (int(v) for v in args.size.split("x"))
    start = time.perf_counter()
    cam = SimCamera(args.game, seed=args.seed, size=(w, h), players=3)
    setup = time.perf_counter() - start
    events = game_for(cam, seed=args.seed)
    times, dice_seen, moving_frames = [], 0, 0
    frames = int(args.seconds * cam.fps)
    while len(times) < frames:
        if cam.settled:
            event = next(events, None)
            if event is None or event.kind == "over":
                cam.clear()
                events = game_for(cam, seed=args.seed + len(times))
        t = time.perf_counter()
        cam.read()
        times.append(time.perf_counter() - t)
        truth = cam.truth()
        dice_seen = max(dice_seen, len(truth["dice"]))
        moving_frames += any(d["moving"] for d in truth["dice"]) or truth["hand"]
    total = sum(times)
    slow = sorted(times)[int(len(times) * 0.99)]
    print(f"game {args.game}, {w}x{h}, seed {args.seed}, one OpenCV thread")
    print(f"table built in {setup:.2f} s")
    print(f"{len(times)} frames in {total:.2f} s: {len(times) / total:.1f} frames per second")
    print(f"median frame {statistics.median(times) * 1000:.1f} ms, slowest 1% {slow * 1000:.1f} ms")
    print(f"frames with motion or the hand: {moving_frames}; most dice at once: {dice_seen}")
    return 0


def read_check(tables: int, size: str) -> int:
    from vision.read import read

    w, h = (int(v) for v in size.split("x"))
    for game, kind in (("strike", "strike"), ("knister", "pips"), ("detrak", "detrak")):
        dice = found = right = 0
        for seed in range(tables):
            cam = settled_throw(game, seed, (w, h))
            readings = read(cam.read(), dice=kind).dice
            for die in cam.truth()["dice"]:
                if not die["in_arena"]:
                    continue
                dice += 1
                r = die["size"] / 3
                near = [x for x in readings if abs(x.x - die["x"]) < r and abs(x.y - die["y"]) < r]
                found += bool(near)
                right += bool(near) and str(near[0].face) == str(die["face"])
        print(
            f"{game}: {dice} dice on {tables} tables, found {found / dice:.0%}, read right "
            f"{right / dice:.0%}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
