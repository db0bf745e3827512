"""A second opinion on each face from the learned classifier (vision/learned), when its model is
there: the classical reader finds the dice; the network looks at each top face again.

Agreeing, the two keep the surer confidence; disagreeing, the surer face is kept with the lesser
confidence (so the table asks the players). A blob the classical reader could not read stays
unread: on busy tables the network names faces on prints and grain. Cocked dice stay cocked. Switched off with ARBITRE_LEARNED=0, and absent
whenever vision/learned/models/faces.onnx is (the classical reading is then returned as is).
"""

from __future__ import annotations

import os
from dataclasses import replace

import numpy as np

from vision.readings import Die


def enabled(kind: str) -> bool:
    if os.environ.get("ARBITRE_LEARNED", "1") == "0":
        return False
    try:
        from vision.learned import available
    except ImportError:  # the learned package is optional
        return False
    return available(kind)


def combine(frame: np.ndarray, dice: list[Die], kind: str) -> list[Die]:
    """The dice with each flat die's face and confidence weighed against the network's."""
    from vision.learned import classify_faces, crop_die

    flat = [i for i, d in enumerate(dice) if not d.cocked]
    if not flat:
        return dice
    crops = [crop_die(frame, dice[i].x, dice[i].y, dice[i].size) for i in flat]
    out = list(dice)
    for i, (face, p) in zip(flat, classify_faces(crops, kind), strict=True):
        out[i] = weigh(dice[i], face, p)
    return out


def weigh(d: Die, face, p: float) -> Die:
    """One die's classical reading weighed against the network's (face None: no readable die)."""
    if face is None:
        if d.face is None:
            return d
        return replace(d, confidence=min(d.confidence, 1.0 - p))
    if d.face is None:
        return d  # the network names a face on any blob (a print, grain): it only checks faces
    if face == d.face:
        return replace(d, confidence=max(d.confidence, p))
    surer = face if p > d.confidence else d.face
    return replace(d, face=surer, confidence=min(d.confidence, p))
