"""The looks after the first reading: where that reading is doubtful, the dice are read again.

The first reading's crops are centred on the detector's finds, and the detector puts some finds
off their die: a third to half a side in a cluster of dice touching, toward the point below the
camera for the flat dice of an oblique photo. There the classifier reads a flat die cocked or sees
no die, and a cocked die tipped part-way may read a face. Each look here reads again where the
first reading is doubtful, judged by the same rules (vision/find_report.py): from the mirrored
crop (mirrored_look), around the find (look_around), found again closer by the detector
(closer_look, doubted_faces), further from the point below the camera (look_outward).

They run in the order read_learned.learned_dice calls them, each given the finds and the
classifier's rows the one before left, and the point below the camera the crops are turned about:
mirrored_look, look_around, closer_look, doubted_faces, then refined_look, look_outward, and
ring_look last. refined_look and ring_look are the two with modules of their own
(vision/refined_look.py, vision/ring_look.py).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.find_report import (
    COCKED_ODDS,
    RELOOK_FIND,
    SURE_FIND,
    face_columns,
    reads_flat,
    report,
    reported_cocked,
    reported_face,
)
from vision.learned import crop_die, detector, probabilities
from vision.learned.classes import COCKED, NONE, kind_classes
from vision.learned.crops import reach, to_input
from vision.learned.detector import Found
from vision.learned.runtime import blob_probabilities

# mirrored_look: a flat find read as a face with "cocked" from these odds (to COCKED_ODDS) is
# read again from its mirrored crop too, the two averaged; every Détrak face since session 54
# (rule 135: fresh seeds 132-134 179 -> 167 errors, sure faces wrong 34 -> 30)
DOUBT_ODDS = {"pips": 0.05, "strike": 0.05, "detrak": 0.0}
# ...unless its face is read this sure: Détrak's speed frames read 89 % of their faces so, and
# fresh seeds 159-161 and renders b4300 839-891 read the same without their mirror (rule 153,
# session 56: 36.7-37.6 ms a frame to 27.4-28.2); pips' and Strike's doubt already excludes it
MIRROR_SURE = 0.999
# look_around: flat finds of RELOOK_FIND heat read "none" looked around, the hottest few of a
# frame (a tray's prints make dozens of such finds; 2 to 4: session 34); RELOOK_FACE:
# find_report.py...
RELOOKS = 4
RELOOK_STEP = 0.5  # ...and one read this sure is a step the right way: looked around once more
# ...where, in die sides: the find's centre off by a third of a side, or its size
AROUND = (
    (0.3, 0.0, 1.0),
    (-0.3, 0.0, 1.0),
    (0.0, 0.3, 1.0),
    (0.0, -0.3, 1.0),
    (0.0, 0.0, 0.75),
    (0.0, 0.0, 1.3),
)
# closer_look: finds reported cocked looked at closer, the least sure first, per frame...
CLOSER_LOOKS = 6
# ...when the classifier gives them under these odds of being cocked (Détrak 0.7 since session 53,
# rule 133: fresh seeds 129-131 197 -> 196 errors, by one scene; pips lost 4 cocked dice so)
CLOSER_UNSURE = {"pips": 0.5, "strike": 0.5, "detrak": 0.7}
CLOSER_LOST = 4  # cocked finds the classifier sees no die in looked at closer, every kind
# doubted_faces: a face read with "cocked" at these odds or more is found again closer...
DOUBTED_FACE = 0.1
DOUBTED_COCKED = 0.5  # ...and reported cocked when read there with "cocked" this sure
MIRRORED_DOUBTS = ("detrak",)  # ...the crop and its mirror averaged (pips: worse; Strike: same)
# look_outward: the kinds whose flat dice an oblique photo shows reported cocked are looked at
# further out (session 33: pips, then Détrak; Strike gained nothing), in frames whose point below
# the camera (read_learned's oblique view) lies OUTWARD_OFF
# frame lengths or more off the centre (nearer, a photo from above whose point is a guess), at
# finds OUTWARD_REACH or more from it (nearer, cocked dice read as faces), OUTWARD die sides
# further, and taken there when read this sure with "cocked" under this
OUTWARD_KINDS = ("pips", "detrak")
OUTWARD_OFF = 0.15
OUTWARD_REACH = 0.4
OUTWARD = (0.15, 0.3, 0.45)
OUTWARD_FACE, OUTWARD_COCKED = 0.95, 0.02


def mirrored_look(
    frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below, blob=None
):
    """`p` with the doubtful flat finds (a face, "cocked" at DOUBT_ODDS to COCKED_ODDS) read
    again from their mirrored crop and the two readings averaged. The classifier learned
    mirrored crops (a mirrored face is a turned copy of itself, and outward stays up), and its
    doubt between a face and a die tipped nearly flat is partly noise: averaging the two looks
    moves such dice over the COCKED_ODDS line more often than flat dice (on seed 1: 15 of 58
    cocked dice in the band, 19 of 626 flat ones). About one die in ten takes it: 1-2 ms. Détrak
    takes it for every flat face (rule 135): its first network's faces gain from the second view
    even where it is sure, but not where it reads the face MIRROR_SURE (rule 153: there the
    second view changed no count of 9 read and fresh seeds and 53 renders, and cost most
    speed frames a forward pass of 20 crops, 9 ms on session 56's machine).
    `blob`: the networks' input `p` was read from (to_input's), when the caller has it: a
    mirrored crop's input is its input mirrored (to 5e-7), so a face is not resized twice (for
    20 crops 1.6 ms against 0.03, session 56)."""
    names = kind_classes(kind)
    cocked, best = names.index(COCKED), p.argmax(axis=1)
    doubt = [
        i
        for i, f in enumerate(found)
        if not f.cocked
        and names[best[i]] not in (COCKED, NONE)
        and DOUBT_ODDS[kind] <= p[i, cocked] < COCKED_ODDS[kind]
        and p[i, best[i]] < MIRROR_SURE
    ]
    if not doubt:
        return p
    if blob is None:
        rows = to_input(
            [crop_die(frame, found[i].x, found[i].y, found[i].size, below) for i in doubt]
        )
    else:
        rows = blob[doubt]
    mirrored = blob_probabilities(np.ascontiguousarray(rows[..., ::-1]), kind)
    p = p.copy()
    p[doubt] = (p[doubt] + mirrored) / 2
    return p


def look_around(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below):
    """`found` and `p` with the RELOOKS hottest flat finds the classifier sees no die in read
    again around them (AROUND), each taken at the crop that reads a face surest when that is
    RELOOK_FACE or more and "cocked" is under FLAT_ODDS. The detector is sometimes off by a
    third of a die in a cluster, and the classifier learned such crops as "none" (half a die,
    two dice). On seed 1 this read 5 / 5 / 4 more flat dice of 150 scenes a kind, none wrong,
    no print nor cocked die taken for a die. A crop that reads a face RELOOK_STEP sure but not
    surely is a step the right way: it is looked around once more (a die of a row of three
    touching, its find half a side off, session 8)."""
    names = kind_classes(kind)
    none = names.index(NONE)
    lost = [
        i
        for i, f in enumerate(found)
        if not f.cocked and f.flat_score >= RELOOK_FIND and p[i].argmax() == none
    ]
    lost = sorted(lost, key=lambda i: -found[i].flat_score)[:RELOOKS]
    found, p = list(found), p.copy()
    centres = {i: found[i] for i in lost}
    for _ in range(1 + 1):  # a look around, and one step further
        if not centres:
            break
        best = _best_of(frame, [_around(f) for f in centres.values()], kind, below)
        step = {}
        for i, (m, row) in zip(centres, best, strict=True):
            if reads_flat(row, names):
                found[i], p[i] = m, row
            elif row[face_columns(names)].max() >= RELOOK_STEP:
                step[i] = m
        centres = step
    return found, p


def closer_look(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below):
    """`found` and `p` with some finds found again by the detector looking closer
    (detector.look_closer) and read again there, by the same rules: the CLOSER_LOOKS finds
    reported cocked least surely (the classifier giving them under the kind's CLOSER_UNSURE of
    being cocked), and the CLOSER_LOST hottest finds the detector calls cocked and the classifier sees
    no die in, which are dropped (Détrak's reported-cocked finds too since session 21, read
    first by its route's first network, faces-upper since session 25). On seeds 1 and 3, most flat dice reported cocked, and most of the
    Détrak dice never reported, were dice touching others, found a third to half a side off and
    called cocked by the detector. (Read around instead, as look_around does, cocked dice
    read as faces: the classifier was taught crops off by an eighth of a side at most.)"""
    idx = _unsure_cocked(found, p, kind)[:CLOSER_LOOKS] + _lost_cocked(found, p, kind)[:CLOSER_LOST]
    closer = {}
    for i in idx:
        again = detector.look_closer(frame, found[i])
        if again is not None:
            closer[i] = again
    if not closer:
        return found, p
    found, p = list(found), p.copy()
    q = probabilities([crop_die(frame, m.x, m.y, m.size, below) for m in closer.values()], kind)
    for (i, m), row in zip(closer.items(), q, strict=True):
        found[i], p[i] = m, row
    return found, p


def doubted_faces(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below):
    """`found` and `p` with the faces read in some doubt of a cocked die ("cocked" at
    DOUBTED_FACE to COCKED_ODDS) found again closer (detector.look_closer) and taken as read
    there when that reads "cocked" DOUBTED_COCKED or more (for MIRRORED_DOUBTS, the crop and
    its mirror averaged). A die tipped 25-35 or 55-65 degrees shows a face much as a flat die
    seen from aside does; seen closer and better centred, the classifier tells some of them
    apart (session 23, seeds 1 and 3: 4, 2 and 5 more cocked dice flagged for pips, Strike and
    Détrak, with 2, 1 and 3 fewer errors; about one face in 40 is read with such odds)."""
    names = kind_classes(kind)
    cocked = names.index(COCKED)
    doubted = [
        i
        for i, (f, row) in enumerate(zip(found, p, strict=True))
        if row[cocked] >= DOUBTED_FACE and reported_face(f, row, names, kind)
    ]
    closer = {i: m for i in doubted if (m := detector.look_closer(frame, found[i])) is not None}
    if not closer:
        return found, p
    crops = [crop_die(frame, m.x, m.y, m.size, below) for m in closer.values()]
    q = probabilities(crops, kind)
    if kind in MIRRORED_DOUBTS:  # with its mirror, as mirrored_look reads
        q = (q + probabilities([np.ascontiguousarray(c[:, ::-1]) for c in crops], kind)) / 2
    found, p = list(found), p.copy()
    for (i, m), row in zip(closer.items(), q, strict=True):
        if row[cocked] >= DOUBTED_COCKED:
            found[i], p[i] = m, row
    return found, p


def look_outward(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below):
    """`found` and `p` with the finds reported cocked far from the point below the camera of an
    oblique photo read again further out (OUTWARD), each taken at the crop that reads a face
    surest when that reads OUTWARD_FACE with "cocked" under OUTWARD_COCKED. The detector puts a
    flat die of such a photo between its top face and the side face it shows, 0.2 to 0.45 of a
    side toward the point below: the crop there reads cocked, about its top face flat (seed 1
    pips, session 33). Also the indices taken: their faces are asked (read_learned.learned_dice),
    since the reader first read those dice cocked."""
    if kind not in OUTWARD_KINDS or below is None or reach(frame.shape, *below) < OUTWARD_OFF:
        return found, p, set()
    names = kind_classes(kind)
    cocked = [
        i
        for i, (f, row) in enumerate(zip(found, p, strict=True))
        if reported_cocked(f, row, names, kind)
    ]
    if not cocked:
        return found, p, set()
    idx = [i for i in cocked if reach(frame.shape, found[i].x, found[i].y, below) >= OUTWARD_REACH]
    found, p, moved = list(found), p.copy(), set()
    best = _best_of(frame, [_outward(found[i], below) for i in idx], kind, below)
    for i, (m, row) in zip(idx, best, strict=True):
        if (
            row[face_columns(names)].max() >= OUTWARD_FACE
            and row[names.index(COCKED)] < OUTWARD_COCKED
        ):
            found[i], p[i] = m, row
            moved.add(i)
    return found, p, moved


def _unsure_cocked(found: list[Found], p: np.ndarray, kind: str) -> list[int]:
    """The finds reported cocked that the classifier gives under the kind's CLOSER_UNSURE of
    being cocked, the least sure report first."""
    names = kind_classes(kind)
    cocked = names.index(COCKED)
    unsure = []
    for i, (f, row) in enumerate(zip(found, p, strict=True)):
        die = report(f, row, names, kind)
        if die is not None and die.cocked and row[cocked] < CLOSER_UNSURE[kind]:
            unsure.append((die.confidence, i))
    return [i for _, i in sorted(unsure)]


def _lost_cocked(found: list[Found], p: np.ndarray, kind: str) -> list[int]:
    """The finds the detector calls cocked that are dropped (the classifier sees no die, and
    the detector is not SURE_FIND of one), the hottest first."""
    none = kind_classes(kind).index(NONE)
    lost = [
        i
        for i, f in enumerate(found)
        if f.cocked and p[i].argmax() == none and f.cocked_score < SURE_FIND
    ]
    return sorted(lost, key=lambda i: -found[i].cocked_score)


def _best_of(frame, moves: list[list[Found]], kind: str, below) -> list[tuple[Found, np.ndarray]]:
    """For each find's moved copies, the one whose crop reads a face surest, and its reading."""
    faces = face_columns(kind_classes(kind))
    flat = [m for ms in moves for m in ms]
    if not flat:
        return []
    q = probabilities([crop_die(frame, m.x, m.y, m.size, below) for m in flat], kind)
    out, start = [], 0
    for ms in moves:
        rows = q[start : start + len(ms)]
        best = int(rows[:, faces].max(axis=1).argmax())
        out.append((ms[best], rows[best]))
        start += len(ms)
    return out


def _around(f: Found) -> list[Found]:
    return [
        replace(f, x=f.x + dx * f.size, y=f.y + dy * f.size, size=f.size * k)
        for dx, dy, k in AROUND
    ]


def _outward(f: Found, below: tuple) -> list[Found]:
    dx, dy = f.x - below[0], f.y - below[1]
    r = math.hypot(dx, dy) or 1.0
    return [replace(f, x=f.x + s * f.size * dx / r, y=f.y + s * f.size * dy / r) for s in OUTWARD]
