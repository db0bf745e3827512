"""Does the axis network's offset tell a cocked die from a flat one? (information, not a test)

    .venv/bin/python bench/offset_residuals.py --kind pips [--seed 0] [--n 150]

For each die the reader reports (vision.read) and the truth places: the axis network's offset
(vision/learned/axis.py) against the law the frame's flat reports fit (offset = g (below -
point)), in die sides; against nothing (its length) when the frame gives no fit. A flat die's
side faces follow the law; a cocked die's upmost face, read as a flat one, shows a side face
that does not. Printed by what the die is and how it was reported (flat/face: a flat die read
as a face; cocked/face: a cocked die read as a face, the reader's worst error), and how many
of each lie over a few lines (docs/vision.md, session 28).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import read  # noqa: E402
from vision.learned import axis  # noqa: E402
from vision.synth.scene import benchmark_set  # noqa: E402

LINES = (0.25, 0.35, 0.45)
CLASSES = ("flat/face", "flat/cocked", "cocked/cocked", "cocked/face")


def residuals(image, dice, kind: str) -> np.ndarray:
    """Each reported die's offset off the law its frame's flat reports fit, in sides."""
    offsets = axis.offsets(image, [(d.x, d.y, d.size) for d in dice], kind)
    points = np.array([(d.x, d.y) for d in dice], float)
    flat = [i for i, d in enumerate(dice) if not d.cocked and d.face is not None]
    below = axis.point_below(points[flat], offsets[flat], image.shape) if flat else None
    if below is None:
        return np.linalg.norm(offsets, axis=1)
    towards = np.asarray(below) - points
    g = float((offsets[flat] * towards[flat]).sum() / max((towards[flat] ** 2).sum(), 1e-9))
    return np.linalg.norm(offsets - g * towards, axis=1)


def rows_of(scene, kind: str) -> list[tuple[str, float, float]]:
    """(class, residual, confidence) of each reported die the truth places."""
    dice = [d for d in read(scene.image, kind).dice if d.size > 0]
    if not dice:
        return []
    out = []
    for d, res in zip(dice, residuals(scene.image, dice, kind), strict=True):
        near = [t for t in scene.dice if math.hypot(t.x - d.x, t.y - d.y) < 0.6 * t.size]
        if near:
            said = "cocked" if d.cocked else ("face" if d.face is not None else "none")
            out.append((("cocked" if near[0].cocked else "flat") + "/" + said, res, d.confidence))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", default="pips", choices=("pips", "strike", "detrak"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n", type=int, default=150)
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rows = [r for s in benchmark_set(a.kind, a.n, a.seed) for r in rows_of(s, a.kind)]
    print(f"{a.kind} seed {a.seed}: offset residuals, die sides")
    for cls in CLASSES:
        v = np.array([r[1] for r in rows if r[0] == cls])
        if len(v):
            over = ", ".join(f"{int((v > line).sum())} over {line}" for line in LINES)
            print(f"  {cls:<14} {len(v):5d}: median {np.median(v):.3f}; {over}")
    sure = [r for r in rows if r[0].endswith("/face") and r[2] >= 0.9]
    for line in LINES:
        wrong = sum(1 for r in sure if r[0] == "cocked/face" and r[1] > line)
        right = sum(1 for r in sure if r[0] == "flat/face" and r[1] > line)
        print(f"  faces at >= 0.9 over {line}: {wrong} on cocked dice, {right} on flat ones")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
