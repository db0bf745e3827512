"""The mirrored look of vision/later_looks.py (session 11; every Détrak face since session 54):
a face is read again from its mirrored crop and the two readings averaged."""

from __future__ import annotations

import numpy as np
import pytest
from test_read_learned import _row

from vision import find_report, later_looks, read_learned

pytestmark = pytest.mark.skipif(
    not all(read_learned.enabled(k) for k in ("pips", "strike", "detrak")),
    reason="the learned models are not there",
)


def test_a_doubtful_face_is_read_again_mirrored(monkeypatch):
    """A flat find read as a face with "cocked" between DOUBT_ODDS and COCKED_ODDS is read once
    more from its mirrored crop and the two readings averaged; a sure face, or a find the
    detector calls cocked, is not (the second look costs a forward pass)."""
    from vision.learned.classes import kind_classes
    from vision.learned.detector import Found

    names = kind_classes("pips")
    cocked = names.index("cocked")
    found = [
        Found(20.0, 20.0, 16.0, flat_score=0.9, cocked_score=0.1),  # doubtful
        Found(60.0, 20.0, 16.0, flat_score=0.9, cocked_score=0.1),  # sure
        Found(20.0, 60.0, 16.0, flat_score=0.2, cocked_score=0.6),  # the detector's cocked
    ]
    doubtful = _row(names, 4, p=0.6)
    doubtful[cocked] = (later_looks.DOUBT_ODDS["pips"] + find_report.COCKED_ODDS["pips"]) / 2
    p = np.stack([doubtful, _row(names, 5), doubtful])
    looked = []

    def mirrored_reading(blob, kind):
        looked.append(len(blob))
        row = _row(names, "cocked", p=0.6)
        return np.stack([row] * len(blob))

    monkeypatch.setattr(later_looks, "blob_probabilities", mirrored_reading)
    frame = np.full((80, 80, 3), 128, np.uint8)
    again = later_looks.mirrored_look(frame, found, p, "pips", None)
    assert looked == [1]
    assert again[0, cocked] == pytest.approx((doubtful[cocked] + 0.6) / 2)
    assert find_report.flat(found[0], again[0], names, "pips").cocked
    assert np.array_equal(again[1:], p[1:])


def test_every_detrak_face_is_read_again_mirrored(monkeypatch):
    """Détrak's faces are read from their mirrored crop too however surely the die lies flat
    (rule 135: fresh seeds 179 -> 167 errors); a pips face the classifier gives no odds of
    being cocked is read once."""
    from vision.learned.classes import kind_classes
    from vision.learned.detector import Found

    looked = []

    def mirrored_reading(blob, kind):
        looked.append((kind, len(blob)))
        return np.stack([_row(kind_classes(kind), "cocked", p=0.6)] * len(blob))

    monkeypatch.setattr(later_looks, "blob_probabilities", mirrored_reading)
    frame = np.full((80, 80, 3), 128, np.uint8)
    found = [Found(40.0, 40.0, 16.0, flat_score=0.9, cocked_score=0.1)]
    for kind, face in (("detrak", "circle"), ("pips", 4)):
        names = kind_classes(kind)
        row = _row(names, face, p=0.6)
        row[names.index("cocked")] = 0.0
        row /= row.sum()
        again = later_looks.mirrored_look(frame, found, row[None], kind, None)
        if kind == "detrak":
            assert again[0, names.index("cocked")] == pytest.approx(0.3)
        else:
            assert np.array_equal(again[0], row)
    assert looked == [("detrak", 1)]


def test_a_mirrored_crops_input_is_its_input_mirrored():
    """The reader mirrors the networks' input it already made rather than cutting and resizing
    each crop again (session 56): the two must not differ."""
    from vision.learned import crop_die
    from vision.learned.crops import to_input
    from vision.synth.scene import render_scene

    scene = render_scene("detrak", np.random.default_rng(2))
    crops = [crop_die(scene.image, d.x, d.y, d.size) for d in scene.dice[:8]]
    crops.append(crop_die(scene.image, 33.3, 41.7, 57.9))  # an odd size, at the frame's edge
    mirrored = to_input([np.ascontiguousarray(c[:, ::-1]) for c in crops])
    np.testing.assert_allclose(to_input(crops)[..., ::-1], mirrored, atol=1e-5)


def test_a_face_read_mirror_sure_is_read_once(monkeypatch):
    """Rule 153: a Détrak face at MIRROR_SURE is not read again (no count of the gates moved,
    and most speed frames' faces are that sure); just under it, it is."""
    from vision.learned.classes import kind_classes
    from vision.learned.detector import Found

    looked = []

    def mirrored_reading(blob, kind):
        looked.append(len(blob))
        return np.stack([_row(kind_classes(kind), "cocked", p=0.6)] * len(blob))

    monkeypatch.setattr(later_looks, "blob_probabilities", mirrored_reading)
    names = kind_classes("detrak")
    found = [Found(20.0 + 30 * k, 40.0, 16.0, flat_score=0.9, cocked_score=0.1) for k in range(2)]
    p = np.stack([_row(names, "circle", p=later_looks.MIRROR_SURE + 1e-4)] * 2)
    p[1] = _row(names, "circle", p=later_looks.MIRROR_SURE - 1e-4)
    again = later_looks.mirrored_look(np.full((80, 80, 3), 128, np.uint8), found, p, "detrak", None)
    assert looked == [1]
    assert np.array_equal(again[0], p[0]) and not np.array_equal(again[1], p[1])
