"""The look further out of vision/later_looks.py (session 33): in an oblique photo the detector
finds a flat die between its top face and the side face the photo shows, and the crop there
reads cocked; read again further from the point below the camera, it reads its face, asked."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from test_read_learned import _row

from vision import find_report, later_looks, read_learned
from vision.learned import axis
from vision.learned.classes import COCKED, kind_classes
from vision.learned.crops import crop_die
from vision.learned.detector import Found
from vision.learned.off_law import ASKED
from vision.learned.runtime import probabilities
from vision.synth.scene import benchmark_scene

pytestmark = pytest.mark.skipif(
    not read_learned.enabled("pips"), reason="the learned models are not there"
)


@pytest.fixture(scope="module")
def oblique():
    """Seed 1's pips scene 112: 800 x 600, tilted 21 degrees, its point below 0.3 frame lengths
    off the centre; its flat die farthest from that point, and the find the detector makes of
    it (0.4 of a side toward the point, as it found this die)."""
    scene = benchmark_scene("pips", 112, 1)
    below = scene.below
    die = max((d for d in scene.dice if not d.cocked), key=lambda d: math.dist((d.x, d.y), below))
    r = math.dist((die.x, die.y), below)
    ux, uy = (die.x - below[0]) / r, (die.y - below[1]) / r
    find = Found(die.x - 0.4 * die.size * ux, die.y - 0.4 * die.size * uy, die.size, 0.3, 0.55)
    return scene, die, find


def _read(scene, find):
    return probabilities([crop_die(scene.image, find.x, find.y, find.size, scene.below)], "pips")


def test_a_flat_die_found_toward_the_point_below_reads_its_face_further_out(oblique):
    scene, die, find = oblique
    names = kind_classes("pips")
    p = _read(scene, find)
    assert find_report.reported_cocked(find, p[0], names, "pips")  # what the reader had
    found, q, moved = later_looks.look_outward(scene.image, [find], p, "pips", scene.below)
    assert moved == {0}
    assert names[int(q[0].argmax())] == die.face
    assert math.dist((found[0].x, found[0].y), (die.x, die.y)) < 0.2 * die.size
    again = find_report.report(found[0], q[0], names, "pips")
    assert (again.face, again.cocked) == (die.face, False)


def test_only_far_finds_of_oblique_pips_photos_are_looked_at_further_out(oblique, monkeypatch):
    """Not for another kind, nor without a point below, nor a point near the centre (a photo
    from above: the point is a guess), nor a find near the point (there the cocked dice read as
    faces); and a die read cocked surely further out stays cocked."""
    scene, die, find = oblique
    p = _read(scene, find)
    h, w = scene.image.shape[:2]
    near_centre = ((w - 1) / 2 + 0.1 * w, (h - 1) / 2)
    read = []
    real = later_looks.probabilities
    monkeypatch.setattr(
        later_looks, "probabilities", lambda crops, k: read.append(len(crops)) or real(crops, k)
    )
    for kind, below in (("strike", scene.below), ("pips", None), ("pips", near_centre)):
        found, q, moved = later_looks.look_outward(scene.image, [find], p, kind, below)
        assert (found, moved, read) == ([find], set(), [])
        assert np.array_equal(q, p)
    r = math.dist((find.x, find.y), scene.below)
    assert r >= later_looks.OUTWARD_REACH * max(h, w)
    step = 0.3 * max(h, w) / r  # 0.3 frame lengths from the point, the same way
    near = replace(
        find,
        x=scene.below[0] + step * (find.x - scene.below[0]),
        y=scene.below[1] + step * (find.y - scene.below[1]),
    )
    assert later_looks.look_outward(scene.image, [near], p, "pips", scene.below)[2] == set()
    assert read == []
    names = kind_classes("pips")
    monkeypatch.setattr(
        later_looks, "probabilities", lambda crops, k: np.stack([_row(names, COCKED)] * len(crops))
    )
    found, q, moved = later_looks.look_outward(scene.image, [find], p, "pips", scene.below)
    assert (found, moved) == ([find], set())


def test_a_face_read_further_out_is_asked(oblique, monkeypatch):
    """The reader first read that die cocked: its face goes to the players, not the record."""
    scene, die, find = oblique
    find = replace(find, flat_score=0.9, cocked_score=0.1)
    names = kind_classes("pips")
    sure = _row(names, die.face, p=0.999)
    monkeypatch.setattr(read_learned, "find_dice", lambda *a, **k: [find])
    for module in (read_learned, later_looks):  # the first reading's and the looks' classifier
        for name in ("probabilities", "blob_probabilities"):  # (of crops, of their input)
            monkeypatch.setattr(module, name, lambda crops, k: np.stack([sure] * len(crops)))
    (alone,) = read_learned.learned_dice(scene.image, "pips")
    assert alone.face == die.face and alone.confidence > ASKED
    monkeypatch.setattr(
        read_learned, "look_outward", lambda frame, found, p, kind, below: (found, p, {0})
    )
    (asked,) = read_learned.learned_dice(scene.image, "pips")
    assert asked.face == die.face and asked.confidence == ASKED


def test_no_kind_is_looked_at_further_out_without_a_point_below(oblique, monkeypatch):
    """The look further out is about the point the oblique view found. Détrak had its own axis
    point for it until session 71, which on 600 read scenes and 180 renders never gave one
    (rule 217): neither kind looks further out, nor asks the axis network, without a point."""
    scene, die, find = oblique
    monkeypatch.setattr(axis, "fit_off_centre", lambda *a, **k: pytest.fail("asked for a fit"))
    for kind in ("detrak", "pips"):
        names = kind_classes(kind)
        face = _row(names, names[0], p=0.99)
        monkeypatch.setattr(
            later_looks, "probabilities", lambda crops, k, r=face: np.stack([r] * len(crops))
        )
        cocked = _row(names, COCKED, p=0.9)[None]
        assert later_looks.look_outward(scene.image, [find], cocked, kind, None)[2] == set()
        found, q, moved = later_looks.look_outward(scene.image, [find], cocked, kind, scene.below)
        assert moved == {0}


def test_a_calibrated_camera_is_not_looked_at_further_out(oblique, monkeypatch):
    """A known die size is the table's camera, mounted above it: no axis network on its frames."""
    scene, die, find = oblique
    monkeypatch.setattr(read_learned, "find_dice", lambda *a, **k: [find])
    monkeypatch.setattr(read_learned, "look_outward", lambda *a: pytest.fail("looked further out"))
    read_learned.learned_dice(scene.image, "detrak", die_size=die.size)
