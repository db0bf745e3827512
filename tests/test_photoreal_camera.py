"""The spec's camera as numpy (vision/photoreal/camera.py) and what the axis network is taught
from the renders with it (axis_data.photoreal_axis_crops, render.add_camera)."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.learned.axis_data import photoreal_axis_crops
from vision.photoreal.camera import below, bottom_offsets, project
from vision.photoreal.render import add_camera

RENDERS = Path(__file__).parent / "photoreal"  # (seed 0: the benchmark's, never trained on)

# Blender 3.4's own projection (bpy_extras world_to_camera_view) of a point under two of the
# spec's cameras, session 28: a photo 23 degrees off vertical and one nearly straight down.
BLENDER = [
    (
        {
            "loc": [3.370838904785113, 11.644482883319736, 28.442646732456584],
            "target": [0.0, 0.0, 0.0],
            "roll": 0.2189138990061843,
            "f_px": 1828.1708831236315,
        },
        (1920, 1080),
        [2.5656860883283734, -4.071163724109159, 0.8423776284579105],
        (796.948299407959, 308.57675313949585),
    ),
    (
        {
            "loc": [0.47863334689852116, -0.005819524306374252, 94.38502435369068],
            "target": [0.0, 0.0, 0.0],
            "roll": 1.7575976745692907,
            "f_px": 1661.6866976790961,
        },
        (1600, 1200),
        [-3.6152257821805076, -7.88653074234934, 0.0489813549867264],
        (886.8308067321777, 474.31061267852783),
    ),
]


@pytest.mark.parametrize("camera, frame, point, seen", BLENDER)
def test_a_point_lands_where_blender_renders_it(camera, frame, point, seen):
    assert project(camera, frame, [point])[0] == pytest.approx(seen, abs=0.05)
    assert project(camera, frame, [camera["target"]])[0] == pytest.approx(np.divide(frame, 2))


def test_vertical_lines_meet_at_the_point_below():
    camera, frame = BLENDER[0][:2]
    n = below(camera, frame)
    for x, y in [(2.0, -3.0), (-5.0, 1.0), (0.5, 6.0)]:
        a, b = project(camera, frame, [[x, y, 0.0], [x, y, 3.0]])
        cross = (b - a)[0] * (n - a)[1] - (b - a)[1] * (n - a)[0]
        assert abs(cross) < 1e-6 * np.linalg.norm(b - a) * np.linalg.norm(n - a)
        assert np.linalg.norm(b - n) > np.linalg.norm(a - n)  # the higher, the farther out


@pytest.mark.parametrize("camera, frame", [c[:2] for c in BLENDER])
def test_the_bottom_offset_is_the_projection_of_the_bottom_face(camera, frame):
    rng = np.random.default_rng(3)
    side = 1.6
    ground = np.column_stack([rng.uniform(-8, 8, (6, 2)), np.zeros(6)])
    tops = project(camera, frame, ground + [0, 0, side])
    bottoms = project(camera, frame, ground)
    sizes = rng.uniform(20, 60, 6)
    offsets = bottom_offsets(camera, frame, tops, sizes, side)
    np.testing.assert_allclose(offsets * sizes[:, None], bottoms - tops, atol=1e-6)


def test_a_scene_rendered_before_its_record_kept_the_camera_gets_it(tmp_path):
    src = RENDERS / "pips_012.json"
    record = json.loads(src.read_text())
    kept = record.pop("camera")
    (tmp_path / src.name).write_text(json.dumps(record))
    with pytest.raises(ValueError, match="seed 5 draws"):
        add_camera("pips", 5, 12, tmp_path)  # (not the scene's seed)
    assert "camera" not in json.loads((tmp_path / src.name).read_text())
    assert add_camera("pips", 0, 12, tmp_path) == tmp_path / src.name
    assert json.loads((tmp_path / src.name).read_text())["camera"] == kept
    assert add_camera("pips", 0, 13, tmp_path) is None


def test_rendered_dice_are_taught_with_the_spec_camera_offsets(tmp_path):
    for p in RENDERS.glob("*"):
        shutil.copy(p, tmp_path)
    crops, offsets = photoreal_axis_crops([tmp_path], seed=1, per_die=3)
    flat = []
    for p in sorted(tmp_path.glob("*.json")):
        r = json.loads(p.read_text())
        dice = [d for d in r["dice"] if not d["cocked"] and d["in_arena"] in (None, True)]
        dice = [d for d in dice if d.get("visible", 1.0) >= 0.85]
        side = {"pips": 1.6, "strike": 1.6, "detrak": 1.8}[r["kind"]]
        tops = [(d["x"], d["y"]) for d in dice]
        true = bottom_offsets(
            r["camera"], r["conditions"]["frame"], tops, [d["size"] for d in dice], side
        )
        flat += [np.linalg.norm(o) for o in true for _ in range(3)]
    assert crops.shape == (len(flat), 32, 32, 3) and len(flat) >= 30
    # (each crop turned at random, its offset with it: the lengths stay)
    np.testing.assert_allclose(np.linalg.norm(offsets, axis=1), flat, rtol=1e-5)
    assert crops.std() > 10  # (dice, not blank squares)

    record = json.loads((tmp_path / "pips_012.json").read_text())
    del record["camera"]
    (tmp_path / "pips_012.json").write_text(json.dumps(record))
    with pytest.raises(ValueError, match="no camera"):
        photoreal_axis_crops([tmp_path], seed=1)
