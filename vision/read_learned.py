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

import math
import os
from dataclasses import replace

import numpy as np

from vision.confidence import calibrated
from vision.learned import available, axis, crop_die, detector, probabilities
from vision.learned.classes import COCKED, NONE, kind_classes
from vision.learned.detector import Found, find_dice
from vision.learned.nadir import find_nadir, looks_oblique, toward_larger_dice
from vision.learned.off_law import ask_off_law
from vision.readings import Die

MIN_FIND = 0.25  # detector heat a flat find needs (the classifier must then see a face in it)
MIN_COCKED = 0.3  # ...that a cocked find needs
COCKED_DOUBT = 0.5  # cocked heat above which a flat find's face is the less sure
SURE_FIND = 0.7  # a cocked find the classifier sees no die in is kept when this sure
FACE_OVER_TILT = 0.8  # a face the classifier reads this sure on a cocked find...
FLAT_ODDS = 0.1  # ...with odds of its being cocked under this, is read as on a flat die
# a flat find the classifier gives these odds of being cocked is cocked: 0.4 until session 19;
# lower since the finds reported cocked are looked at closer, which gives back most flat dice
# the lower line costs (docs/vision-history.md, sessions 19-21), and lower again for pips once its
# oblique photos are turned about the point below the camera (session 27)
COCKED_ODDS = {"pips": 0.2, "strike": 0.25, "detrak": 0.3}
# the kinds whose frames get a look nearer when the detector sees the dice small: heaps of
# Détrak dice in 4032 px photos (session 22; Strike's readings were none the better)
NEARER_KINDS = ("pips", "detrak")
# ...and whose 4032 px photos are looked at whole when the dice are small there (session 23)
WHOLE_KINDS = ("pips",)
# the kinds whose oblique photos take the point below the camera from the flat dice's side
# faces (vision/learned/axis.py: Strike since session 26, pips since 27), when it lies AXIS_FAR
# frame lengths or more from the centre; nearer, or for Détrak, the searches of nadir.py
AXIS_KINDS = ("strike", "pips")
AXIS_FAR = 0.12
CLOSER_LOOKS = 6  # finds reported cocked looked at closer, the least sure first, per frame
CLOSER_UNSURE = 0.5  # ...when the classifier gives them under these odds of being cocked
CLOSER_LOST = 4  # cocked finds the classifier sees no die in looked at closer, every kind
DOUBT_ODDS = 0.05  # ...and one it gives these odds or more is looked at again, mirrored
DOUBTED_FACE = 0.1  # a face read with "cocked" at these odds or more is found again closer...
DOUBTED_COCKED = 0.5  # ...and reported cocked when read there with "cocked" this sure
MIRRORED_DOUBTS = ("detrak",)  # ...the crop and its mirror averaged (pips: worse; Strike: same)
# two face reports nearer than this share of a side are of one die (_one_per_die): on seeds 1 and 3
# every two reports of one die lay at 0.51 of a side at most, and reports of two dice touching at
# 0.73 or more, their finds drawn together (session 24; the watcher keeps SAME_DIE)
ONE_DIE = 0.65
RELOOK_FIND = 0.3  # a flat find this hot that the classifier sees no die in is looked at again
RELOOKS = 2  # ...the hottest few of a frame (a tray's prints make dozens of such finds)
RELOOK_FACE = 0.8  # ...and a face read this sure, with "cocked" under FLAT_ODDS, is the die
RELOOK_STEP = 0.5  # ...and one read this sure is a step the right way: looked around once more
# where to look again, in die sides: the find's centre off by a third of a side, or its size
AROUND = (
    (0.3, 0.0, 1.0),
    (-0.3, 0.0, 1.0),
    (0.0, 0.3, 1.0),
    (0.0, -0.3, 1.0),
    (0.0, 0.0, 0.75),
    (0.0, 0.0, 1.3),
)


def enabled(kind: str) -> bool:
    """Whether both networks are there (and ARBITRE_LEARNED=0 does not ask for the classical
    reader, vision/read.py's own, kept as the fallback and for comparison)."""
    if os.environ.get("ARBITRE_LEARNED", "1") == "0":
        return False
    return detector.available() and available(kind)


def learned_dice(
    frame: np.ndarray, kind: str, die_size: float | None = None, base: np.ndarray | None = None
) -> list[Die]:
    """Every die of a BGR frame, in_arena left True (the caller knows the arena); `base`: the
    detector's overview of the frame if already made."""
    found = find_dice(frame, die_size, base, nearer=kind in NEARER_KINDS, whole=kind in WHOLE_KINDS)
    found = [f for f in found if _worth_a_look(f)]
    if not found:
        return []
    p = probabilities([crop_die(frame, f.x, f.y, f.size) for f in found], kind)
    names = kind_classes(kind)
    # (a known die size means the table's camera, mounted above it: no search, which may cost
    # 50-130 ms; photos and the first frames are searched)
    below = None if die_size else _oblique_view(frame, found, p, kind)
    if below is not None:
        p = probabilities([crop_die(frame, f.x, f.y, f.size, below) for f in found], kind)
    p = _second_look(frame, found, p, kind, below)
    found, p = _look_around(frame, found, p, kind, below)
    found, p = _closer_look(frame, found, p, kind, below)
    found, p = _doubted_faces(frame, found, p, kind, below)
    out, odds, cocked = [], [], names.index(COCKED)
    for f, row in zip(found, p, strict=True):
        die = _report(f, row, names, kind)
        if die is not None:
            out.append(die)
            odds.append(row[cocked])
    return _one_per_die(ask_off_law(frame, out, odds, kind))


def _oblique_view(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str):
    """The point below the camera, when the frame may be an oblique photo (a die would be
    reported cocked) and a point off the centre reads the sure flat dice better
    (vision/learned/nadir.py: first a direction the dice's sizes agree with, then the older
    search where a sure flat find reads cocked); else None, the frame's centre. (A find the
    detector half calls cocked but the classifier reads flat does not start it: two of the four
    Strike speed scenes have one, and the search costs 20 ms.)"""
    names = kind_classes(kind)
    faces = _face_columns(names)
    best = p.argmax(axis=1)
    if not any(_reported_cocked(f, row, names, kind) for f, row in zip(found, p, strict=True)):
        return None
    flat = [i for i, f in enumerate(found) if not f.cocked and f.score >= detector.SURE]
    surely = [i for i in flat if best[i] in faces]
    if kind in AXIS_KINDS:
        # (a print the classifier sees no die in has no say)
        dice = [(found[i].x, found[i].y, found[i].size) for i in flat if names[best[i]] != NONE]
        below = axis.point_off_centre(frame, dice, AXIS_FAR, kind)
        if below is not None:
            return below

    def read_faces(idx, below):
        if below is None:  # the frame's centre: read already
            return p[list(idx)][:, faces].max(axis=1)
        crops = [crop_die(frame, found[i].x, found[i].y, found[i].size, below) for i in idx]
        return probabilities(crops, kind)[:, faces].max(axis=1)

    below = toward_larger_dice(frame.shape, found, read_faces, surely)
    if below is not None:
        return below
    if not any(names[best[i]] == COCKED for i in flat) or not looks_oblique(found, frame.shape):
        return None
    return find_nadir(frame.shape, found, read_faces, surely)


def _report(f: Found, row: np.ndarray, names: tuple, kind: str) -> Die | None:
    """What the frame reports of a find and the classifier's reading of it (None: no die)."""
    return _tilted(f, row, names, kind) if f.cocked else _flat(f, row, names, kind)


def _reported_cocked(f: Found, row: np.ndarray, names: tuple, kind: str) -> bool:
    """Whether the frame's report would call this find cocked (the same rules, not a copy)."""
    die = _report(f, row, names, kind)
    return die is not None and die.cocked


def _second_look(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below):
    """`p` with the doubtful flat finds (a face, "cocked" at DOUBT_ODDS to COCKED_ODDS) read
    again from their mirrored crop and the two readings averaged. The classifier learned
    mirrored crops (a mirrored face is a turned copy of itself, and outward stays up), and its
    doubt between a face and a die tipped nearly flat is partly noise: averaging the two looks
    moves such dice over the COCKED_ODDS line more often than flat dice (on seed 1: 15 of 58
    cocked dice in the band, 19 of 626 flat ones). About one die in ten takes it: 1-2 ms."""
    names = kind_classes(kind)
    cocked, best = names.index(COCKED), p.argmax(axis=1)
    doubt = [
        i
        for i, f in enumerate(found)
        if not f.cocked
        and names[best[i]] not in (COCKED, NONE)
        and DOUBT_ODDS <= p[i, cocked] < COCKED_ODDS[kind]
    ]
    if not doubt:
        return p
    crops = [crop_die(frame, found[i].x, found[i].y, found[i].size, below) for i in doubt]
    mirrored = probabilities([np.ascontiguousarray(c[:, ::-1]) for c in crops], kind)
    p = p.copy()
    p[doubt] = (p[doubt] + mirrored) / 2
    return p


def _look_around(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below):
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
        best = _best_around(frame, list(centres.values()), kind, below)
        step = {}
        for i, (m, row) in zip(centres, best, strict=True):
            if _reads_flat(row, names):
                found[i], p[i] = m, row
            elif row[_face_columns(names)].max() >= RELOOK_STEP:
                step[i] = m
        centres = step
    return found, p


def _closer_look(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below):
    """`found` and `p` with some finds found again by the detector looking closer
    (detector.look_closer) and read again there, by the same rules: the CLOSER_LOOKS finds
    reported cocked least surely (the classifier giving them under CLOSER_UNSURE of being
    cocked), and the CLOSER_LOST hottest finds the detector calls cocked and the classifier sees
    no die in, which are dropped (Détrak's reported-cocked finds too since session 21, read
    first by its route's first network, faces-upper since session 25). On seeds 1 and 3, most flat dice reported cocked, and most of the
    Détrak dice never reported, were dice touching others, found a third to half a side off and
    called cocked by the detector. (Read around instead, as _look_around does, cocked dice
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


def _doubted_faces(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below):
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
        if row[cocked] >= DOUBTED_FACE and _reported_face(f, row, names, kind)
    ]
    closer = {i: m for i in doubted if (m := detector.look_closer(frame, found[i])) is not None}
    if not closer:
        return found, p
    crops = [crop_die(frame, m.x, m.y, m.size, below) for m in closer.values()]
    q = probabilities(crops, kind)
    if kind in MIRRORED_DOUBTS:  # with its mirror, as _second_look reads
        q = (q + probabilities([np.ascontiguousarray(c[:, ::-1]) for c in crops], kind)) / 2
    found, p = list(found), p.copy()
    for (i, m), row in zip(closer.items(), q, strict=True):
        if row[cocked] >= DOUBTED_COCKED:
            found[i], p[i] = m, row
    return found, p


def _reported_face(f: Found, row: np.ndarray, names: tuple, kind: str) -> bool:
    die = _report(f, row, names, kind)
    return die is not None and not die.cocked


def _unsure_cocked(found: list[Found], p: np.ndarray, kind: str) -> list[int]:
    """The finds reported cocked that the classifier gives under CLOSER_UNSURE of being cocked,
    the least sure report first."""
    names = kind_classes(kind)
    cocked = names.index(COCKED)
    unsure = []
    for i, (f, row) in enumerate(zip(found, p, strict=True)):
        die = _report(f, row, names, kind)
        if die is not None and die.cocked and row[cocked] < CLOSER_UNSURE:
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


def _best_around(frame, finds: list[Found], kind: str, below) -> list[tuple[Found, np.ndarray]]:
    """For each find, the crop around it (AROUND) that reads a face surest, and its reading."""
    faces = _face_columns(kind_classes(kind))
    moved = [m for f in finds for m in _around(f)]
    q = probabilities([crop_die(frame, m.x, m.y, m.size, below) for m in moved], kind)
    out = []
    for n in range(len(finds)):
        rows = q[n * len(AROUND) : (n + 1) * len(AROUND)]
        best = int(rows[:, faces].max(axis=1).argmax())
        out.append((moved[n * len(AROUND) + best], rows[best]))
    return out


def _reads_flat(row: np.ndarray, names: tuple) -> bool:
    return row[_face_columns(names)].max() >= RELOOK_FACE and row[names.index(COCKED)] < FLAT_ODDS


def _face_columns(names: tuple) -> list[int]:
    """The classifier's columns that are faces (not "cocked", not "none")."""
    return [i for i, n in enumerate(names) if n not in (COCKED, NONE)]


def _one_per_die(dice: list[Die]) -> list[Die]:
    """The dice with no two faces read on one die: of two faces nearer than ONE_DIE of a side
    (two flat dice touching are a side apart), the surer stays, and takes the lesser
    confidence when they disagree. The detector keeps peaks half a die apart, and the
    classifier may read a face from both (a simulated Strike game's record had a 2 twice)."""
    out = list(dice)
    faces = sorted(
        (i for i, d in enumerate(dice) if d.face is not None), key=lambda i: -dice[i].confidence
    )
    kept: list[int] = []
    for i in faces:
        twin = next((k for k in kept if _same_die(dice[i], dice[k])), None)
        if twin is None:
            kept.append(i)
            continue
        if dice[i].face != dice[twin].face:
            out[twin] = replace(out[twin], confidence=dice[i].confidence)
        out[i] = None
    return [d for d in out if d is not None]


def _same_die(a: Die, b: Die) -> bool:
    return math.hypot(a.x - b.x, a.y - b.y) < ONE_DIE * min(a.size, b.size)


def _around(f: Found) -> list[Found]:
    return [
        replace(f, x=f.x + dx * f.size, y=f.y + dy * f.size, size=f.size * k)
        for dx, dy, k in AROUND
    ]


def _worth_a_look(f: Found) -> bool:
    return f.cocked_score >= MIN_COCKED if f.cocked else f.flat_score >= MIN_FIND


def _cocked(f: Found, sure: float) -> Die:
    return Die(None, f.x, f.y, f.size, cocked=True, confidence=round(sure, 3))


def _tilted(f: Found, row: np.ndarray, names: tuple, kind: str) -> Die | None:
    """A find the detector calls cocked: cocked, unless the classifier, which sees the die
    large, reads a face on it at FACE_OVER_TILT or more and gives it under FLAT_ODDS of being
    on its edge (the detector sees the whole frame small: a flat die touching others, or seen
    far from the centre with its sides showing, looks tilted to it), or it sees no die there and
    the detector was not sure either (the prints of a tray)."""
    best = int(row.argmax())
    if names[best] == NONE and f.cocked_score < SURE_FIND:
        return None
    face = names[best] not in (NONE, COCKED)
    if face and row[best] >= FACE_OVER_TILT and row[names.index(COCKED)] < FLAT_ODDS:
        return _flat(f, row, names, kind)
    return _cocked(f, f.cocked_score)


def _flat(f: Found, row: np.ndarray, names: tuple, kind: str) -> Die | None:
    """A find the detector calls flat: the face the classifier reads, or cocked when the
    classifier gives that COCKED_ODDS or more, even below the face's (a cocked die read as a
    face is a wrong record; a flat die called cocked is one question to the players)."""
    best = int(row.argmax())
    cocked = float(row[names.index(COCKED)])
    if names[best] == COCKED or (names[best] != NONE and cocked >= COCKED_ODDS[kind]):
        return _cocked(f, cocked * min(1.0, f.flat_score / SURE_FIND))
    if names[best] != NONE:
        # What speaks against the face: the classifier's odds that the die is on its edge (the
        # errors that matter read the top face of a die leaning a little), a detector unsure of
        # the find, or one that half thinks the die is cocked too.
        margin = max(0.0, float(row[best]) - cocked)
        doubt = min(1.0, (1.0 - f.cocked_score) / (1.0 - COCKED_DOUBT))
        raw = margin * min(1.0, f.flat_score / SURE_FIND) * doubt
        return Die(names[best], f.x, f.y, f.size, confidence=calibrated(table_key(kind), raw))
    return None  # no die here: a print on the tray, a pip of a big die


def table_key(kind: str) -> str:
    """The name of this path's confidence table in vision/confidence.json."""
    return f"learned-{kind}"
