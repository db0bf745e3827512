"""What one find of the detector and the classifier's reading of it report: a face, a cocked
die, or nothing (vision/read_learned.py asks these rules for every find, and again wherever it
looks a second time, so a second look is judged as the first); and one report per die.

The detector sees the whole frame small (where a die is, whether it lies flat); the classifier
sees one die large (which face, or "cocked", or no die). A flat die called cocked costs one
question to the players; a cocked die read as a face is a wrong record: the rules lean the
first way.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.confidence import calibrated
from vision.learned.classes import COCKED, NONE
from vision.learned.detector import SMALLEST, Found
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
# two reports nearer than this share of a side are of one die (one_per_die): on seeds 1 and 3
# every two reports of one die lay at 0.51 of a side at most, and reports of two dice touching at
# 0.73 or more, their finds drawn together (session 24; the watcher keeps SAME_DIE)
ONE_DIE = 0.65
# a find looked at again (later_looks.look_around, refined_look.py): a flat find this hot
# that the classifier sees no die in is worth it, and a crop read again is the die's face when
# it reads a face this sure with "cocked" under FLAT_ODDS
RELOOK_FIND = 0.3
RELOOK_FACE = 0.8
# a face of a die under SMALL_PX (issue 5's least die) in a photo is asked: SMALL_SURE at most
SMALL_PX = SMALLEST
SMALL_SURE = 0.85


def report(f: Found, row: np.ndarray, names: tuple, kind: str) -> Die | None:
    """What the frame reports of a find and the classifier's reading of it (None: no die)."""
    return tilted(f, row, names, kind) if f.cocked else flat(f, row, names, kind)


def reported_cocked(f: Found, row: np.ndarray, names: tuple, kind: str) -> bool:
    """Whether the frame's report would call this find cocked (the same rules, not a copy)."""
    die = report(f, row, names, kind)
    return die is not None and die.cocked


def reported_face(f: Found, row: np.ndarray, names: tuple, kind: str) -> bool:
    die = report(f, row, names, kind)
    return die is not None and not die.cocked


def face_columns(names: tuple) -> list[int]:
    """The classifier's columns that are faces (not "cocked", not "none")."""
    return [i for i, n in enumerate(names) if n not in (COCKED, NONE)]


def worth_a_look(f: Found) -> bool:
    return f.cocked_score >= MIN_COCKED if f.cocked else f.flat_score >= MIN_FIND


def cocked_die(f: Found, sure: float) -> Die:
    return Die(None, f.x, f.y, f.size, cocked=True, confidence=round(sure, 3))


def tilted(f: Found, row: np.ndarray, names: tuple, kind: str) -> Die | None:
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
        return flat(f, row, names, kind)
    return cocked_die(f, f.cocked_score)


def flat(f: Found, row: np.ndarray, names: tuple, kind: str) -> Die | None:
    """A find the detector calls flat: the face the classifier reads, or cocked when the
    classifier gives that COCKED_ODDS or more, even below the face's (a cocked die read as a
    face is a wrong record; a flat die called cocked is one question to the players)."""
    best = int(row.argmax())
    cocked = float(row[names.index(COCKED)])
    if names[best] == COCKED or (names[best] != NONE and cocked >= COCKED_ODDS[kind]):
        return cocked_die(f, cocked * min(1.0, f.flat_score / SURE_FIND))
    if names[best] != NONE:
        # What speaks against the face: the classifier's odds that the die is on its edge (the
        # errors that matter read the top face of a die leaning a little), a detector unsure of
        # the find, or one that half thinks the die is cocked too.
        margin = max(0.0, float(row[best]) - cocked)
        doubt = min(1.0, (1.0 - f.cocked_score) / (1.0 - COCKED_DOUBT))
        raw = margin * min(1.0, f.flat_score / SURE_FIND) * doubt
        return Die(names[best], f.x, f.y, f.size, confidence=calibrated(table_key(kind), raw))
    return None  # no die here: a print on the tray, a pip of a big die


def one_per_die(dice: list[Die]) -> list[Die]:
    """The dice with no die reported twice. Of two faces nearer than ONE_DIE of a side (two flat
    dice touching are a side apart), the surer stays, and takes the lesser confidence when they
    disagree: the detector keeps peaks half a die apart, and the classifier may read a face from
    both (a simulated Strike game's record had a 2 twice). A face that near a cocked report is
    that cocked die's too, read from a second find, and goes: no cocked die of the benchmark's
    seeds 1-2 nor of 1 887 Blender scenes lies within 0.9 of a side of a flat one (real
    leaning dice rest on their neighbour's edge), and the table asks for a cocked die to be
    thrown again whatever else is read of it (session 51: 6 such pairs in 450 scenes, 3 of
    them on cocked dice read as faces at 0.9 or more)."""
    out = list(dice)
    cocked = [d for d in dice if d.cocked]
    faces = sorted(
        (i for i, d in enumerate(dice) if d.face is not None), key=lambda i: -dice[i].confidence
    )
    kept: list[int] = []
    for i in faces:
        if any(_same_die(dice[i], c) for c in cocked):
            out[i] = None
            continue
        twin = next((k for k in kept if _same_die(dice[i], dice[k])), None)
        if twin is None:
            kept.append(i)
            continue
        if dice[i].face != dice[twin].face:
            out[twin] = replace(out[twin], confidence=dice[i].confidence)
        out[i] = None
    return [d for d in out if d is not None]


def asked_when_small(dice: list[Die]) -> list[Die]:
    """The dice, a face of a die reported under SMALL_PX given SMALL_SURE at most: the table
    asks for it. The confidence tables are fitted per kind over every die size, and such faces
    read at 0.9 or more were right 97.7-98.5 % of the time (read and fresh seeds), not the 99 %
    the table trusts 0.9 for: their strokes and pips are a pixel or two (rule 183, session 63:
    2-4 % of the sure faces asked). Only photos read with no die size known take it; a
    calibrated table's camera is set to show bigger dice (`arbitre calibrate` warns)."""
    return asked_where(dice, lambda d: d.face is not None and d.size < SMALL_PX)


def asked_where(dice: list[Die], doubtful) -> list[Die]:
    """The dice, each one `doubtful` says is so given SMALL_SURE at most (one cap for every
    reason a face is asked: under 0.9, the table asks)."""
    return [
        replace(d, confidence=min(d.confidence, SMALL_SURE)) if doubtful(d) else d for d in dice
    ]


def _same_die(a: Die, b: Die) -> bool:
    return math.hypot(a.x - b.x, a.y - b.y) < ONE_DIE * min(a.size, b.size)


def table_key(kind: str) -> str:
    """The name of this path's confidence table in vision/confidence.json."""
    return f"learned-{kind}"


def reads_flat(row: np.ndarray, names: tuple) -> bool:
    """Whether a crop read again shows the die's face (RELOOK_FACE, FLAT_ODDS)."""
    return row[face_columns(names)].max() >= RELOOK_FACE and row[names.index(COCKED)] < FLAT_ODDS
