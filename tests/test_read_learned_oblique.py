"""Where the reader turns its crops about in an oblique photo (vision/read_learned.py,
`_oblique_view`): the axis fit's point when the dice agree on it; for Strike and pips a point of
too few or disagreeing dice only when it reads the sure dice clearly better than the centre
(session 48), for Détrak such a point as it is (rule 212); where the sure dice are too few, for
EVERY_FIND_KINDS a fit of every find, checked on them all (session 49). Made-up finds and
classifier: the crop of a die is the point it is turned about."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_read_learned import _row

from vision import read_learned
from vision.learned.classes import COCKED, kind_classes
from vision.learned.detector import Found

SHAPE = (960, 1280, 3)
TRUE = (639.5 + 0.45 * 1280, 479.5)  # the point below: far right, a tilt of ~30 degrees


def _scene(monkeypatch, fit, kind="strike"):
    """Five sure flat dice read better the nearer their crops' point is to TRUE, one die the
    classifier calls cocked; the axis fit gives `fit`."""
    names = kind_classes(kind)
    face = names[0]
    found = [Found(200.0 + 200 * k, 300.0 + 90 * k, 40.0, 0.9, 0.05) for k in range(5)]
    found.append(Found(640.0, 800.0, 40.0, 0.9, 0.05))

    def crop_die(frame, x, y, size, below=None):
        return (x, y, below)

    def probabilities(crops, kind, needed=None):
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
    p = probabilities([crop_die(frame, f.x, f.y, f.size) for f in found], kind)
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


def test_detrak_takes_a_point_its_dice_do_not_agree_on_without_reading_them(monkeypatch):
    """Rule 212: a point the sure dice read worse, which Strike turns down, Détrak takes."""
    wrong = (639.5 - 0.45 * 1280, 479.5)
    frame, found, p = _scene(monkeypatch, (wrong, False), "detrak")
    monkeypatch.setattr(read_learned, "reads_better", lambda *a, **k: pytest.fail("read again"))
    assert read_learned._oblique_view(frame, found, p, "detrak") == wrong
    frame, found, p = _scene(monkeypatch, None, "detrak")
    assert read_learned._oblique_view(frame, found, p, "detrak") != wrong


def _few_sure(monkeypatch, kind, point):
    """Two sure flat dice and four finds the detector calls cocked (in a photo this oblique it
    sees their side faces), all read better the nearer their crops' point is to TRUE; the axis
    fit gives `point`, unagreed, for 3 dice or more. Returns the reader's point and how many
    dice each fit was asked for."""
    names = kind_classes(kind)
    found = [Found(200.0 + 300 * k, 300.0, 40.0, 0.9, 0.05) for k in range(2)]
    found += [Found(200.0 + 200 * k, 700.0, 40.0, 0.2, 0.8) for k in range(4)]

    def probabilities(crops, kind, needed=None):
        rows = []
        for below in crops:
            bx, by = below if below is not None else ((1280 - 1) / 2, (960 - 1) / 2)
            rows.append(_row(names, names[0], 0.97 * math.exp(-math.dist((bx, by), TRUE) / 300)))
        return np.stack(rows)

    fits = []

    def fit(frame, dice, least, kind):
        fits.append(len(dice))
        return None if len(dice) < 3 else (point, False)

    monkeypatch.setattr(read_learned, "crop_die", lambda frame, x, y, size, below=None: below)
    monkeypatch.setattr(read_learned, "probabilities", probabilities)
    monkeypatch.setattr(read_learned.axis, "fit_off_centre", fit)
    frame = np.zeros(SHAPE, np.uint8)
    p = probabilities([None] * len(found), kind)
    return read_learned._oblique_view(frame, found, p, kind), fits


def test_detrak_with_too_few_sure_dice_fits_every_find_and_checks_it_on_them_all(monkeypatch):
    near = (TRUE[0] - 80, TRUE[1] + 60)
    assert _few_sure(monkeypatch, "detrak", near) == (near, [2, 6])
    wrong = (639.5 - 0.45 * 1280, 479.5)
    assert _few_sure(monkeypatch, "detrak", wrong) == (None, [2, 6])


def test_pips_fits_every_find_once_its_sure_dice_fit_gives_no_point(monkeypatch):
    near = (TRUE[0] - 80, TRUE[1] + 60)
    assert _few_sure(monkeypatch, "pips", near) == (near, [2, 6])
    wrong = (639.5 - 0.45 * 1280, 479.5)
    assert _few_sure(monkeypatch, "pips", wrong) == (None, [2, 6])


def test_strike_does_not_fit_every_find(monkeypatch):
    """Session 48's rule 109: Strike's fresh renders read no better so."""
    near = (TRUE[0] - 80, TRUE[1] + 60)
    assert _few_sure(monkeypatch, "strike", near) == (None, [2])
