"""A face whose die shows the camera the wrong side: asked, not trusted.

A flat die seen from a camera not straight above it shows some of its side faces, and the offset
of its bottom face from its top face follows one law over the whole frame, offset = g (below -
top) (vision/learned/axis.py). The upmost face of a die resting on an edge or on another die,
read as if the die lay flat, shows a side face the law does not predict. The classifier cannot
always tell such a die from a flat one (it reads one face, from one crop); the law is what the
other dice of the frame say.

So a face the classifier already doubts a little (its odds of "cocked" at least DOUBT) whose
offset lies more than OFF sides from the law its frame's flat faces fit is reported with a
confidence of at most ASKED, under the table's line (kiosk/controllers/decision.py CONFIDENT):
the table asks the players for that die instead of writing a face that may be a cocked die's.
It does not call such a die cocked: as many flat dice lie as far off the law (misplaced finds in a
cluster, a crop that clips a neighbour), and telling players a die they see flat is cocked is
arguing with them; a question costs one tap. Chosen on the benchmark's seeds 1 and 3; on fresh
seeds 5-7 it asked 24 of the 103 faces read at 0.9 or more on cocked dice, and 20 of 17 622
flat dice read sure (docs/vision-history.md, session 29). The axis network runs only on frames holding
such a doubted face.

Where the frame's other flat faces fit the law closely, though, a doubted Strike face TYPICAL times
further off than they lie is a cocked die's nearly always: that one is reported cocked, and the
table asks for it to be thrown again (session 50; pips' and Détrak's flat dice lie that far too
often, so theirs are asked). The law speaks the other way too: a pips die reported cocked with
little doubt (GIVE_BACK) whose side faces sit on its frame's law is nearly always flat, and is
given back the face the classifier reads best, asked (session 50).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.readings import Die

from . import axis

DOUBT = 0.1  # the classifier's odds of "cocked" from which a face's offset is checked...
OFF = 0.35  # ...and the distance from the law, in die sides, over which the face is asked
ASKED = 0.5  # ...with at most this confidence (about half such faces were cocked dice)
# ...and reported cocked when it also lies TYPICAL[kind] times further off than the frame's
# other flat faces do (their median, MIN_OTHERS of them at least): where the rest of the frame
# fits the law closely, such a face is a cocked die's upmost face far more often than a flat
# die's (read seeds of Strike: 10 cocked dice and 1 flat; fresh seeds 92-94: 107 errors to 99,
# 8 more cocked dice flagged). Pips' flat faces lie that far too often (5 cocked and 3 flat on
# its read seeds), and Détrak's gained as many cocked dice as it lost flat ones (rules 115-117):
# they are asked.
TYPICAL = {"strike": 5.0}
MIN_OTHERS = 3
# A die reported cocked whose classifier gives "cocked" odds in GIVE_BACK[kind] only, lying within
# ON_LAW sides of the law of a frame of ON_LAW_FLAT flat faces or more, is given back the face the
# classifier reads best, asked (session 50: pips' read seeds 1-4, 24 flat dice to 2; fresh seeds
# 93-95 173 errors to 164 at 0.15 sides, rule 118; 96-98 161 to 156 from 0.15 to 0.25, rule 119)
GIVE_BACK = {"pips": (0.2, 0.5)}
ON_LAW, ON_LAW_FLAT = 0.25, 4


def off_law(frame: np.ndarray, dice: list[Die], kind: str) -> np.ndarray:
    """Each die's axis offset's distance from the law its frame's flat faces fit, in sides: the
    offset's length when they fit none (fewer than axis.MIN_DICE, or disagreeing)."""
    if not dice:
        return np.zeros(0)
    points = np.array([(d.x, d.y) for d in dice], float)
    offsets = axis.offsets(frame, [(d.x, d.y, d.size) for d in dice], kind).astype(float)
    flat = np.flatnonzero(_flat_faces(dice))
    below = (
        axis.point_below(points[flat], offsets[flat], frame.shape, kind=kind) if len(flat) else None
    )
    if below is None:
        return np.linalg.norm(offsets, axis=1)
    towards = np.asarray(below) - points
    g = float((offsets[flat] * towards[flat]).sum() / max((towards[flat] ** 2).sum(), 1e-9))
    return np.linalg.norm(offsets - g * towards, axis=1)


def ask_off_law(
    frame: np.ndarray, dice: list[Die], cocked_odds, kind: str, best_faces=None
) -> list[Die]:
    """The dice, each face read with "cocked" at DOUBT or more and lying over OFF from its
    frame's law given at most ASKED confidence, or reported cocked where it also lies
    TYPICAL[kind] times further off than the frame's other flat faces; and each die reported
    cocked with odds in GIVE_BACK[kind] lying on a close law given back its best face
    (`best_faces`, in order), asked. `cocked_odds`: the classifier's odds of "cocked" for each
    die, in order. Frames with no such die are returned as they are, without running the axis
    network."""
    odds = np.asarray(cocked_odds, float)
    doubted = [
        i
        for i, d in enumerate(dice)
        if d.face is not None and d.confidence > ASKED and odds[i] >= DOUBT
    ]
    give = GIVE_BACK.get(kind) if best_faces is not None else None
    unsure = [i for i, d in enumerate(dice) if give and d.cocked and give[0] <= odds[i] < give[1]]
    if not (doubted or unsure) or not axis.available(kind):
        return dice
    off = off_law(frame, dice, kind)
    out = _ask_or_call(dice, off, [i for i in doubted if off[i] > OFF], kind)
    return _give_back(out, dice, off, unsure, best_faces)


def _ask_or_call(dice: list[Die], off: np.ndarray, far: list[int], kind: str) -> list[Die]:
    """The dice, each of the faces `far` off the law asked, or reported cocked where it lies
    TYPICAL[kind] times further off than its frame's other flat faces."""
    bar = TYPICAL[kind] * typical_off(off, dice) if far and kind in TYPICAL else None
    out = list(dice)
    for i in far:
        if bar is not None and off[i] > bar[i]:
            out[i] = replace(dice[i], face=None, cocked=True, confidence=ASKED)
        else:
            out[i] = replace(dice[i], confidence=ASKED)
    return out


def _give_back(out: list[Die], dice: list[Die], off: np.ndarray, unsure: list[int], best_faces):
    """`out`, each of the `unsure` cocked reports lying within ON_LAW of the law given its best
    face, asked, in a frame of ON_LAW_FLAT flat faces or more (fewer fit no law to trust)."""
    if _flat_faces(dice).sum() < ON_LAW_FLAT:
        return out
    for i in unsure:
        if off[i] < ON_LAW:
            out[i] = replace(dice[i], face=best_faces[i], cocked=False, confidence=ASKED)
    return out


def typical_off(off: np.ndarray, dice: list[Die]) -> np.ndarray:
    """Each die's measure of how far its frame's flat faces lie off the law: the median of the
    others' distances, so that a die does not set its own bar; infinite with fewer than
    MIN_OTHERS others, where the frame says too little to call a die cocked against."""
    flat = _flat_faces(dice)
    out = np.full(len(dice), np.inf)
    for i in range(len(dice)):
        others = off[flat & (np.arange(len(dice)) != i)]
        if len(others) >= MIN_OTHERS:
            out[i] = float(np.median(others))
    return out


def _flat_faces(dice: list[Die]) -> np.ndarray:
    """Which dice are read as flat faces: the ones whose side faces the law is fitted to."""
    return np.array([d.face is not None and not d.cocked for d in dice], bool)
