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
The search (10 to 80 ms) runs only on frames whose dice shrink across the frame as an oblique
view makes them (SHRINK), and the point found is kept only if it reads the sure dice clearly
better (GAIN); a camera above the table keeps its centre.

The direction counts far more than the distance (session 10, with the synthetic camera's true
point: at a fixed RING in the true direction, as many dice are read as at the true point, and
0.2 frame lengths off still reads most of them). So `toward_larger_dice` asks first which of
DIRECTIONS points at RING reads the sure dice best, and takes it only when two cues agree: it
reads them clearly better than the centre (RATIO), and it lies within AGREE of the direction in
which the dice grow (they are nearer the camera there). Either cue alone points the wrong way
in photos taken from above; together they rarely do. `find_nadir`, the older search, is kept
for the frames the first declines. `reads_better` is toward_larger_dice's test alone, for a
point found another way that only reading can vouch for (read_learned.py: an axis fit of too
few dice, or of dice that do not agree; `every_find_point`, a fit of every find).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from . import axis
from .detector import SURE, Found

SHRINK = 0.2  # the least change of the dice's size across the frame (its longer side) to search
MIN_DICE = 6  # sure flat dice needed to see the change, and to search
ANCHORS = 6  # sure dice scored per candidate: the farthest from the centre, that show most side
RADII = (0.25, 0.5)  # the candidates' distances from the centre, in frame lengths...
DIRECTIONS = 8  # ...in as many directions
GAIN = 0.05  # the least gain, in mean -log(probability of the face read) per die, to move
RING = 0.35  # toward_larger_dice's candidates' distance from the centre, in frame lengths
RING_ANCHORS = 8  # ...the sure dice it scores them on
RATIO = 0.5  # ...the most cost, against the centre's, of the direction taken
LEAST_GAIN = 0.01  # ...and the least gain in cost
AGREE = 45.0  # ...the most degrees between it and the direction in which the dice grow
CHECKED_RATIO = 0.75  # a point given by a fit: the most cost, against the centre's, to take it
# the least cost any point can read the dice with: a mean of -log(p), p at most 1 but for float32
# rounding; a bar under it is one no point can come under, and is not read against
LEAST_POSSIBLE = -1e-6


def looks_oblique(found: Sequence[Found], shape: tuple) -> bool:
    """Whether the sure flat dice change size across the frame as in an oblique view (a plane
    seen at an angle: the size of a die is an affine function of where it lies)."""
    slope = _size_slope(found, shape)
    if slope is None:
        return False
    c, gx, gy = slope
    return math.hypot(gx, gy) * max(shape[:2]) / c >= SHRINK


def _size_slope(found: Sequence[Found], shape: tuple) -> tuple[float, float, float] | None:
    """The sure flat dice's size as an affine function of where they lie: (size at the centre,
    change per pixel right, per pixel down), or None when too few to tell."""
    flat = [f for f in found if not f.cocked and f.score >= SURE]
    if len(flat) < MIN_DICE:
        return None
    h, w = shape[:2]
    a = np.array([[1.0, f.x - (w - 1) / 2, f.y - (h - 1) / 2] for f in flat])
    (c, gx, gy), *_ = np.linalg.lstsq(a, np.array([f.size for f in flat]), rcond=None)
    return (float(c), float(gx), float(gy)) if c > 0 else None


def toward_larger_dice(
    shape: tuple,
    found: Sequence[Found],
    read_faces: Callable[..., np.ndarray],
    surely: Sequence[int],
) -> tuple[float, float] | None:
    """The point RING frame lengths from the centre, in the direction that reads the sure dice
    (`surely`) best, when that reads them clearly better than the centre and the dice grow
    that way; else None. `read_faces` as for `find_nadir`."""
    slope = _size_slope(found, shape)
    anchors = _farthest(shape, found, surely, RING_ANCHORS)
    if slope is None or len(anchors) < 3:
        return None
    h, w = shape[:2]
    cx, cy, length = (w - 1) / 2, (h - 1) / 2, max(h, w)

    def at(degrees):
        a = math.radians(degrees)
        return (cx + RING * length * math.cos(a), cy + RING * length * math.sin(a))

    def cost(below, over):
        return _cost(read_faces(anchors, below, over))

    step = 360.0 / DIRECTIONS
    grows = math.degrees(math.atan2(slope[2], slope[1]))
    centre, costs = _cost(read_faces(anchors, None)), {}
    if _bar(centre, RATIO) < LEAST_POSSIBLE:
        return None
    agreeing = [k for k in range(DIRECTIONS) if _apart(k * step, grows) <= AGREE]
    for k in agreeing:
        costs[k] = cost(at(k * step), _bar(centre, RATIO))
    # (the best direction is taken only where the dice grow and clearly better than the centre:
    # when no direction there is, no other can be taken, and the other five are not read; and
    # one of those matters only where it reads better than the best of these)
    if not any(_clearly_better(centre, costs[k], RATIO) for k in agreeing):
        return None
    least_agreeing = min(costs.values())
    for k in range(DIRECTIONS):
        if k not in costs:
            costs[k] = cost(at(k * step), least_agreeing)
    best = min(range(DIRECTIONS), key=costs.__getitem__)
    angle, least = best * step, costs[best]
    if not _clearly_better(centre, least, RATIO) or _apart(angle, grows) > AGREE:
        return None
    for half in (angle - step / 2, angle + step / 2):  # half a step either way, if better
        c = cost(at(half), least)
        if c < least:
            angle, least = half, c
    return at(angle)


def reads_better(
    shape: tuple,
    found: Sequence[Found],
    read_faces: Callable[..., np.ndarray],
    surely: Sequence[int],
    below: tuple[float, float],
) -> bool:
    """Whether `below` reads toward_larger_dice's anchors among the sure dice (`surely`) clearly
    better than the centre: the check of a point a fit of too few or disagreeing dice gave
    (read_learned.py), whose direction is often right when its dice are few and their side
    faces misread (session 48: Blender photos tilted 15-35 degrees with 3-7 sure flat dice)."""
    anchors = _farthest(shape, found, surely, RING_ANCHORS)
    if len(anchors) < 3:
        return False
    centre = _cost(read_faces(anchors, None))
    if _bar(centre, CHECKED_RATIO) < LEAST_POSSIBLE:
        return False
    there = _cost(read_faces(anchors, below, _bar(centre, CHECKED_RATIO)))
    return _clearly_better(centre, there, CHECKED_RATIO)


def every_find_point(
    frame: np.ndarray,
    found: Sequence[Found],
    seen: Sequence[int],
    read_faces: Callable[..., np.ndarray],
    kind: str,
    least: float,
) -> tuple[float, float] | None:
    """The axis fit of the finds `seen` (every find the classifier sees a die in, the ones it
    or the detector calls cocked too), if it lies `least` frame lengths off the centre and
    reads them all clearly better. In a photo tilted 15-35 degrees most flat dice read cocked
    about the centre, so the sure ones are too few to fit, while all of them still show their
    side faces to the axis network. A point that flatters cocked dice into faces could pass
    the check too; on fresh renders it flagged more cocked dice, not fewer (session 49: Détrak
    57 to 33 errors, 19 to 20 of 28 cocked; pips 157 to 119, 50 to 53 of 66)."""
    boxes = [(found[i].x, found[i].y, found[i].size) for i in seen]
    below = axis.fit_off_centre(frame, boxes, least, kind)
    if below is None or not reads_better(frame.shape, found, read_faces, seen, below):
        return None
    return below


def _apart(a: float, b: float) -> float:
    """Degrees between two directions, 0 to 180."""
    return abs((a - b + 180) % 360 - 180)


def _bar(centre: float, ratio: float) -> float:
    """The cost a point must come under to read the dice clearly better than the centre."""
    return min(ratio * centre, centre - LEAST_GAIN)


def least_cost(most: np.ndarray) -> float:
    """The least cost the dice can come to, given the most each one's face can be read with:
    a reading whose least cost is over what the caller asks of it (`read_faces`'s `over`)
    cannot change the search's answer."""
    return _cost(most)


def _clearly_better(centre: float, there: float, ratio: float) -> bool:
    """Whether a point's cost `there` beats the centre's by LEAST_GAIN and is under `ratio` of
    it: the centre keeps the benefit of the doubt, since a wrong point costs every die."""
    return centre - there >= LEAST_GAIN and there < ratio * centre


def _cost(probabilities: np.ndarray) -> float:
    """Mean -log(probability of the face read) per die: how unsurely a point reads them."""
    return float(-np.log(np.maximum(probabilities, 1e-6)).mean())


def _farthest(shape: tuple, found: Sequence[Found], surely: Sequence[int], n: int) -> list[int]:
    """The n of `surely` farthest from the centre: they show most side."""
    h, w = shape[:2]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    return sorted(surely, key=lambda i: -math.hypot(found[i].x - cx, found[i].y - cy))[:n]


def find_nadir(
    shape: tuple,
    found: Sequence[Found],
    read_faces: Callable[..., np.ndarray],
    surely: Sequence[int],
) -> tuple[float, float] | None:
    """The candidate point below the camera that reads the sure dice (indices `surely` into
    `found`) best, or None to keep the frame's centre. `read_faces(indices, below, over)` gives,
    for each die, the probability of the face the classifier reads with that point (below None:
    the centre, read already). `over`: a cost (`_cost`) the search's answer does not change
    above; where the first network's reading shows the dice cannot come under it (least_cost
    of the most the route's others could make of each), the reading may be that network's
    alone, whose cost is as far over (session 67: the others read most of a search's crops).
    A centre that reads them within GAIN of certainty cannot be beaten, and nothing is read
    (session 71: a camera above the table whose one misread die sends it here)."""
    h, w = shape[:2]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    anchors = _farthest(shape, found, surely, ANCHORS)
    if len(anchors) < 3:
        return None

    best, best_cost = None, _cost(read_faces(anchors, None)) - GAIN
    if best_cost < LEAST_POSSIBLE:  # the centre reads them so surely that no point can gain
        return None
    length = max(h, w)
    for r in RADII:
        for k in range(DIRECTIONS):
            a = 2 * math.pi * k / DIRECTIONS
            below = (cx + r * length * math.cos(a), cy + r * length * math.sin(a))
            c = _cost(read_faces(anchors, below, best_cost))
            if c < best_cost:
                best, best_cost = below, c
    return best
