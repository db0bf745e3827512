"""The photoreal set's truth and spec (vision/photoreal), without Blender: poses as Blender's
script writes them, and the spec it is given."""

import json
import math

import cv2
import numpy as np
import pytest

from vision.photoreal.spec import DIE_SIDE_CM, FACES, draw_spec
from vision.photoreal.truth import COCKED_TIP, FLAT_TIP, truth
from vision.synth.conditions import readable

SPEC = {"kind": "pips", "frame": [640, 480]}


def pose(x, y, top=0, tip=0.0, side=40.0, depth=50.0):
    h = side / 2
    corners = [[x - h, y - h, depth], [x + h, y - h, depth], [x + h, y + h, depth], [x - h, y + h, depth]]
    return {"top": top, "tip": tip, "centre": [x, y, depth], "corners": corners}


def test_a_flat_die_shows_the_face_of_its_upper_axis():
    scored, left = truth(SPEC, [pose(100, 100, top=2), pose(300, 300, top=5)])
    assert [d.face for d in scored] == [FACES["pips"][2], FACES["pips"][5]] == [2, 4]
    assert not any(d.cocked for d in scored) and left == []
    assert scored[0].size == pytest.approx(40.0)


def test_a_leaning_die_is_cocked_with_no_face():
    (d,), _ = truth(SPEC, [pose(100, 100, top=1, tip=COCKED_TIP + 20)])
    assert d.cocked and d.face is None and d.tip == pytest.approx(COCKED_TIP + 20)


def test_a_half_tipped_die_is_left_out():
    scored, left = truth(SPEC, [pose(100, 100, tip=(FLAT_TIP + COCKED_TIP) / 2)])
    assert scored == [] and left[0].why.startswith("tipped")


def test_a_die_cut_by_the_frame_or_behind_the_camera_is_left_out():
    scored, left = truth(SPEC, [pose(630, 100), pose(100, 100, depth=-5.0)])
    assert scored == [] and [e.why for e in left] == ["out of frame"] * 2


def test_a_die_under_a_nearer_die_is_left_out_but_not_its_neighbour():
    below, above, beside = pose(200, 200, depth=50), pose(205, 198, depth=48), pose(245, 200)
    scored, left = truth(SPEC, [below, above, beside])
    assert [e.why for e in left] == ["under another die"]
    assert len(scored) == 2


def test_spec_is_drawn_from_its_seed_and_keeps_to_the_issue(tmp_path):
    a = draw_spec("detrak", 3, 5, tmp_path / "a")
    b = draw_spec("detrak", 3, 5, tmp_path / "b")
    strip = lambda s: json.dumps(s).replace(str(tmp_path / "a"), "").replace(str(tmp_path / "b"), "")
    assert strip(a) == strip(b)
    c = a["conditions"]
    assert 18 <= c["die_size"] <= 150 and 0 <= c["tilt"] <= 35
    for d in a["dice"]:
        assert readable(d["die"], d["mark"])
        assert math.isclose(np.linalg.norm(d["quat"]), 1.0, rel_tol=1e-9)
        atlas = cv2.imread(d["atlas"])
        assert atlas.shape == (512, 768, 3)
    assert a["die_side_cm"] == DIE_SIDE_CM["detrak"]
