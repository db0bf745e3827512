"""The ring look (session 52): a face read in some doubt, looked at again from around its find.

The detector finds a die resting on an edge or on another die on its upmost face, which looks
like a flat die's top face; a crop centred there reads that face. The rest of the cube lies
beside it, and crops a little aside (RADIUS of a side, RING directions) take it in: for a cocked
die, two or more of them read "cocked" surely; for a flat die, its neighbours seldom do in two
directions. On read seeds (pips 102-104, Détrak 108-110), the faces this calls cocked were 6
cocked dice and 1 flat die for each kind (Détrak's seeds 111-113, looked at after: 2 and 4; its
fresh seeds 123-125 flagged 6 cocked dice more with it, at no cost in errors: rule 129). Strike's
were 4 and 18 (its small dice in the box, the walls beside them), so Strike takes it at a surer
line: at 0.95, 4 cocked dice and 1 flat die on its seeds 95-100 (rule 127; bench/ring_probe.py).

Only faces the classifier already gives DOUBT odds of "cocked" are looked at: about one face in
ten, 8 crops each (a ring costs about 3.5 ms on one thread). Strike's from 0.05, where its ring
caught the same dice on its read seeds: from 0.02 its speed frames took 22-25 ms instead of 19
(rule 128). Pips' from 0.05 too since session 67 (rule 201): on its read seeds 212-215 the ring
called none of the 775 faces at 0.02-0.05 cocked, at 8 crops each; fresh seeds 220-223 read 122
errors to 121, the cocked dice and sure faces the same, and its 24 speed frames 2-3 ms faster.
read_learned.py runs it last, after every other look. The kinds that take it are SURE's.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.find_report import reported_face
from vision.learned import crop_die, probabilities
from vision.learned.classes import COCKED, kind_classes
from vision.learned.detector import Found

# the classifier's odds of "cocked" from which a face is looked at from around...
DOUBT = {"pips": 0.05, "detrak": 0.02, "strike": 0.05}
RADIUS = 0.4  # ...by crops this many sides aside...
RING = 8  # ...in this many directions...
# ...and called cocked when at least TWO of them read "cocked" this sure
SURE = {"pips": 0.8, "detrak": 0.8, "strike": 0.95}
TWO = 2


def ring_look(frame: np.ndarray, found: list[Found], p: np.ndarray, kind: str, below):
    """`found` and `p` with the doubted faces whose ring of crops (turned about `below`, as the
    reader's) reads "cocked" SURE[kind] from TWO directions or more taken as read at the second
    surest of those crops: reported cocked where they were found."""
    if kind not in SURE:
        return found, p
    names = kind_classes(kind)
    cocked = names.index(COCKED)
    idx = [
        i
        for i, (f, row) in enumerate(zip(found, p, strict=True))
        if row[cocked] >= DOUBT[kind] and reported_face(f, row, names, kind)
    ]
    if not idx:
        return found, p
    crops = [crop_die(frame, m.x, m.y, m.size, below) for i in idx for m in around(found[i])]
    q = probabilities(crops, kind, needed=_may_decide(kind, cocked)).reshape(len(idx), RING, -1)
    p = p.copy()
    for i, rows in zip(idx, q, strict=True):
        second = rows[np.argsort(rows[:, cocked])[-TWO]]
        if second[cocked] >= SURE[kind]:
            p[i] = second
    return found, p


def _may_decide(kind: str, cocked: int):
    """The crops the route's other networks must read: those that may end at SURE "cocked", in
    rings where TWO may. The others' reading cannot move the rest over the line, and a ring
    without two such crops is not taken whatever they say, so the ring's outcome is the same
    as with every crop read by every network (pips' speed frame with a ring: the others read
    3 crops of 8, 4 ms of its 38)."""

    def needed(first: np.ndarray, most: np.ndarray) -> np.ndarray:
        may = (most[:, cocked] >= SURE[kind]).reshape(-1, RING)
        return (may & (may.sum(axis=1, keepdims=True) >= TWO)).ravel()

    return needed


def around(f: Found, radius: float = RADIUS) -> list[Found]:
    """The find moved `radius` sides in each of RING directions."""
    turns = [2 * math.pi * k / RING for k in range(RING)]
    step = radius * f.size
    return [replace(f, x=f.x + step * math.cos(a), y=f.y + step * math.sin(a)) for a in turns]
