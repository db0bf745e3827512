"""Finding the dice of a frame with the learned detector (models/dice.onnx), run by OpenCV's dnn.

The network was taught dice of DIE_PX_RANGE pixels at its input, and the reader does not know the
dice's size before it has found them, so it looks coarse to fine: first the frame shrunk to
FIRST pixels (dice that fill a good share of the frame are found there), and SECOND (made
first: when it sees many dice small, they would be specks at FIRST, and it is the one look).
Of the looks whose sure finds are of a size the network sees well, the one with the most sure
finds is kept (a print on the tray, found alone and large at the first look, loses to the dice);
when the look with the most sure finds is not one of them, its dice's size gives the scale of
a third, which joins them. A known size (calibration, or the
dice of the last frame) skips straight to the right scale: one look.
"""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.learned.finds import SURE, Found, decode
from vision.learned.onnx_net import read_onnx
from vision.learned.pips_or_dice import likeliest
from vision.shrink import shrink

MODELS = Path(__file__).parent / "models"
ONNX_PATH = MODELS / "dice.onnx"
META_PATH = MODELS / "dice.json"
FIRST = 192  # longest side of the first look (big dice: up to a quarter of the frame)
SECOND = 384  # ...and of the second (dice from 1/40 of the frame)
WANT_PX = 15.0  # the dice's side at the network's input in the final look
GOOD_PX = (10.0, 28.0)
CAPPED_PX = 7.0  # the nearest look a big frame allows is good from this size (rule 178)
BIG_PX = 45.0  # dice seen up to this big are still well seen (the network was taught to 60)
SMALLEST = 18.0  # the smallest dice to find, in frame pixels (issue 5: 18 to 150 px)
# ...and more than the largest, with the detector's error on a die's size. (The classical
# reader's vision/detect.py MAX_DIE, 220, bounds a blob's width, another measure: at 220 here the
# Blender Strike scenes missed 16 dice instead of 7, the box's size being estimated at 200-220.)
LARGEST = 200.0
ALONE_PX = WANT_PX  # a second look seeing more than FEW sure dice at GOOD_PX[0] to this size is
# made alone: the first look would see them ~1.7 times smaller, too small to be good or big...
ALONE_SIZES = 1.5  # ...if no find is this many times their median size: a die whose pips they
# may be (the first look judges that: pips_or_dice.likeliest); rule 157
SPECKS = 0.25  # a look shrinking the frame more than this makes 18 px dice specks of < 5 px
FEW = 2  # sure finds so few that they may be a heap of tiny dice seen as one or two
REFINE = 3  # looks at most after the first two
MAX_INPUT_PX = 2_400_000  # the most input pixels a look may cost (4032 x 3024 frames;
# with find_dice(..., whole=True) a frame over it may be looked at its own size: _most_scale)
MAX_UPSCALE = 1.5
NEAR_PX = 12.0  # a good look seeing its dice smaller than this, and an unsure find, has one
# look nearer (session 22: a heap of small dice seen as one die is an unsure find)
NEARER_SEES = (3, 1.5)  # ...taken if it sees this many more sure dice, and this many times as many
NEARER_MANY = 10  # ...not made where a look sees this many sure dice and fewer unsure finds than
# that gain (rule 218)
SAME_FIND = 0.6  # a find this near another's centre, in its sides, is the same die
CLOSER_ZOOM = 1.6  # a closer look sees its die this many times WANT_PX...
CLOSER_SPAN = 3.0  # ...on a window this many of its sides either way of the find
_lock = threading.Lock()


def available() -> bool:
    return ONNX_PATH.exists() and META_PATH.exists()


@lru_cache(maxsize=1)
def _meta() -> dict:
    return json.loads(META_PATH.read_text())


@lru_cache(maxsize=1)
def _net():
    if not available():
        raise FileNotFoundError(
            f"{ONNX_PATH} is missing: train it with `python -m vision.learned.detect_train`"
        )
    return read_onnx(ONNX_PATH)


def find_dice(
    frame: np.ndarray,
    die_size: float | None = None,
    base: np.ndarray | None = None,
    nearer: bool = False,
    whole: bool = False,
    hinted_px: float = WANT_PX,
    capped: bool = False,
) -> list[Found]:
    """Every die the detector finds in a BGR frame; `die_size` (frame px) if known; `base`, the
    frame's overview() if the caller has made it already; `nearer`: a look nearer when the dice
    are seen small (_look_nearer); `whole`: looks may take a frame over MAX_INPUT_PX at its own
    size (_most_scale); `capped`: the nearest look the frame allows is good from CAPPED_PX (_good),
    and the dice it sees too small for that are looked for whole too (_tiny, _off_all).
    The reader asks for these three for the kinds they help; and, with a known size, for the one
    look to see the dice at `hinted_px` (rule 160)."""
    h, w = frame.shape[:2]
    top = _most_scale(h, w, whole)
    if die_size:
        return look(frame, min(hinted_px / die_size, top))
    first, second = (min(side / max(h, w), top) for side in (FIRST, SECOND))
    if base is None:
        base = overview(frame)  # the first look shrinks this copy, not the whole frame again
    near = _look_at(frame, second, base)
    looks = [near] if _alone(near) else [_look_at(frame, first, base), near]
    while _closer_helps(looks, top):
        looks.append(_look_at(frame, min(looks[-1].scale * 2.0, top)))
    seen = [lk for lk in looks if lk.px]
    if not seen:
        return looks[-1].found
    cap = top if capped else None
    good = [lk for lk in seen if _good(lk, cap)]
    # (of looks seeing as many dice, a good one: the far look seeing all 20 dice of a frame at
    # 7 px must not send for a third look at the scale of the second)
    most = _refine(frame, max(seen, key=lambda lk: (lk.sure, lk in good)), seen, good, top, cap)
    if nearer and most in good and most.px < NEAR_PX and _may_see_more(most):
        _look_nearer(frame, most, seen, good, top, cap)
    big = [lk for lk in seen if GOOD_PX[1] < lk.px <= BIG_PX]
    found = likeliest(good or [_nearest_good(seen)], big).found
    if capped and not whole and _tiny(found, top):
        whole_found = find_dice(frame, base=base, nearer=nearer, whole=True, capped=True)
        found = found + _off_all(whole_found, found)
    return found


def _good(lk: _Look, cap: float | None = None) -> bool:
    """Whether a look sees its dice at a good size: GOOD_PX; or, given `cap`, the largest scale
    the frame allows, from CAPPED_PX there (the least the network was taught). A 4032 px photo
    of 21 px dice is 2.4 Mpx at most, 9.5 px dice: that look saw all 21 sure, and lost to a
    farther one seeing 3 heaps of them at 11 px (Détrak seed 190 scene 109; rule 178)."""
    if not lk.px:
        return False
    if GOOD_PX[0] <= lk.px <= GOOD_PX[1]:
        return True
    return cap is not None and abs(lk.scale / cap - 1) < 0.01 and CAPPED_PX <= lk.px < GOOD_PX[0]


def _tiny(found: list[Found], top: float) -> bool:
    """Whether a frame over MAX_INPUT_PX was read with its sure dice under GOOD_PX[0] at the
    nearest look it allows: a 4032 px photo of 18-22 px dice. Dice in heaps are not found there
    (rule 181: on 150 such Détrak scenes, 48 of 113 errors were flat dice never found)."""
    sure = [f.size for f in found if f.score >= SURE]
    return top < 1.0 and bool(sure) and float(np.median(sure)) * top < GOOD_PX[0]


def _off_all(more: list[Found], found: list[Found]) -> list[Found]:
    """The finds of `more` lying off every find of `found` (SAME_FIND of the larger side).
    Only these are taken from the whole look: seen at full size, tiny cocked dice read as faces
    and more faces are read surely wrong (looking whole, session 59's rule 168 and rule 181's
    first candidates), so the first look's finds are kept as they are."""
    return [
        g
        for g in more
        if all(math.hypot(g.x - f.x, g.y - f.y) >= SAME_FIND * max(f.size, g.size) for f in found)
    ]


def _alone(lk: _Look) -> bool:
    """Whether the second look is enough: its many sure dice too small to be seen well from
    further, and no find among them big enough to be a die holding them as pips."""
    if not (lk.px and GOOD_PX[0] <= lk.px <= ALONE_PX and lk.sure > FEW):
        return False
    return max(f.size for f in lk.found) * lk.scale <= ALONE_SIZES * lk.px


def _refine(
    frame: np.ndarray, most: _Look, seen: list, good: list, top: float, cap: float | None
) -> _Look:
    """Looks (REFINE at most, added to `seen` and `good`, at scales up to `top`) until one sees
    the dice of `most`, the look seeing the most of them, at a good size; the last look."""
    for _ in range(REFINE):  # the look that sees the most dice sees them too small or too big
        if most in good:
            break
        k = WANT_PX / most.px
        if most.px < GOOD_PX[0]:
            k = max(k, 1.5)  # (tiny dice are seen bigger than they are: zoom in at least this)
        scale = min(most.scale * k, top)
        if abs(scale / most.scale - 1) < 0.1:
            break  # as near as the frame allows
        near = [lk for lk in seen if abs(scale / lk.scale - 1) < 0.1]
        if near:
            most = near[0]  # looked there already
            break
        most = _look_at(frame, scale)
        if not most.px:
            break
        _seen(most, seen, good, cap)
    return most


def _look_nearer(
    frame: np.ndarray, most: _Look, seen: list, good: list, top: float, cap: float | None
) -> None:
    """A look at the scale that shows `most`'s dice at WANT_PX and, if it sees many more sure
    dice (NEARER_SEES), the looks that bring them to a good size (added to `seen` and `good`).
    A look seeing its "dice" at 10-12 px may be seeing heaps of tiny dice as one: a 4032 px
    photo of 55 px Détrak dice, 5 px at the second look, saw them at 11.6 px and found 7 of
    23 (session 22). One or two more sure dice do not count: taking such looks (at 13 px)
    changed as many readings for the worse as for the better on seeds 1 and 3."""
    scale = min(most.scale * WANT_PX / most.px, top)
    if scale < most.scale * 1.1 or any(abs(scale / lk.scale - 1) < 0.1 for lk in seen):
        return
    nearer = _look_at(frame, scale)
    if nearer.sure - most.sure >= _gain_needed(most):
        _refine(frame, _seen(nearer, seen, good, cap), seen, good, top, cap)


def _gain_needed(lk: _Look) -> float:
    """The sure dice more than `lk`'s a look nearer must see to be taken (NEARER_SEES)."""
    more, times = NEARER_SEES
    return max(more, (times - 1) * lk.sure)


def _may_see_more(lk: _Look) -> bool:
    """Whether a look nearer may see NEARER_SEES more sure dice: heaps seen as dice come few
    (a 4032 px photo of 22 heaped dice: 3 sure finds, Détrak seed 263 scene 26), and where a look
    sees NEARER_MANY sure dice, the gain can come only from its unsure finds. On read seeds 0-2
    no look nearer made from such a look was taken, and it costs 11-17 ms (rule 218)."""
    unsure = len(lk.found) - lk.sure
    return unsure > 0 and (lk.sure < NEARER_MANY or unsure >= _gain_needed(lk))


def _seen(lk: _Look, seen: list, good: list, cap: float | None) -> _Look:
    if lk.px:
        seen.append(lk)
        if _good(lk, cap):
            good.append(lk)
    return lk


def look_closer(frame: np.ndarray, f: Found) -> Found | None:
    """The die of find `f` found again, seen CLOSER_ZOOM times bigger on a window around it,
    or None if that look finds nothing within SAME_FIND of a side. Among dice touching others
    the frame's look puts a centre up to half a side off and often calls the die cocked (the
    edge of a neighbour looks like a side face, session 19); seen closer, the centre is right
    more often, and the classifier reads the crop it was taught."""
    h, w = frame.shape[:2]
    r = CLOSER_SPAN * f.size
    x0, y0 = max(0, int(f.x - r)), max(0, int(f.y - r))
    x1, y1 = min(w, int(f.x + r) + 1), min(h, int(f.y + r) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    window = np.ascontiguousarray(frame[y0:y1, x0:x1])
    # (a window is small: no bound on input pixels, and a die under 8 px may be enlarged 3 times)
    scale = min(WANT_PX * CLOSER_ZOOM / f.size, 2 * MAX_UPSCALE)
    near = [
        replace(g, x=g.x + x0, y=g.y + y0)
        for g in look(window, scale)
        if math.hypot(g.x + x0 - f.x, g.y + y0 - f.y) < SAME_FIND * f.size
    ]
    return max(near, key=lambda g: g.score, default=None)


def _nearest_good(seen: list[_Look]) -> _Look:
    """When no look sees its dice at a good size: of the looks seeing at least half as many
    sure dice as the best, the one whose dice are nearest a good size (a look at dice a little
    too small, as near as a big frame allows, beats the far look that chose it). Not of all
    looks: a far look's one sure "die", a heap of twelve tiny dice, is nearer a good size
    than the thirteen dice seen at 8 px (session 10: a 4032 px Détrak photo read as one die)."""
    most = max(lk.sure for lk in seen)
    return min((lk for lk in seen if 2 * lk.sure >= most), key=_off_good)


def _closer_helps(looks: list[_Look], top: float) -> bool:
    """Whether to look closer: when the closest look yet has seen no sure die, or only FEW,
    and an 18 px die would still be too small there. Tiny dice in a big frame (a 4032 px photo
    of 18 px dice) are no more than specks at the first looks, which may see nothing, only the
    Strike arena as one big die, or a heap of them as one or two dice; unsure finds are often
    tiny dice that, seen closer, are sure. FEW sure finds alone look closer too since session
    52 (rule 125): a heap of 18 px dice in a 1920 px frame was one sure "die" and the lone dice
    nothing at all, and the frame was read empty (pips seed 110 scene 97, Détrak seed 34 scene
    40). It costs a photo of two dice a look more: 8-9 ms to 30-32 ms at 1280 x 960 (the
    watcher's later readings are hinted with the dice's size: one look)."""
    last = looks[-1]
    if min(last.scale * 2.0, top) < last.scale * 1.2:
        return False  # as near as the frame allows
    small = last.scale * SMALLEST < GOOD_PX[0]
    if not last.px:
        if len(looks) == 2 and last.found:
            return True
        # nothing at all: only a frame shrunk past SPECKS can hide dice that leave no trace (an
        # empty Strike arena at 1280 px must stay two looks: it is read at every still frame)
        return small and (bool(last.found) or last.scale < SPECKS)
    return small and last.sure <= FEW


def _off_good(lk: _Look) -> float:
    """How far a look's dice are from the sizes the network sees well, as a ratio."""
    return max(GOOD_PX[0] / lk.px, lk.px / GOOD_PX[1], 1.0)


@dataclass(frozen=True)
class _Look:
    scale: float
    found: list[Found]
    px: float | None  # the median side of its sure finds, in network pixels
    sure: int  # how many sure finds


def _look_at(frame: np.ndarray, scale: float, base: np.ndarray | None = None) -> _Look:
    """One look, without the finds too big to be a die (LARGEST: a far look at a 4032 px
    photo saw the Strike box, holding three 20 px dice, as one 257 px die, and looked no
    closer: session 12's Blender scenes)."""
    found = [f for f in look(frame, scale, base) if f.size <= LARGEST]
    sure = [f.size for f in found if f.score >= SURE]
    px = float(np.median(sure)) * scale if sure else None
    return _Look(scale, found, px, len(sure))


def _most_scale(h: int, w: int, whole: bool = False) -> float:
    """The largest scale a look of an h x w frame may take: MAX_INPUT_PX input pixels at most,
    MAX_UPSCALE; `whole`, the frame at its own size even over MAX_INPUT_PX. A 4032 px photo of
    pip dice seen from far off may hold 11-20 px dice, 5-9 px at 2.4 Mpx: seen whole, the 55
    such photos of three seeds were read with 18 errors instead of 30 and 49 cocked dice of 51
    flagged instead of 46, at 0.3 s more each (session 23; Détrak's lost a cocked die, Strike's
    did not change)."""
    most = (MAX_INPUT_PX / float(h * w)) ** 0.5
    return float(min(max(most, 1.0) if whole else most, MAX_UPSCALE))


def overview(frame: np.ndarray) -> np.ndarray:
    """The frame as the second look sees it (longest side SECOND px): the first look, and any
    caller that wants a small copy of the frame (the arena), shrink this one, not the frame."""
    h, w = frame.shape[:2]
    return resized(frame, min(SECOND / max(h, w), _most_scale(h, w)))


def resized(frame: np.ndarray, scale: float, base: np.ndarray | None = None) -> np.ndarray:
    """The frame resized by `scale`, area-averaged: from `base` when given (a copy of the frame
    already shrunk, no smaller than asked: area averages of area averages are nearly the same
    pixels, made from far fewer), else by whole factors first (vision/shrink.py). Training
    resized in one step (detect_data); the bench's figures were measured this way."""
    h, w = frame.shape[:2]
    sw, sh = max(16, round(w * scale)), max(16, round(h * scale))
    src = base if base is not None and base.shape[1] >= sw and base.shape[0] >= sh else frame
    if src.shape[:2] == (sh, sw):
        return src
    if src is frame and sw * 2 <= w:
        return shrink(frame, (sw, sh))
    interp = cv2.INTER_AREA if sw < src.shape[1] else cv2.INTER_LINEAR
    return cv2.resize(src, (sw, sh), interpolation=interp)


def look(frame: np.ndarray, scale: float, base: np.ndarray | None = None) -> list[Found]:
    """The dice found with the frame resized by `scale` (see resized for `base`)."""
    meta = _meta()
    h, w = frame.shape[:2]
    small = resized(frame, scale, base)
    sh, sw = small.shape[:2]
    m = int(meta["multiple"])
    pw, ph = -(-sw // m) * m, -(-sh // m) * m
    if (pw, ph) != (sw, sh):
        small = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_REPLICATE)
    blob = cv2.dnn.blobFromImage(
        small, float(meta["scale"]), mean=(meta["mean"],) * 3, swapRB=False
    )
    with _lock:
        net = _net()
        net.setInput(blob)
        maps = np.asarray(net.forward(), np.float32)[0]
    sx, sy = sw / w, sh / h
    return decode(maps, meta, sx, sy, (sw, sh))
