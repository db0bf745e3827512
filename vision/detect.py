"""Where the dice are: the blobs of a frame that are not table, each fitted with a rotated square.

The table (foam, felt, card, wood, a printed tray, the box's bottom) is whatever colours cover the
frame's border or most of its area: a few k-means clusters of the frame's Lab colours. A die is
anything else, plus any closed outline the edge detector finds (a white die on white card differs
from it only by its shadow and rounded edges). Touching dice are parted along the edges between
them, then by splitting a blob too big for one die into as many parts as dice it can hold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.blobs import (
    BLUR_GROWTH,
    HOLDER,
    closed_outlines,
    crowded,
    cut_into_dice,
    filled_blobs,
    parted,
    typical_side,
)
from vision.table import TableModel, learn

WORK_SIDE = 640  # longest side of the image the dice are first looked for in
USUAL_WORK_DIE = 22.0  # the dice's side in the working image the windows below are made for
BIG_WORK_DIE = 32.0  # dice bigger than this get a background of windows grown to match
MIN_WORK_DIE = 16.0  # dice smaller than this in the working image: look again at a finer scale
MAX_DIE = 220.0  # the largest die side looked for, frame pixels (the issue says 150)
MAT_SHARE = 0.012  # a smooth 'not table' region this big (share of the frame) is a mat
MAT_SOLIDITY = 0.9
MAT_BOX_SHARE = 0.12  # a square 'mat' must be this big (share of the frame) not to be a big die
BG_STEP = 4  # the local background is a median on the working image shrunk this many times
BG_WINDOWS = (11, 21)  # ...over this many of its pixels: two and four dice at 640 px
DARK_WINDOWS = (7,)  # ...and for dark dice over this many too
CLOSING = 15  # disc (quarter-size pixels) of the closing that gives the lightness under dark dice
FG_DISTANCE = 16.0  # Lab units from the local background for a pixel to be something on it...
FG_NOISE = 4.0  # ...and this many times the frame's median distance (a grainy table's)
SHADOW_FLOOR = 0.42  # a shadow keeps at least this share of the table's lightness...
SHADOW_CHROMA = 12.0  # ...and its colour (Lab a, b within this)
STANDS_OUT = 10.0  # Lab units between a blob's median colour and that of the table around it
MODEL_STEP = 4  # the table's colours are learned on the working image shrunk this many times


@dataclass(frozen=True)
class Candidate:
    """A blob that may be a die, in full-frame pixels: rotated box centre, sides and angle."""

    x: float
    y: float
    w: float
    h: float
    angle: float
    area: float  # pixels of the blob itself
    touches_border: bool
    contour: np.ndarray | None = field(default=None, compare=False, repr=False)  # working px

    @property
    def side(self) -> float:
        return (self.w + self.h) / 2.0

    @property
    def aspect(self) -> float:
        return max(self.w, self.h) / max(min(self.w, self.h), 1.0)

    @property
    def rectangularity(self) -> float:
        return self.area / max(self.w * self.h, 1.0)


@dataclass(frozen=True)
class Prepared:
    """A frame made ready for looking: shrunk, smoothed, in Lab, with the table under it."""

    work: np.ndarray  # BGR, smoothed
    lab: np.ndarray
    scale: float  # working pixels per frame pixel
    small: np.ndarray  # Lab, the working image shrunk MODEL_STEP times (the table's colours)
    model_scale: float  # small's pixels per frame pixel
    background: np.ndarray | None = None  # the table under everything, Lab float32 (working px)
    dark: bool = False  # whether the dice are darker than the table
    _model: list = field(default_factory=list, compare=False, repr=False)

    @property
    def model(self) -> TableModel:
        """The table's colours (k-means): learned only when asked (the arena needs them)."""
        if not self._model:
            self._model.append(learn(self.small))
        return self._model[0]


def work_scale(shape: tuple[int, ...], die_size: float | None = None) -> float:
    """The factor from frame to working image: small enough to be fast, large enough for small dice."""
    longest = max(shape[0], shape[1])
    scale = min(1.0, WORK_SIDE / longest)
    if die_size:
        scale = min(1.0, max(scale, MIN_WORK_DIE * 1.4 / die_size))
    return scale


def prepare(
    bgr: np.ndarray, scale: float, reuse: Prepared | None = None, dark_dice: bool | None = None
) -> Prepared:
    if scale == 1.0:
        work = bgr
    else:
        w, h = round(bgr.shape[1] * scale), round(bgr.shape[0] * scale)
        work = cv2.resize(bgr, (w, h), interpolation=cv2.INTER_AREA)
    work = cv2.GaussianBlur(work, (3, 3), 0)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB)
    if reuse is not None:
        return Prepared(
            work,
            lab,
            scale,
            reuse.small,
            reuse.model_scale,
            *background(lab, dark_dice),
            reuse._model,
        )
    h, w = lab.shape[:2]
    small = cv2.resize(
        lab, (max(8, w // MODEL_STEP), max(8, h // MODEL_STEP)), interpolation=cv2.INTER_AREA
    )
    return Prepared(
        work, lab, scale, small, small.shape[1] / bgr.shape[1], *background(lab, dark_dice)
    )


def find_candidates(
    bgr: np.ndarray,
    die_size: float | None = None,
    prepared: Prepared | None = None,
    dark_dice: bool | None = None,
) -> tuple[list[Candidate], Prepared]:
    """Rotated boxes of every blob that may be a die (full-frame pixels), and the prepared frame.

    Looks once at a coarse scale; when the dice turn out small there, looks again at a finer one.
    """
    prep = prepared or prepare(bgr, work_scale(bgr.shape, die_size), dark_dice=dark_dice)
    found, side = _look(prep, die_size)
    if side and side < MIN_WORK_DIE and prep.scale < 1.0 and not die_size:
        finer = min(1.0, prep.scale * MIN_WORK_DIE * 1.4 / side)
        prep = prepare(bgr, finer, prep, dark_dice)
        found, _ = _look(prep, None)
    elif side and side > BIG_WORK_DIE:
        # dice as big as the background's windows fill them: take the median over a coarser copy
        step = int(round(BG_STEP * side / USUAL_WORK_DIE))
        bg, dark = background(prep.lab, dark_dice, step)
        prep = replace(prep, background=bg, dark=dark)
        found, _ = _look(prep, die_size)
    return found, prep


def _look(prep: Prepared, die_size: float | None) -> tuple[list[Candidate], float | None]:
    scale = prep.scale
    fg = foreground(prep)
    gray = cv2.cvtColor(prep.work, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(gray, 40, 110)
    fg = cv2.bitwise_or(fg, closed_outlines(edges, (MAX_DIE * scale) ** 2))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))  # pips at the edge
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    fg = _mats_are_table(fg, prep.lab, fg.size * MAT_SHARE)
    min_area = max(20.0, (die_size * scale * 0.45) ** 2 if die_size else 20.0)
    too_big = HOLDER * max(fg.shape)
    blobs = [
        b
        for b in filled_blobs(fg, min_area)
        if min(cv2.minAreaRect(b)[1]) < too_big and _stands_out(b, prep.lab)
    ]
    side = die_size * scale if die_size else typical_side(blobs)
    pieces = []
    for contour in blobs:
        pieces.extend(
            parted(contour, side, edges, min_area) if crowded(contour, side) else [contour]
        )
    if side is None:
        side = typical_side(pieces)
    out: list[Candidate] = []
    for piece in pieces:
        for part in cut_into_dice(piece, side):
            out.append(_candidate(part, scale, fg.shape))
    return _sort_out(out, side / scale if side else None), side


def background(
    lab: np.ndarray, dark_dice: bool | None = None, step: int = 0
) -> tuple[np.ndarray, bool]:
    """The table under the dice: a median over a window of a few dice, on a quarter-size copy,
    taken twice: the second time with what the first found on the table painted over.

    A median keeps the table's own edges (the arena's rim, a tray's wall) sharp while dice, being
    small against the window, drop out of it; painting them over keeps a die by a wall from
    darkening the wall's side of the table. Lab float32, the size of `lab`.
    """
    h, w = lab.shape[:2]
    step = step or BG_STEP
    small = cv2.resize(lab, (max(8, w // step), max(8, h // step)), interpolation=cv2.INTER_AREA)
    meds = {k: cv2.medianBlur(small, k).astype(np.float32) for k in BG_WINDOWS + DARK_WINDOWS}
    # Where they disagree, either a heap of dice fills the nearer windows (a wider one is right)
    # or a wall fills the wider ones (a nearer one is right). Dice differ from the table the way
    # the frame's things do: the table is the lightest of them under dark dice, the darkest under
    # light ones.
    if dark_dice is None:
        dark_dice = _dice_are_dark(small.astype(np.float32), meds[BG_WINDOWS[-1]])
    # under dark dice a window as small as a die still shows the table at its lightest: a die's
    # centre is dark in it, the table beside a wall is not
    picked = [meds[k] for k in (DARK_WINDOWS + BG_WINDOWS if dark_dice else BG_WINDOWS)]
    light = np.stack([m[..., 0] for m in picked])
    pick = light.argmax(axis=0) if dark_dice else light.argmin(axis=0)
    bg = np.choose(pick[..., None], picked)
    if dark_dice:
        # the table's lightness under dark dice: a grey closing fills every dark thing narrower
        # than its disc (dice, heaps of them) and keeps the wider ones (the box, the rim) whole,
        # with their edges where they are
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (CLOSING, CLOSING))
        bg[..., 0] = cv2.morphologyEx(small[..., 0], cv2.MORPH_CLOSE, disc)
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR), bool(dark_dice)


def on_table(prep: Prepared, lab: tuple[float, float, float], x: float, y: float) -> bool:
    """Whether a colour seen at frame point (x, y) is the table's colour there."""
    if prep.background is None:
        return False
    h, w = prep.background.shape[:2]
    i = min(h - 1, max(0, int(y * prep.scale)))
    j = min(w - 1, max(0, int(x * prep.scale)))
    return float(np.linalg.norm(prep.background[i, j] - np.asarray(lab, np.float32))) < FG_DISTANCE


def _stands_out(contour: np.ndarray, lab: np.ndarray) -> bool:
    """Whether a blob differs from the table just around it: a die does; the table itself, where
    the background missed a corner of a tray or a bend of the rim, does not."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = max(3, int(0.3 * max(w, h)))
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(lab.shape[1], x + w + pad), min(lab.shape[0], y + h + pad)
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(inside, [contour - [x0, y0]], -1, 255, -1)
    ring = cv2.dilate(inside, np.ones((2 * pad + 1, 2 * pad + 1), np.uint8)) & ~inside
    window = lab[y0:y1, x0:x1].astype(np.float32)
    if not ring.any():
        return True
    own = np.median(window[inside > 0], axis=0)
    around = np.median(window[ring > 0], axis=0)
    return float(np.linalg.norm(own - around)) > STANDS_OUT


def _dice_are_dark(lab: np.ndarray, bg: np.ndarray) -> bool:
    """Whether what stands out of the table is mostly darker than it (black Strike dice, blue
    dice) or lighter (white, ivory dice). Shadows, darker but of the table's hue, do not vote,
    nor do the long things (walls, the rim, grain)."""
    diff = lab - bg
    chroma = np.sqrt(diff[..., 1] ** 2 + diff[..., 2] ** 2)
    shadow = (
        (diff[..., 0] < 0) & (lab[..., 0] > SHADOW_FLOOR * bg[..., 0]) & (chroma < SHADOW_CHROMA)
    )
    things = (np.sqrt((diff**2).sum(axis=2)) > FG_DISTANCE) & ~shadow
    things = _compact(things.astype(np.uint8), max(lab.shape[:2]) // 8) > 0  # not walls, rims
    if not things.any():
        return False
    return float(np.median(diff[..., 0][things])) < 0


def _compact(mask: np.ndarray, longest: int) -> np.ndarray:
    """The regions of a mask no longer than `longest` pixels: things on the table, not its lines."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    small = np.zeros(n, np.uint8)
    sizes = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    small[1:] = (sizes[1:] <= longest).astype(np.uint8)
    return small[labels]


def foreground(prep: Prepared) -> np.ndarray:
    """255 where the frame is not its table: far from the local background in Lab, and not merely
    the table in a die's shadow (darker, same hue)."""
    bg = prep.background.clip(0, 255).astype(np.uint8)
    diff = cv2.absdiff(prep.lab, bg).astype(np.float32)
    sq = cv2.multiply(diff, diff)
    dist2 = cv2.transform(sq, np.ones((1, 3), np.float32))
    chroma2 = cv2.transform(sq, np.array([[0, 1, 1]], np.float32))
    light, table = prep.lab[..., 0], bg[..., 0]
    floor = cv2.convertScaleAbs(table, alpha=SHADOW_FLOOR)
    shadow = (light < table) & (chroma2 < SHADOW_CHROMA**2)
    if prep.dark:  # a black die is darker than any shadow; under light dice all that is darker
        shadow &= light > floor  # and of the table's hue is shadow (or a die's own side)
    noise = float(np.sqrt(np.median(dist2[::4, ::4])))
    fg = (dist2 > max(FG_DISTANCE, FG_NOISE * noise) ** 2) & ~shadow
    return fg.view(np.uint8) * np.uint8(255)


def _sort_out(cands: list[Candidate], side: float | None) -> list[Candidate]:
    """Drop the pieces that are no die: specks, and the side faces a flat die shows in perspective.

    A flat die seen off-centre shows slivers of its sides next to its top face; a thin piece lying
    against a piece that is a whole top face is such a sliver. Thick leftover pieces stay: they may
    be the halves of a cocked die, which the reader flags.
    """
    if side is None:
        return cands
    tops = [c for c in cands if c.aspect < 1.25 and 0.7 * side < c.side < 1.35 * side]
    keep = []
    for c in cands:
        if c.area < (0.4 * side) ** 2 or min(c.w, c.h) > MAX_DIE:
            continue  # a speck; a tray, a mat, a box
        if c in tops:
            keep.append(c)
            continue
        thin = min(c.w, c.h) < 0.6 * side
        beside = any(math.hypot(c.x - t.x, c.y - t.y) < 1.0 * side for t in tops)
        if thin and beside:
            continue
        keep.append(c)
    return keep


def _mats_are_table(fg: np.ndarray, lab: np.ndarray, too_big: float) -> np.ndarray:
    """A smooth 'not table' region far bigger than any heap of dice is a mat (or the box's rim)
    the colour model missed: its own colour becomes table there, what differs (dice) stays."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    big = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] > too_big]
    out = fg
    for i in big:
        comp = labels == i
        contours, _ = cv2.findContours(
            comp.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
        )
        outer = max(contours, key=cv2.contourArea)
        area = cv2.contourArea(outer)
        (_, _), (w, h), _ = cv2.minAreaRect(outer)
        if area < MAT_SOLIDITY * cv2.contourArea(cv2.convexHull(outer)):
            continue  # not smooth: a heap of dice
        if area > 0.86 * w * h and area < MAT_BOX_SHARE * fg.size:
            continue  # square: one big die (a box or a tray is far bigger)
        pixels = lab[comp].astype(np.float32)
        colour = np.median(pixels, axis=0)
        dist = np.sqrt(((lab.astype(np.float32) - colour) ** 2).sum(axis=2))
        spread = float(np.median(dist[comp]))
        out = out.copy() if out is fg else out
        out[comp & (dist < max(3.0 * spread, 12.0))] = 0
    return out


def _candidate(contour: np.ndarray, scale: float, shape: tuple[int, ...]) -> Candidate:
    (x, y), (w, h), angle = cv2.minAreaRect(contour)
    w, h = max(1.0, w - BLUR_GROWTH), max(1.0, h - BLUR_GROWTH)
    bx, by, bw, bh = cv2.boundingRect(contour)
    border = bx <= 1 or by <= 1 or bx + bw >= shape[1] - 1 or by + bh >= shape[0] - 1
    area = cv2.contourArea(contour)
    return Candidate(
        x=(x + 0.5) / scale - 0.5,
        y=(y + 0.5) / scale - 0.5,
        w=w / scale,
        h=h / scale,
        angle=float(angle),
        area=area / scale / scale,
        touches_border=bool(border),
        contour=contour,
    )


def pieces_of(prep: Prepared, c: Candidate, side: float) -> list[Candidate]:
    """A blob cut along the edges inside it: a flat die's top face apart from the side faces
    and the shadow the blob also holds (a camera near the table sees those large)."""
    if c.contour is None:
        return []
    x, y, w, h = cv2.boundingRect(c.contour)
    pad = 2
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(prep.work.shape[1], x + w + pad), min(prep.work.shape[0], y + h + pad)
    gray = cv2.cvtColor(prep.work[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    edges = np.zeros(prep.work.shape[:2], np.uint8)
    edges[y0:y1, x0:x1] = cv2.Canny(gray, 30, 90)
    parts = parted(c.contour, side * prep.scale, edges, 20.0)
    return [_candidate(p, prep.scale, prep.work.shape) for p in parts if len(parts) > 1]
