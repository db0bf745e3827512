"""Where the reader turns its crops about in an oblique photo (vision/read_learned.py,
`_oblique_view`): the axis fit's point when the dice agree on it; a point of too few or
disagreeing dice only when it reads the sure dice clearly better than the centre (session 48).
Made-up finds and classifier: the crop of a die is the point it is turned about."""

from __future__ import annotations

import math

import numpy as np
from test_read_learned import _row

from vision import read_learned
from vision.learned.classes import COCKED, kind_classes
from vision.learned.detector import Found

SHAPE = (960, 1280, 3)
TRUE = (639.5 + 0.45 * 1280, 479.5)  # the point below: far right, a tilt of ~30 degrees


def _scene(monkeypatch, fit):
    """Five sure flat dice read better the nearer their crops' point is to TRUE, one die the
    classifier calls cocked; the axis fit gives `fit`."""
    names = kind_classes("strike")
    face = names[0]
    found = [Found(200.0 + 200 * k, 300.0 + 90 * k, 40.0, 0.9, 0.05) for k in range(5)]
    found.append(Found(640.0, 800.0, 40.0, 0.9, 0.05))

    def crop_die(frame, x, y, size, below=None):
        return (x, y, below)

    def probabilities(crops, kind):
        rows = []
        for x, y, below in crops:
            if (x, y) == (640.0, 800.0):
                rows.append(_row(names, COCKED, 0.9))
                continue
            bx, by = below if below is not None else ((1280 - 1) / 2, (960 - 1) / 2)
            rows.append(_row(names, face, 0.97 * math.exp(-math.dist((bx, by), TRUE) / 300)))
        return np.stack(rows)

    monkeypatch.setattr(read_learned, "crop_die", crop_die)
    monkeypatch.setattr(read_learned, "probabilities", probabilities)
    monkeypatch.setattr(read_learned.axis, "fit_off_centre", lambda frame, dice, least, kind: fit)
    frame = np.zeros(SHAPE, np.uint8)
    p = probabilities([crop_die(frame, f.x, f.y, f.size) for f in found], "strike")
    return frame, found, p


def test_a_point_the_dice_agree_on_is_taken_without_reading_them(monkeypatch):
    elsewhere = (100.0, 100.0)
    frame, found, p = _scene(monkeypatch, (elsewhere, True))
    assert read_learned._oblique_view(frame, found, p, "strike") == elsewhere


def test_a_point_the_dice_do_not_agree_on_is_taken_only_if_it_reads_them_better(monkeypatch):
    near = (TRUE[0] - 80, TRUE[1] + 60)
    frame, found, p = _scene(monkeypatch, (near, False))
    assert read_learned._oblique_view(frame, found, p, "strike") == near
    wrong = (639.5 - 0.45 * 1280, 479.5)
    frame, found, p = _scene(monkeypatch, (wrong, False))
    assert read_learned._oblique_view(frame, found, p, "strike") is None  # the centre
    frame, found, p = _scene(monkeypatch, None)
    assert read_learned._oblique_view(frame, found, p, "strike") is None
