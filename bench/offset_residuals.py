"""The axis network's offset as a cocked cue, and what the reader's cap on it does (information,
not a test).

    .venv/bin/python bench/offset_residuals.py --kind pips [--seeds 0,2,4] [--n 150]

For each die the reader reports (vision.read) and the truth places: the axis network's offset
against the law the frame's flat reports fit (vision/learned/off_law.py: offset = g (below -
point)), in die sides; against nothing (its length) when the frame gives no fit. A flat die's
side faces follow the law; a cocked die's upmost face, read as a flat one, shows a side face
that does not. Printed by what the die is and how it was reported (flat/face: a flat die read
as a face; cocked/face: a cocked die read as a face, the reader's worst error), how many of each
lie over a few lines, and what off_law's cap does to the faces read at 0.9 or more: how many it
asks on cocked dice (caught) and on flat ones (a question more) (docs/vision-history.md, sessions 28-29);
and, of every face it asks, how many lie a few times further off than their frame's other flat
faces (off_law.TYPICAL: those it calls cocked instead; session 50).
The dice are those the reader reports before its cap, with their confidence before it.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import read, read_learned  # noqa: E402
from vision.learned import off_law  # noqa: E402
from vision.synth.scene import benchmark_set  # noqa: E402

LINES = (0.25, 0.35, 0.45)
TIMES = (3.0, 4.0, 5.0)  # what off_law.TYPICAL could be: the cap's faces called cocked (session 50)
CLASSES = ("flat/face", "flat/cocked", "cocked/cocked", "cocked/face")
SURE = 0.9  # the table's line (kiosk/controllers/decision.py CONFIDENT)


def uncapped(scene, kind: str) -> tuple[list, np.ndarray]:
    """The dice the reader reports before off_law's cap, and their odds of "cocked"."""
    heard = {}

    def listen(frame, dice, odds, kind, best_faces=None):
        heard["dice"], heard["odds"] = list(dice), np.asarray(odds, float)
        return dice

    saved, read_learned.ask_off_law = read_learned.ask_off_law, listen
    try:
        read(scene.image, kind)
    finally:
        read_learned.ask_off_law = saved
    return heard.get("dice", []), heard.get("odds", np.zeros(0))


def rows_of(scene, kind: str) -> list[tuple[str, float, float, bool, float]]:
    """(class, residual, confidence, capped, times) of each reported die the truth places;
    times: its residual over the median of its frame's other flat faces' (off_law.typical_off;
    0 where the frame has too few of them to compare with)."""
    dice, odds = uncapped(scene, kind)
    if not dice:
        return []
    residuals = off_law.off_law(scene.image, dice, kind)
    typical = off_law.typical_off(residuals, dice)
    out = []
    for d, res, odd, typ in zip(dice, residuals, odds, typical, strict=True):
        near = [t for t in scene.dice if math.hypot(t.x - d.x, t.y - d.y) < 0.6 * t.size]
        if near:
            said = "cocked" if d.cocked else ("face" if d.face is not None else "none")
            capped = d.face is not None and odd >= off_law.DOUBT and res > off_law.OFF
            truth = "cocked" if near[0].cocked else "flat"
            times = res / max(typ, 1e-9) if math.isfinite(typ) else 0.0
            out.append((truth + "/" + said, res, d.confidence, capped, times))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", default="pips", choices=("pips", "strike", "detrak"))
    ap.add_argument("--seeds", default="0", help="comma-separated benchmark seeds")
    ap.add_argument("--n", type=int, default=150)
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    seeds = [int(s) for s in a.seeds.split(",")]
    rows = [
        r for seed in seeds for s in benchmark_set(a.kind, a.n, seed) for r in rows_of(s, a.kind)
    ]
    print(f"{a.kind} seeds {a.seeds}: offset residuals, die sides")
    for cls in CLASSES:
        v = np.array([r[1] for r in rows if r[0] == cls])
        if len(v):
            over = ", ".join(f"{int((v > line).sum())} over {line}" for line in LINES)
            print(f"  {cls:<14} {len(v):5d}: median {np.median(v):.3f}; {over}")
    sure = [r for r in rows if r[0].endswith("/face") and r[2] >= SURE]
    on_cocked = [r for r in sure if r[0] == "cocked/face"]
    on_flat = [r for r in sure if r[0] == "flat/face"]
    print(
        f"  faces at >= {SURE}: {len(on_cocked)} on cocked dice, {len(on_flat)} on flat ones;"
        f" asked by the cap (cocked odds >= {off_law.DOUBT}, over {off_law.OFF}):"
        f" {sum(r[3] for r in on_cocked)} on cocked dice, {sum(r[3] for r in on_flat)} on flat"
    )
    asked = [r for r in rows if r[3]]
    for times in TIMES:
        far = [r for r in asked if r[4] > times]
        flat, cocked = (sum(r[0].startswith(t) for r in far) for t in ("flat", "cocked"))
        print(
            f"  ...of all the faces the cap asks, {times:g} times or more further off than their"
            f" frame's other flat faces: {cocked} on cocked dice, {flat} on flat"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
