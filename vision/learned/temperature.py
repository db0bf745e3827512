"""A classifier's temperature per kind: how sharply its outputs are read, fitted on crops it
never learned from, so that a crop given 0.9 or more is right TARGET of the time (train.py fits
it after training, and again with --recalibrate)."""

from __future__ import annotations

import numpy as np

from .classes import kind_indices

TARGET = 0.99  # a confidence >= 0.9 should be right at least this often
MIN_SURE_SHARE = 0.1  # ...while at least this share of crops still reaches 0.9


def kind_softmax(logits: np.ndarray, kind: str, temperature: float) -> np.ndarray:
    z = logits[:, kind_indices(kind)] / temperature
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def fit_temperature(logits: np.ndarray, labels: np.ndarray, kind: str) -> tuple[float, dict]:
    """The temperature of least log-loss; raised, if needed, until crops given >= 0.9 are right
    at least TARGET of the time (a confidence the reader can trust, at the price of coverage),
    but not until almost no crop is sure: a few crops read wrong with confidence would otherwise
    make every crop unsure. The reader's own confidence is fitted end to end on top
    (vision/confidence.py); this one serves vision/second_opinion.py and the API."""
    idx = kind_indices(kind)
    target = np.array([idx.index(v) for v in labels])
    grid = np.exp(np.linspace(np.log(0.3), np.log(8.0), 121))

    def nll(t):
        p = kind_softmax(logits, kind, t)
        return float(-np.log(p[np.arange(len(target)), target] + 1e-12).mean())

    best = min(grid, key=nll)

    def sure(t):
        p = kind_softmax(logits, kind, t)
        keep = p.max(1) >= 0.9
        right = p.argmax(1) == target
        return keep, right

    chosen = best  # if no temperature meets the target with crops to spare, the likeliest one
    for t in grid[grid >= best]:
        keep, right = sure(t)
        if keep.mean() < MIN_SURE_SHARE:
            break  # hotter still, nothing would be sure: the target is not met by this network
        if right[keep].mean() >= TARGET:
            chosen = t
            break
    keep, right = sure(chosen)
    stats = {
        "nll_temperature": round(float(best), 4),
        "temperature": round(float(chosen), 4),
        "calibration_crops": int(len(target)),
        "accuracy": round(float(right.mean()), 4),
        "share_at_0.9": round(float(keep.mean()), 4),
        "accuracy_at_0.9": round(float(right[keep].mean()), 4) if keep.any() else None,
    }
    return float(chosen), stats
