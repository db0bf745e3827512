"""Where the reader turns its crops about in an oblique photo (vision/read_learned.py,
`_oblique_view`): the axis fit's point, its dice agreeing or not (Détrak since rule 212, Strike
and pips since rule 224); where the sure dice are too few, a fit of every find, checked on them
all (session 49; Strike since rule 224). Made-up finds and classifier: the crop of a die is the
point it is turned about."""

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


@pytest.mark.parametrize("kind", ["strike", "pips", "detrak"])
def test_the_axis_fit_is_taken_without_reading_them(monkeypatch, kind):
    """Rules 212 and 224: the fit's point is taken as it is, its dice agreeing or not and the
    sure dice reading it worse (the sure dice of an oblique photo are few, and the prior no
    longer pulls their fit in); no fit, not that point."""
    wrong = (639.5 - 0.45 * 1280, 479.5)
    frame, found, p = _scene(monkeypatch, wrong, kind)
    monkeypatch.setattr(read_learned, "probabilities", lambda *a, **k: pytest.fail("read again"))
    assert read_learned._oblique_view(frame, found, p, kind) == wrong
    frame, found, p = _scene(monkeypatch, None, kind)
    assert read_learned._oblique_view(frame, found, p, kind) != wrong


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
        return None if len(dice) < 3 else point

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


@pytest.mark.parametrize("kind", ["pips", "strike"])
def test_pips_and_strike_fit_every_find_once_their_sure_dice_fit_gives_no_point(monkeypatch, kind):
    """Strike since rule 224 (session 48's rule 109 had kept it off)."""
    near = (TRUE[0] - 80, TRUE[1] + 60)
    assert _few_sure(monkeypatch, kind, near) == (near, [2, 6])
    wrong = (639.5 - 0.45 * 1280, 479.5)
    assert _few_sure(monkeypatch, kind, wrong) == (None, [2, 6])


@pytest.mark.parametrize(
    "point, die_size, routed",
    [((1100.0, 480.0), None, True), (None, None, False), ((1100.0, 480.0), 40.0, False)],
    ids=["photo-from-a-point-below", "photo-from-above", "the-table-s-camera"],
)
def test_a_photo_read_from_a_point_below_takes_the_oblique_route(
    monkeypatch, point, die_size, routed
):
    """Détrak's oblique photos are read by faces-oblique (rule 241) from the point the search
    finds on: every later look too, and nothing else (the table's camera knows its dice)."""
    from vision.learned import runtime

    oblique = runtime._routes("oblique").get("detrak")
    if not oblique:
        pytest.skip("no oblique route for Détrak in classifiers.json")
    asked = []
    real = runtime.models_for

    def models_for(kind):
        asked.append(real(kind))
        return asked[-1]

    monkeypatch.setattr(runtime, "models_for", models_for)
    found = [Found(300.0 + 150 * k, 400.0, 40.0, 0.9, 0.05) for k in range(4)]
    monkeypatch.setattr(read_learned, "find_dice", lambda *a, **kw: list(found))
    monkeypatch.setattr(read_learned, "_oblique_view", lambda *a: point)
    frame = np.random.default_rng(4).integers(60, 200, SHAPE, np.uint8)
    read_learned.learned_dice(frame, "detrak", die_size)
    default = runtime._routes().get("detrak")
    assert asked[0] == default  # (the first reading, before the point below is known)
    assert (tuple(oblique) in asked) == routed
    assert real("detrak") == default  # (and the next frame starts afresh)
