"""The refined look (session 37): the finds the reader is about to lose, moved where the refiner
(vision/learned/refine.py) puts their die and read there.

The detector puts some finds a third to half a side off their die (dice touching others, flat
dice of oblique photos); the classifier then reads them cocked or sees no die. Read again where
the refiner says the die's top face lies, most read their face. A find the refiner leaves about
where it was is read as before: in session 37, the refined finds read as faces that it moved
less than a fifth of a side were as often cocked dice as flat ones (seeds 1 and 3); with session
53's classifiers the line lies shorter (REFINE_MOVE). read_learned.py runs it after the
other looks again (vision/later_looks.py) and before the look further out (look_outward there).
"""

from __future__ import annotations

import math

import numpy as np

from vision.find_report import MIN_COCKED, RELOOK_FIND, reads_flat, reported_cocked
from vision.learned import crop_die, probabilities, refine
from vision.learned.classes import NONE, kind_classes
from vision.learned.detector import Found

# the kinds that take it, and how far (die sides) the refiner must move a find for it to be read
# there (Strike at 0.2: 3 errors fewer of 88 on fresh seeds 14-16, under rule 70's bar; at 0.25,
# rule 72: 8 fewer of 109 on seeds 20-22; docs/vision-history.md, "Session 37"). Since session
# 53, with today's classifiers, Détrak and pips at 0.1 (rules 130, 131: their finds moved 0.1-0.2
# whose refined crop read flat lay on flat dice, 5 and 11 on read seeds, none on a cocked die) and
# Strike at 0.2 (rule 132: 9 flat, 1 cocked at 0.2-0.25; each band lower held a cocked die too);
# fresh seeds 195 -> 191, 175 -> 172 and 98 -> 93 errors, cocked dice flagged the same
REFINE_KINDS = ("pips", "detrak", "strike")
REFINE_MOVE = {"pips": 0.1, "detrak": 0.1, "strike": 0.2}


def refined_look(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below):
    """`found` and `p` (the classifier's rows) with the finds about to be lost moved where the
    refiner puts their die, and taken there when it moved them the kind's REFINE_MOVE sides or
    more and the crop (turned about `below`, as the reader's) reads flat (find_report.reads_flat)."""
    if kind not in REFINE_KINDS or not refine.available():
        return found, p
    names = kind_classes(kind)
    idx = [
        i
        for i, (f, row) in enumerate(zip(found, p, strict=True))
        if about_lost(f, row, names, kind)
    ]
    if not idx:
        return found, p
    moved = refine.refined(frame, [found[i] for i in idx])
    far = [
        (i, m) for i, m in zip(idx, moved, strict=True) if _moved(found[i], m) >= REFINE_MOVE[kind]
    ]
    if not far:
        return found, p
    q = probabilities([crop_die(frame, m.x, m.y, m.size, below) for _, m in far], kind)
    found, p = list(found), p.copy()
    for (i, m), row in zip(far, q, strict=True):
        if reads_flat(row, names):
            found[i], p[i] = m, row
    return found, p


def about_lost(f: Found, row: np.ndarray, names: tuple, kind: str) -> bool:
    """Whether the report of this find loses a die it may be off: reported cocked, or no die
    seen where the detector is warm (as later_looks.look_around and closer_look choose theirs)."""
    if reported_cocked(f, row, names, kind):
        return True
    if names[int(row.argmax())] != NONE:
        return False
    return f.cocked_score >= MIN_COCKED if f.cocked else f.flat_score >= RELOOK_FIND


def _moved(f: Found, m: Found) -> float:
    return math.hypot(m.x - f.x, m.y - f.y) / f.size
