"""The learned reading of a frame: the detector finds the dice (vision/learned/detector.py), the
classifier reads each flat die's top face from a full-resolution crop (vision/learned/runtime.py).

Each network does what it is good at: the detector sees the whole frame small (where a die is, how
big, whether it lies flat), the classifier sees one die large (which face). A flat die whose crop
the classifier calls "cocked" (a tilted top face, a side face showing: it was taught the
detector's finds on cocked dice) is reported cocked, face None, so the table has it rolled again
or asks. One it calls "no die" is a false find (a print on the tray, a pip of a big die) and is
dropped: on the benchmark, every such find the detector was sure of was a print, never a die.
A face is never guessed.
"""

from __future__ import annotations

import os
from dataclasses import replace

import numpy as np

from vision.faint import asked_when_faint
from vision.find_report import (
    asked_when_small,
    face_columns,
    one_per_die,
    report,
    reported_cocked,
    worth_a_look,
)
from vision.later_looks import closer_look, doubted_faces, look_around, look_outward, mirrored_look
from vision.learned import available, axis, crop_die, detector, probabilities, runtime
from vision.learned.classes import COCKED, NONE, kind_classes
from vision.learned.crops import to_input
from vision.learned.detector import Found, find_dice
from vision.learned.nadir import (
    every_find_point,
    find_nadir,
    least_cost,
    looks_oblique,
    toward_larger_dice,
)
from vision.learned.off_law import ASKED, ask_off_law
from vision.learned.runtime import blob_probabilities
from vision.readings import Die
from vision.refined_look import refined_look
from vision.ring_look import ring_look

# the kinds whose frames get a look nearer when the detector sees the dice small: heaps of
# Détrak dice in 4032 px photos (session 22; Strike's readings were none the better)
NEARER_KINDS = ("pips", "detrak")
# ...and whose 4032 px photos are looked at whole when the dice are small there (session 23)
WHOLE_KINDS = ("pips",)
# ...and whose nearest look a photo over 2.4 Mpx allows is good from 7 px (rule 178: Détrak's
# 4032 px photos of 18-26 px dice, 193 errors to 137; pips' did not change); and when the dice
# are under 10 px even there, the finds a whole look adds off theirs are taken too (rule 181:
# 133 never-read such Détrak scenes, 118 errors to 90, the cocked dice and sure faces the same).
# Strike's benchmark has no such photo: 19 oblique renders of them read 18 errors to 17 with
# both rules (rule 182; 22 taken from above had read the same with rule 178 alone, rule 179)
CAPPED_KINDS = ("detrak", "strike")
# the dice's side in the detector's one look when their size is known (the watcher's hint, a
# calibration: the table's live frames), by kind; WANT_PX (15) for the others. 12.5 px is a
# cheaper look (0.69 times the input pixels), and read pips' hinted fresh seeds with 190 errors
# instead of 202; Strike's with 193 instead of 186, Détrak's 182 instead of 171 (rules 159-160);
# Strike's at 14 px, 262 instead of 251 (rule 229, session 74)
HINTED_PX = {"pips": 12.5}
# the kinds whose oblique photos take the point below the camera from the flat dice's side
# faces (vision/learned/axis.py: Strike since session 26, pips since 27, Détrak since rule 212),
# when it lies AXIS_FAR frame lengths or more from the centre; nearer, the searches of nadir.py.
# The fit is taken from 3 dice, agreeing or not: Détrak's since rule 212 (session 70: fresh seeds
# 251-252 106 -> 88 errors, 254 -> 259 of 284 cocked dice flagged, 39 never-read oblique renders
# 30 -> 22 errors), pips' and Strike's since rule 224 (session 73). Until then theirs was taken
# only where it read the sure dice clearly better than the centre (sessions 48-49): with the
# prior that pulled it in (axis.KIND_PRIORS) a fit of few dice was often short. With rule 223's
# lighter prior, unchecked (and Strike fitting every find, below), read renders went Strike 194 ->
# 154 errors (the true point: 144), pips 72 -> 67; fresh ones Strike 18 -> 15 (23 renders), pips
# 6 -> 6 (28); fresh seeds 264-265 pips 108 -> 110, Strike 59 -> 60.
AXIS_KINDS = ("strike", "pips", "detrak")
AXIS_FAR = 0.12
# the kinds which, when no point is found so, fit every find the classifier sees a die in, the
# ones read cocked too (nadir.every_find_point; Détrak and pips since session 49: their oblique
# renders lose most where the sure flat dice are too few; Strike since rule 224: in 30 of its 47
# read renders left with no point, 0-2 sure flat dice, or 3-4 whose fit was declined)
EVERY_FIND_KINDS = ("pips", "detrak", "strike")


def enabled(kind: str) -> bool:
    """Whether both networks are there (and ARBITRE_LEARNED=0 does not ask for the classical
    reader, vision/read.py's own, kept as the fallback and for comparison)."""
    if os.environ.get("ARBITRE_LEARNED", "1") == "0":
        return False
    return detector.available() and available(kind)


def learned_dice(
    frame: np.ndarray,
    kind: str,
    die_size: float | None = None,
    base: np.ndarray | None = None,
    table_below: tuple[float, float] | None = None,
) -> list[Die]:
    """Every die of a BGR frame, in_arena left True (the caller knows the arena); `base`: the
    detector's overview of the frame if already made; `table_below`, with a known `die_size`
    (the table's camera): the point below it that its throws taught (vision/camera_point.py),
    else its frame's centre."""
    with axis.one_frame(frame):
        return _learned_dice(frame, kind, die_size, base, table_below)


def _learned_dice(
    frame: np.ndarray,
    kind: str,
    die_size: float | None,
    base: np.ndarray | None,
    table_below: tuple[float, float] | None = None,
) -> list[Die]:
    found = find_dice(
        frame,
        die_size,
        base,
        nearer=kind in NEARER_KINDS,
        whole=kind in WHOLE_KINDS,
        capped=kind in CAPPED_KINDS,
        hinted_px=HINTED_PX.get(kind, detector.WANT_PX),
    )
    found = [f for f in found if worth_a_look(f)]
    if not found:
        return []
    # (a known die size means the table's camera, mounted above it: no search, which may cost
    # 50-130 ms, but the point its throws taught if any; photos and the first frames are searched)
    known = table_below if die_size else None
    blob = to_input([crop_die(frame, f.x, f.y, f.size, known) for f in found])
    p = blob_probabilities(blob, kind)
    below = known if die_size else _oblique_view(frame, found, p, kind)
    if below is None or below is known:
        return _looked(frame, kind, die_size, found, p, blob, below)
    with runtime.oblique_photo():  # (Détrak's oblique photos have a second opinion of their own)
        blob = to_input([crop_die(frame, f.x, f.y, f.size, below) for f in found])
        p = blob_probabilities(blob, kind)
        return _looked(frame, kind, die_size, found, p, blob, below)


def _looked(frame, kind, die_size, found, p, blob, below) -> list[Die]:
    """The dice once the first reading is made from the point below: the later looks at the
    finds in doubt, then the report."""
    names = kind_classes(kind)
    p = mirrored_look(frame, found, p, kind, below, blob)
    found, p = look_around(frame, found, p, kind, below)
    found, p = closer_look(frame, found, p, kind, below)
    found, p = doubted_faces(frame, found, p, kind, below)
    found, p = refined_look(frame, found, p, kind, below)
    # (a calibrated camera looks down: no point below to look away from, nor the axis network's)
    found, p, moved = (found, p, set()) if die_size else look_outward(frame, found, p, kind, below)
    found, p = ring_look(frame, found, p, kind, below)
    out, odds, best, cocked, faces = [], [], [], names.index(COCKED), face_columns(names)
    for i, (f, row) in enumerate(zip(found, p, strict=True)):
        die = report(f, row, names, kind)
        if die is None:
            continue
        out.append(replace(die, confidence=min(die.confidence, ASKED)) if i in moved else die)
        odds.append(row[cocked])
        best.append(names[faces[int(row[faces].argmax())]])
    dice = asked_when_faint(frame, one_per_die(ask_off_law(frame, out, odds, kind, best)))
    return dice if die_size else asked_when_small(dice)


def _oblique_view(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str):
    """The point below the camera, when the frame may be an oblique photo (a die would be
    reported cocked): the axis fit's (AXIS_KINDS, of 3 sure flat dice or more, agreeing or not),
    else vision/learned/nadir.py's searches (first a direction the dice's sizes agree with; for
    EVERY_FIND_KINDS then the fit of every find, if it reads them better; then the older search
    where a sure flat find reads cocked); else None, the frame's centre.
    (A find the detector half calls cocked but the classifier reads flat does not start it: two
    of the four Strike speed scenes have one, and the search costs 20 ms.)"""
    names = kind_classes(kind)
    faces = face_columns(names)
    best = p.argmax(axis=1)
    if not any(reported_cocked(f, row, names, kind) for f, row in zip(found, p, strict=True)):
        return None
    flat = [i for i, f in enumerate(found) if not f.cocked and f.score >= detector.SURE]
    surely = [i for i in flat if best[i] in faces]

    def read_faces(idx, below, over=None):
        if below is None:  # the frame's centre: read already
            return p[list(idx)][:, faces].max(axis=1)
        crops = [crop_die(frame, found[i].x, found[i].y, found[i].size, below) for i in idx]
        needed = None if over is None else _unless_over(over, faces)
        return probabilities(crops, kind, needed=needed)[:, faces].max(axis=1)

    if kind in AXIS_KINDS:
        # (a print the classifier sees no die in has no say)
        dice = [(found[i].x, found[i].y, found[i].size) for i in flat if names[best[i]] != NONE]
        below = axis.fit_off_centre(frame, dice, AXIS_FAR, kind)  # (agreed or not: rule 224)
        if below is not None:
            return below

    below = toward_larger_dice(frame.shape, found, read_faces, surely)
    if below is not None:
        return below
    seen = [i for i in range(len(found)) if names[best[i]] != NONE]
    if kind in EVERY_FIND_KINDS and len(seen) > len(surely):
        below = every_find_point(frame, found, seen, read_faces, kind, AXIS_FAR)
        if below is not None:
            return below
    if not any(names[best[i]] == COCKED for i in flat) or not looks_oblique(found, frame.shape):
        return None
    return find_nadir(frame.shape, found, read_faces, surely)


# a reading's least cost must be this far over the search's `over` to spare the route's others
# (their mean of float32 probabilities may round a little above the bound's)
OVER_MARGIN = 1e-4


def _unless_over(over: float, faces: list[int]):
    """`probabilities`' `needed` for a search that asks only whether the dice's cost comes
    under `over`: none of the route's other networks, when even the most they could make of
    each die leaves the cost over it (nadir.find_nadir's `over`); else every crop, as before."""

    def needed(first: np.ndarray, most: np.ndarray) -> np.ndarray:
        spare = least_cost(most[:, faces].max(axis=1)) > over + OVER_MARGIN
        return np.full(len(first), not spare)

    return needed
