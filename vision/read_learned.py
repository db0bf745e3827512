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

SURE_FIND = 0.5  # detector heat above which a die is a die even when its face is unreadable
MIN_FIND = 0.3  # below this, a find must be confirmed by the classifier seeing a face


def enabled(kind: str) -> bool:
    """Whether both networks are there (and ARBITRE_LEARNED=0 does not ask for the classical
    reader, vision/read.py's own, kept as the fallback and for comparison)."""
    if os.environ.get("ARBITRE_LEARNED", "1") == "0":
        return False
    return detector.available() and available(kind)


def learned_dice(frame: np.ndarray, kind: str, die_size: float | None = None) -> list[Die]:
    """Every die of a BGR frame, in_arena left True (the caller knows the arena)."""
    found = [f for f in find_dice(frame, die_size) if f.score >= MIN_FIND or not f.cocked]
    flat = [f for f in found if not f.cocked]
    out = [_cocked(f) for f in found if f.cocked]
    if flat:
        p = probabilities([crop_die(frame, f.x, f.y, f.size) for f in flat], kind)
        names = kind_classes(kind)
        for f, row in zip(flat, p, strict=True):
            die = _flat(f, row, names, kind)
            if die is not None:
                out.append(die)
    return out


def _cocked(f: Found) -> Die:
    return Die(None, f.x, f.y, f.size, cocked=True, confidence=f.cocked_score)


def _flat(f: Found, row: np.ndarray, names: tuple, kind: str) -> Die | None:
    best = int(row.argmax())
    if names[best] != NONE:
        raw = float(row[best]) * min(1.0, f.flat_score / SURE_FIND)
        return Die(names[best], f.x, f.y, f.size, confidence=calibrated(table_key(kind), raw))
    if f.flat_score < SURE_FIND:
        return None  # neither network is sure there is a die here
    sure = min(f.flat_score, float(row[best]))
    return Die(None, f.x, f.y, f.size, cocked=True, confidence=sure)


def table_key(kind: str) -> str:
    """The name of this path's confidence table in vision/confidence.json."""
    return f"learned-{kind}"
