"""Where the camera looks down from, in an oblique photo: the point of the frame straight below it.

The classifier's crops are turned so that "away from the point below the camera" points up
(vision/learned/crops.py): that is the side on which a flat die shows its side faces. A camera
above the table has that point near the middle of the frame, and the crops take the frame's
centre. A phone photo taken at 10 to 25 degrees from vertical has it far off the centre, or
outside the frame: flat dice then show their sides in directions the classifier does not expect
and it calls them cocked (on the benchmark's oblique photos, 5 to 7 % of flat dice).

Nothing in a frame says where that point is, but the flat dice the classifier already reads
surely do: turned by the right point, their side faces fall where it expects them and it reads
them surer. So the point is searched among CANDIDATES, scored on those dice only. Dice it calls
cocked have no say: a cocked die "explained" by a chosen point would be read flat, a guess.
The search (10 to 130 ms) runs only on frames whose dice shrink across the frame as an oblique
view makes them (SHRINK), and the point found is kept only if it reads the sure dice clearly
better (GAIN); a camera above the table keeps its centre.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from .detector import SURE, Found

SHRINK = 0.2  # the least change of the dice's size across the frame (its longer side) to search
MIN_DICE = 6  # sure flat dice needed to see the change, and to search
ANCHORS = 6  # sure dice scored per candidate: the farthest from the centre, that show most side
RADII = (0.25, 0.5)  # the candidates' distances from the centre, in frame lengths...
DIRECTIONS = 8  # ...in as many directions
GAIN = 0.05  # the least gain, in mean -log(probability of the face read) per die, to move


def looks_oblique(found: Sequence[Found], shape: tuple) -> bool:
    """Whether the sure flat dice change size across the frame as in an oblique view (a plane
    seen at an angle: the size of a die is an affine function of where it lies)."""
    flat = [f for f in found if not f.cocked and f.score >= SURE]
    if len(flat) < MIN_DICE:
        return False
    h, w = shape[:2]
    a = np.array([[1.0, f.x - (w - 1) / 2, f.y - (h - 1) / 2] for f in flat])
    (c, gx, gy), *_ = np.linalg.lstsq(a, np.array([f.size for f in flat]), rcond=None)
    return c > 0 and math.hypot(gx, gy) * max(h, w) / c >= SHRINK


def find_nadir(
    shape: tuple,
    found: Sequence[Found],
    read_faces: Callable[[Sequence[int], tuple | None], np.ndarray],
    surely: Sequence[int],
) -> tuple[float, float] | None:
    """The candidate point below the camera that reads the sure dice (indices `surely` into
    `found`) best, or None to keep the frame's centre. `read_faces(indices, below)` gives, for
    each die, the probability of the face the classifier reads with that point."""
    h, w = shape[:2]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    anchors = sorted(surely, key=lambda i: -math.hypot(found[i].x - cx, found[i].y - cy))
    anchors = anchors[:ANCHORS]
    if len(anchors) < 3:
        return None

    def cost(below):
        return float(-np.log(np.maximum(read_faces(anchors, below), 1e-6)).mean())

    best, best_cost = None, cost(None) - GAIN
    length = max(h, w)
    for r in RADII:
        for k in range(DIRECTIONS):
            a = 2 * math.pi * k / DIRECTIONS
            below = (cx + r * length * math.cos(a), cy + r * length * math.sin(a))
            c = cost(below)
            if c < best_cost:
                best, best_cost = below, c
    return best
