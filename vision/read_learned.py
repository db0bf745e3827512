"""The learned reading of a frame: the detector finds the dice (vision/learned/detector.py), the
classifier reads each flat die's top face from a full-resolution crop (vision/learned/runtime.py).

Each network does what it is good at: the detector sees the whole frame small (where a die is, how
big, whether it lies flat), the classifier sees one die large (which face). A flat die whose crop
the classifier calls "no die" is either a false find (a print on the tray, a pip of a big die:
dropped when the detector was unsure too) or a die whose top face is not a face, which is what
a cocked die shows (the classifier was taught the detector's finds on cocked dice as "no die"):
it is reported cocked, face None, so the table has it rolled again or asks. A face is never
guessed.
"""

from __future__ import annotations

import os

import numpy as np

from vision.confidence import calibrated
from vision.learned import available, crop_die, detector, probabilities
from vision.learned.classes import NONE, kind_classes
from vision.learned.detector import Found, find_dice
from vision.readings import Die

MIN_FIND = 0.25  # detector heat a flat find needs (the classifier must then see a face in it)
MIN_COCKED = 0.3  # ...that a cocked find needs
SURE_FIND = 0.7  # a find the classifier sees no face in is a cocked die when both are this sure


def enabled(kind: str) -> bool:
    """Whether both networks are there (and ARBITRE_LEARNED=0 does not ask for the classical
    reader, vision/read.py's own, kept as the fallback and for comparison)."""
    if os.environ.get("ARBITRE_LEARNED", "1") == "0":
        return False
    return detector.available() and available(kind)


def learned_dice(frame: np.ndarray, kind: str, die_size: float | None = None) -> list[Die]:
    """Every die of a BGR frame, in_arena left True (the caller knows the arena)."""
    found = find_dice(frame, die_size)
    out = [_cocked(f, f.cocked_score) for f in found if f.cocked and f.cocked_score >= MIN_COCKED]
    flat = [f for f in found if not f.cocked and f.flat_score >= MIN_FIND]
    if flat:
        p = probabilities([crop_die(frame, f.x, f.y, f.size) for f in flat], kind)
        names = kind_classes(kind)
        for f, row in zip(flat, p, strict=True):
            die = _flat(f, row, names, kind)
            if die is not None:
                out.append(die)
    return out


def _cocked(f: Found, sure: float) -> Die:
    return Die(None, f.x, f.y, f.size, cocked=True, confidence=round(sure, 3))


def _flat(f: Found, row: np.ndarray, names: tuple, kind: str) -> Die | None:
    best = int(row.argmax())
    if names[best] != NONE:
        raw = float(row[best]) * min(1.0, f.flat_score / SURE_FIND)
        return Die(names[best], f.x, f.y, f.size, confidence=calibrated(table_key(kind), raw))
    if f.flat_score < SURE_FIND or row[best] < SURE_FIND:
        return None  # not sure enough that there is a die here, and it shows no face
    return _cocked(f, min(f.flat_score, float(row[best])))


def table_key(kind: str) -> str:
    """The name of this path's confidence table in vision/confidence.json."""
    return f"learned-{kind}"
