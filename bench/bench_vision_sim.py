"""The reader on the simulated table's still frames: what `arbitre run --camera sim` and the demo see.

For each game, throws or rolls are played on the simulated table and the still frame after each
one is read. A frame is right when the faces read in the arena (Strike) or on the table (Knister,
Détrak) are exactly the truth's, cocked dice reported cocked. Reported per game: frames right,
die-level face accuracy, the share of dice read at confidence ≥ 0.9 and their accuracy, and ms.

    .venv/bin/python bench/bench_vision_sim.py [--frames 40] [--size 1280x960] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2

# the tree this script is in, not the one installed (a worktree measures its own models)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import vision  # noqa: E402
from vision.sim import SimCamera  # noqa: E402

KIND = {"strike": "strike", "knister": "pips", "detrak": "detrak"}


def still_frames(game: str, n: int, seed: int, size: tuple[int, int]):
    """Yield (frame, truth dice) after each throw; Strike tidies the arena as the engine would."""
    cam = SimCamera(game=game, seed=seed, size=size, players=3)
    if game == "strike":
        cam.place_start()
    for i in range(n):
        if game == "strike":
            if len(cam.arena_dice()) > 9 or i % 4 == 3:
                cam.settle_turn()
            cam.throw(1, gather=i % 3 == 0)
        else:
            cam.roll_two()
        while not cam.settled:
            cam.skip(3)
            cam.read()
        frame = cam.read()
        truth = [d for d in cam.truth()["dice"] if not d.get("aside")]
        yield frame, truth


def _key(d: dict, strike: bool) -> str | None:
    if strike and not d.get("in_arena", True):
        return None
    return "cocked" if d.get("cocked") else str(d.get("face"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="1280x960")
    parser.add_argument("--games", default="strike,knister,detrak")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    size = tuple(int(v) for v in args.size.split("x"))
    for game in args.games.split(","):
        right = dice_total = dice_right = sure = sure_right = 0
        times = []
        frames = 0
        for frame, truth in still_frames(game, args.frames, args.seed, size):
            strike = game == "strike"
            t0 = time.perf_counter()
            readings = vision.read(frame, dice=KIND[game], arena="auto" if strike else "none")
            times.append((time.perf_counter() - t0) * 1000)
            seen = [d for d in readings.to_json()["dice"] if _key(d, strike) is not None]
            want = Counter(k for d in truth if (k := _key(d, strike)) is not None)
            got = Counter(_key(d, strike) for d in seen)
            frames += 1
            right += got == want
            dice_total += sum(want.values())
            dice_right += sum((got & want).values())
            for d in seen:
                if d["confidence"] >= 0.9:
                    sure += 1
                    sure_right += want[_key(d, strike)] > 0
        print(
            f"{game}: frames right {right}/{frames}, dice right {dice_right}/{dice_total}, "
            f"sure (conf>=0.9) {sure} of which right {sure_right}, "
            f"read p50 {statistics.median(times):.0f} ms max {max(times):.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
