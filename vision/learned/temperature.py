"""A classifier's temperature per kind: how sharply its outputs are read, fitted on crops it
never learned from, so that a crop given 0.9 or more is right TARGET of the time (train.py fits
it after training, and again with --recalibrate)."""

from __future__ import annotations

import numpy as np

from .classes import CLASSES, COCKED, kind_indices

SURE = 0.9  # the confidence issue 5 states its target at: ">= 0.9 right 99 % of the time"
TARGET = 0.99  # a confidence >= SURE should be right at least this often
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

    chosen = best  # if no temperature meets the target with crops to spare, the likeliest one
    for t in grid[grid >= best]:
        read, sure = _read(logits, kind, t)
        if sure.mean() < MIN_SURE_SHARE:
            break  # hotter still, nothing would be sure: the target is not met by this network
        if (read == target)[sure].mean() >= TARGET:
            chosen = t
            break
    stats = {
        "nll_temperature": round(float(best), 4),
        "temperature": round(float(chosen), 4),
        "calibration_crops": int(len(target)),
    }
    stats.update(figures_at(logits, labels, kind, chosen))
    return float(chosen), stats


def figures_at(logits: np.ndarray, labels: np.ndarray, kind: str, temperature: float) -> dict:
    """How the crops read at one temperature: accuracy, the share given SURE or more and how
    often those are right (None if none is), and the cocked crops read cocked. The figures a
    network's json records (train.py fits on them; bench/calibration_figures.py reads a parent
    and its average at the same temperature)."""
    idx = kind_indices(kind)
    target = np.array([idx.index(v) for v in labels])
    read, sure = _read(logits, kind, temperature)
    right = read == target
    cocked = target == idx.index(CLASSES.index(COCKED))
    return {
        "accuracy": round(float(right.mean()), 4),
        "share_at_0.9": round(float(sure.mean()), 4),
        "accuracy_at_0.9": round(float(right[sure].mean()), 4) if sure.any() else None,
        "cocked_crops": int(cocked.sum()),
        "cocked_read_cocked": int((read[cocked] == target[cocked]).sum()),
    }


def _read(logits: np.ndarray, kind: str, temperature: float) -> tuple[np.ndarray, np.ndarray]:
    """Each crop's class (the kind's own index) and whether it is given SURE or more."""
    p = kind_softmax(logits, kind, temperature)
    return p.argmax(1), p.max(1) >= SURE
