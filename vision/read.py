"""`read(frame, dice, calibration, arena)`: every die in one frame, with its face and confidence.

The steps: find the arena (vision/arena.py), find die-shaped blobs (vision/detect.py), call a blob
cocked when its outline is not the square of a die lying flat, and otherwise read the marks of its
top face from an upright patch cut out of the full-resolution frame (vision/marks.py,
vision/faces.py). Nothing is loaded from disk, so reading many frames costs nothing extra.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace

import cv2
import numpy as np

from vision import read_learned, second_opinion
from vision.arena import find_arena, find_arena_near
from vision.calibration import Calibration
from vision.confidence import calibrated
from vision.detect import Candidate, Prepared, find_candidates, on_table, pieces_of
from vision.faces import read_face
from vision.learned.detector import overview
from vision.marks import PATCH, find_marks, marks_centre
from vision.readings import Die, Ellipse, Readings, check_kind
from vision.topface import MISFIT, Top, fit_dice, top_face

FACE_SPAN = 1.2  # the patch a face is read from shows this many die sides (size errors)
CANVAS = 1.35  # the cut looked at to re-centre a face, in die sides
CANVAS_PX = round(PATCH * CANVAS)
MIN_RECTANGULARITY = 0.6  # blob area over its rotated box: a die's rounded square is ~0.95
TABLE_FACE_RECTANGULARITY = 0.88  # ...and a die the table's own colour must be cleanly square
RETRY_BELOW = 0.3  # a face read less surely than this is looked for at the blob's other ends
RETRY_SIZE = 1.8  # ...when the blob is no bigger than this many dice
ENDS_PENALTY = 0.8  # a face found at a blob's end is less sure than one where the model put it
FIT_RECTANGULARITY = 0.75  # only blobs this square teach the dice's size (not a tray's corner)
GROW = (1.12, 1.25)  # an unread face is read again as if the die were this much bigger...
GROW_PENALTY = 0.9  # ...and is then a little less sure
SAME_COLOUR = 14.0  # Lab a, b units a cocked die's body may differ from the flat dice's
DARK_KINDS = {"strike": True}  # Strike dice are black; other kinds are told by the frame
SIZE_DOUBT = 0.15  # a face whose top differs from the dice's side by more than this share...
SIZE_PENALTY = 0.5  # ...has its raw score scaled by this
RIM_MARGIN = 0.8  # a die this share of its side past the arena's oval still lies in the arena
SMALL = 0.6  # blobs whose sides are both below this share of a die's are no dice (pips, crumbs)


def read(
    image: np.ndarray,
    dice: str = "pips",
    calibration: Calibration | None = None,
    arena: str | Ellipse | None = "auto",
) -> Readings:
    """Read one BGR frame. arena: "auto" (calibrated, else found), "none", or an Ellipse."""
    start = time.perf_counter()
    kind = check_kind(dice)
    frame = _as_bgr(image)
    h, w = frame.shape[:2]
    cal = calibration.for_frame(w, h) if calibration else None
    die_size = cal.die_size if cal else None
    if read_learned.enabled(kind):
        return _read_learned(frame, kind, cal, arena, start)
    candidates, prep = find_candidates(frame, die_size, dark_dice=DARK_KINDS.get(kind))
    ellipse = _arena(frame, arena, cal, prep, kind)
    centre = (w / 2.0, h / 2.0)
    squares = [c for c in candidates if c.rectangularity > FIT_RECTANGULARITY and c.side >= 10]
    if squares:
        top = max(c.side for c in squares)
        squares = [c for c in squares if c.side > 0.45 * top]  # not the specks
    side, k = fit_dice(squares or candidates, centre)
    if die_size:
        side = die_size
    found = []
    if side:
        found = [_die(frame, c, kind, side, k, centre, ellipse, prep) for c in candidates]
        found = _same_dice(frame, [d for d in found if d is not None])
        if second_opinion.enabled(kind):
            found = second_opinion.combine(frame, found, kind)
    found.sort(key=lambda d: (round(d.y / max(side or 1.0, 1.0)), d.x))
    ms = (time.perf_counter() - start) * 1000.0
    return Readings(kind, tuple(found), ellipse, ms, (w, h))


def _read_learned(frame, kind: str, cal: Calibration | None, arena, start: float) -> Readings:
    """The learned path (vision/read_learned.py): networks find and read the dice."""
    h, w = frame.shape[:2]
    base = None if cal and cal.die_size else overview(frame)  # (one look, its own scale)
    die_size, below = (cal.die_size, cal.below) if cal else (None, None)
    found = read_learned.learned_dice(frame, kind, die_size, base, below)
    ellipse = _arena(frame, arena, cal, None, kind, base, found)
    if ellipse is not None:
        found = [replace(d, in_arena=in_arena(ellipse, d)) for d in found]
    side = float(np.median([d.size for d in found])) if found else 1.0
    found.sort(key=lambda d: (round(d.y / max(side, 1.0)), d.x))
    ms = (time.perf_counter() - start) * 1000.0
    return Readings(kind, tuple(found), ellipse, ms, (w, h))


def in_arena(ellipse: Ellipse, d: Die) -> bool:
    """Whether a die is in the arena: its centre within the oval grown by RIM_MARGIN of its side.

    A die against the rim leans on the wall or is seen over it (the wall hides the mat's edge
    from a camera a little off centre), so its centre may lie past the oval found; a die out of
    the box lies well away from it.
    """
    grow = 1.0 + RIM_MARGIN * d.size / max(ellipse.b, 1.0)
    return ellipse.radius_ratio(d.x, d.y) <= grow


def _same_dice(frame: np.ndarray, dice: list[Die]) -> list[Die]:
    """The dice without the 'cocked dice' whose hue is not that of the flat dice read: all dice
    of a game look alike (one face in the shade: lightness is left out), and a tray's corner or a
    strip of wall does not look like them."""
    flat = [d for d in dice if d.face is not None]
    if not flat:
        return dice
    ref = np.median([_colour(frame, d) for d in flat], axis=0)
    return [
        d
        for d in dice
        if not d.cocked or float(np.linalg.norm(_colour(frame, d)[1:] - ref[1:])) < SAME_COLOUR
    ]


def _colour(frame: np.ndarray, d: Die) -> np.ndarray:
    """The median Lab colour around a die's centre (the body: marks are the fewer pixels)."""
    r = max(2, int(d.size * 0.3))
    x, y = int(d.x), int(d.y)
    cut = frame[max(0, y - r) : y + r, max(0, x - r) : x + r]
    lab = cv2.cvtColor(cut, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    return np.median(lab, axis=0)


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise ValueError("expected an image as a uint8 numpy array (H x W x 3 BGR, or grey)")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise ValueError(f"expected 1, 3 or 4 channels, not {image.shape[2]}")
    if min(image.shape[:2]) < 32:
        raise ValueError(f"image too small to hold dice: {image.shape[1]}x{image.shape[0]}")
    return image


def _arena(
    frame, arena, cal: Calibration | None, prep: Prepared | None, kind: str, copy=None, dice=()
) -> Ellipse | None:
    """The arena given, calibrated or found (`copy`: a shrunk copy of the frame to find it in;
    `dice`, when already found: around them the arena is looked for again, a box seen from far)."""
    if isinstance(arena, Ellipse):
        return arena
    if arena in (None, "none"):
        return None
    if arena != "auto":
        raise ValueError(f"arena must be 'auto', 'none' or an Ellipse, not {arena!r}")
    if cal and cal.arena:
        return cal.arena
    if kind != "strike":
        return None  # only Strike is played in an arena; a vignette must not become one
    if prep is None:
        found = find_arena(frame, copy=copy)
    else:
        found = find_arena(frame, prep.model, prep.model_scale)
    if found is None and dice:
        points = np.array([(d.x, d.y) for d in dice])
        found = find_arena_near(frame, points, float(np.median([d.size for d in dice])))
    return found


def _die(frame, c: Candidate, kind, side, k, centre, ellipse, prep: Prepared) -> Die | None:
    if max(c.w, c.h) < side * SMALL or c.rectangularity < MIN_RECTANGULARITY:
        return None  # a speck, a star or a ring printed on the tray: dice are squares
    in_arena = ellipse.contains(c.x, c.y) if ellipse else True
    top = top_face(c, side, k, centre)
    if top.cocked:
        top = _flat_piece(c, side, k, centre, prep) or top
    first = None if top.cocked else _face_at(frame, kind, top, c, prep)
    best = first
    if not top.cocked and (best is None or best[0].face is None):
        for grow in GROW:  # the outline may have lost the die's rim against a table of its colour
            got = _face_at(frame, kind, replace(top, side=top.side * grow), c, prep, GROW_PENALTY)
            if got and got[0].face is not None:
                best = got
                break
    if not top.cocked and (best is None or best[0].face is None):
        # re-centring on the marks goes wrong when one of them hides at the cut's edge (a
        # neighbour's marks, a pip by the rim): the outline's own centre is read too
        for grow in (1.0, *GROW):
            got = _face_at(
                frame,
                kind,
                replace(top, side=top.side * grow),
                c,
                prep,
                GROW_PENALTY,
                recentre=False,
            )
            if got and got[0].face is not None:
                best = got
                break
    if (best is None or best[1] < RETRY_BELOW) and c.side < side * RETRY_SIZE:
        # the square may sit at another end of the blob (side faces or a shadow at the other)
        for other in _ends(c, side):
            got = _face_at(frame, kind, other, c, prep, ENDS_PENALTY)
            if got and got[0].face is not None and (best is None or got[1] > best[1]):
                best = got
    if best is not None and top.cocked and _two_faces(frame, c, best[0]):
        best = None  # the marks go on past the face read: a die on its edge shows two faces
    if best is None or (top.cocked and best[1] < RETRY_BELOW):
        if not top.cocked:
            return best[0] if best else None
        if min(c.w, c.h) < side * 0.6 or c.area < 0.6 * side * side:
            return None  # a line or a word on the table, not a die on its edge
        if not find_marks(upright_patch(frame, c.x, c.y, c.side, c.angle)).blobs:
            return None  # a die on its edge shows marks: this is the table (a wall's corner)
        sure = min(1.0, 0.5 + top.misfit)
        return Die(None, c.x, c.y, side, in_arena, True, round(sure, 3), c.angle)
    die = best[0]
    off = abs(die.size - side) / side  # a face read on a top much bigger or smaller than the
    if off > SIZE_DOUBT:  # frame's dice is likely read on something else (a shadow, two dice)
        die = replace(die, confidence=calibrated(kind, best[1] * SIZE_PENALTY))
    return replace(die, in_arena=in_arena)


def _two_faces(frame, c: Candidate, d: Die) -> bool:
    """Whether a blob shows more marks than the face read at one of its ends."""
    face = find_marks(upright_patch(frame, d.x, d.y, d.size, d.angle, span=FACE_SPAN))
    whole = find_marks(upright_patch(frame, c.x, c.y, max(c.w, c.h), c.angle, span=1.05))
    return len(whole.blobs) > len(face.blobs)


def _face_at(frame, kind: str, top: Top, c: Candidate, prep: Prepared, penalty=1.0, recentre=True):
    """The die read with its top face at `top`, and its raw score; None if there is no die."""
    if recentre:
        patch, x, y = centred_patch(frame, top.x, top.y, top.side, top.angle)
    else:
        patch = upright_patch(frame, top.x, top.y, top.side, top.angle, span=FACE_SPAN)
        x, y = top.x, top.y
    marks = find_marks(patch)
    face, raw = read_face(kind, marks) if marks.blobs else (None, 0.0)
    if not marks.blobs:
        return None  # a die always shows marks: this is a shadow, a coin, a crumb
    if (
        on_table(prep, marks.face_lab, top.x, top.y)
        and c.rectangularity < TABLE_FACE_RECTANGULARITY
    ):
        return None  # the 'face' is the table's colour: a mark printed on it, unless well square
    raw *= _fit(top.misfit) * penalty
    sure = calibrated(kind, raw) if face is not None else 0.0
    return Die(face, x, y, top.side, True, False, sure, top.angle), raw


def _ends(c: Candidate, side: float) -> list[Top]:
    """Squares of the die's side at each end of a blob longer than one die."""
    t = math.radians(c.angle)
    u, v = (math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))
    out = []
    for axis, extent in ((u, c.w), (v, c.h)):
        shift = (extent - side) / 2
        if shift < side * 0.08:
            continue
        for sign in (-1.0, 1.0):
            x = c.x + sign * shift * axis[0]
            y = c.y + sign * shift * axis[1]
            out.append(Top(x, y, side, c.angle, MISFIT * 0.5, False))
    return out


def _flat_piece(c: Candidate, side: float, k: float, centre, prep: Prepared):
    """The top face of a blob that looked cocked, if cutting it along its inner edges leaves one
    clean square of a die's size (the rest being side faces or shadow)."""
    for piece in pieces_of(prep, c, side):
        if piece.aspect < 1.15 and 0.85 * side < piece.side < 1.2 * side:
            top = top_face(piece, piece.side, 0.0, centre)
            if not top.cocked and piece.rectangularity > 0.8:
                return Top(top.x, top.y, top.side, top.angle, MISFIT * 0.6, False)
    return None


def _fit(misfit: float) -> float:
    """How sure the outline makes us that this is a flat die: 1, falling to 0 near cocked."""
    return float(min(1.0, max(0.0, 1.0 - (misfit - 0.08) / (MISFIT - 0.08))))


def upright_patch(
    frame: np.ndarray,
    x: float,
    y: float,
    side: float,
    angle: float,
    n: int = PATCH,
    span: float = 1.0,
) -> np.ndarray:
    """The die's top face cut out, turned square to the axes, as n x n pixels showing span x side."""
    return _cut(frame, x, y, side * span, angle, n)[0]


def _cut(frame, x: float, y: float, width: float, angle: float, n: int):
    """An n x n upright cut of `width` frame pixels around (x, y), and its map back to the frame."""
    k = 1.0
    x0 = y0 = 0
    src = frame
    if width > n * 1.6:  # shrink a big die by area first so its pips do not alias
        k = n * 1.25 / width
        r = int(width * 0.75) + 2
        x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
        src = cv2.resize(
            frame[y0 : int(y) + r, x0 : int(x) + r], None, fx=k, fy=k, interpolation=cv2.INTER_AREA
        )
    lx, ly = (x - x0) * k, (y - y0) * k
    m = cv2.getRotationMatrix2D((lx, ly), angle, n / (width * k))
    m[0, 2] += n / 2 - lx
    m[1, 2] += n / 2 - ly
    cut = cv2.warpAffine(src, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    back = cv2.invertAffineTransform(m)
    back[:, :] /= 1.0
    back[0, :] = back[0, :] / k
    back[1, :] = back[1, :] / k
    back[0, 2] += x0
    back[1, 2] += y0
    return cut, back


def centred_patch(frame: np.ndarray, x: float, y: float, side: float, angle: float):
    """The top-face patch, re-centred on its marks (the outline's centre can be off by a sliver)."""
    canvas, back = _cut(frame, x, y, side * CANVAS, angle, CANVAS_PX)
    centre = marks_centre(canvas)
    if centre is not None:
        nx, ny = back @ np.array([centre[0], centre[1], 1.0])
        if math.hypot(nx - x, ny - y) < side * 0.3:
            x, y = float(nx), float(ny)
    return upright_patch(frame, x, y, side, angle, span=FACE_SPAN), x, y
