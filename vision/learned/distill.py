"""Targets that teach a network to read as a kind's route reads (train.py --teacher-share): the
screen (runtime.screen_for) stands in front of the route and must agree with it where it is
sure, so it learns the route's probabilities, mixed with the true label, not the labels alone.
The route's networks were taught Blender renders too (m18, h1); their probabilities carry some
of that to a narrow network trained on generated crops only."""

from __future__ import annotations

import numpy as np

from . import runtime
from .classes import CLASSES, kind_indices

CHUNK = 512  # crops per forward pass of the route's networks


def route_targets(x: np.ndarray, labels: np.ndarray, kinds: list[str], share: float) -> np.ndarray:
    """N x len(CLASSES): (1 - share) x the one-hot label + share x the route's probabilities of
    the crop's kind (zero off the kind's classes, where the training masks the logits)."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"expected a share between 0 and 1, got {share!r}")
    out = np.zeros((len(labels), len(CLASSES)), np.float32)
    out[np.arange(len(labels)), labels] = 1.0 - share
    kinds = np.asarray(kinds)
    for kind in sorted(set(kinds.tolist())):
        rows = np.flatnonzero(kinds == kind)
        cols = kind_indices(kind)
        for s in range(0, len(rows), CHUNK):
            part = rows[s : s + CHUNK]
            p = runtime.blob_probabilities(x[part], kind, screen=False)
            out[np.ix_(part, cols)] += share * p
    return out


def agreement(targets: np.ndarray, labels: np.ndarray, share: float) -> float:
    """The share of crops the route reads as their label (its part of the targets alone: at a
    share up to 0.5 the mixed target's top class is always the label)."""
    if not len(labels) or share <= 0.0:
        return 1.0
    route = targets.copy()
    route[np.arange(len(labels)), labels] -= 1.0 - share
    return float((route.argmax(axis=1) == labels).mean())
