"""The classifier's training data and temperature rule (vision/learned/data.py, train.py): what
each crop is taught, and a calibration that never makes every crop unsure."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from vision.learned.classes import CLASSES, class_index, kind_indices
from vision.learned.crops import FAR, INPUT
from vision.learned.data import (
    FOCUS,
    JITTER_SHIFT,
    TURN,
    WIDE_SHIFT,
    CropSet,
    _centre_error,
    crops_at_finds,
    crops_of_frame,
    jittered,
    synth_crops,
    turn_point,
)
from vision.learned.detector import Found
from vision.learned.temperature import MIN_SURE_SHARE, TARGET, fit_temperature
from vision.learned.train import main as train_main


def _find(x, y, size=30.0):
    return Found(x, y, size, flat_score=0.8, cocked_score=0.1)


def test_finds_are_taught_as_the_face_the_cocked_die_or_no_die_they_fell_on():
    image = np.full((200, 300, 3), 120, np.uint8)
    dice = [
        {"face": 5, "x": 60.0, "y": 60.0, "size": 30.0, "cocked": False},
        {"face": None, "x": 150.0, "y": 60.0, "size": 30.0, "cocked": True},
        {"face": 3, "x": 240.0, "y": 60.0, "size": 30.0, "cocked": False, "visible": 0.5},
    ]
    finds = [_find(62, 58), _find(151, 61), _find(240, 61), _find(150, 160)]
    got = crops_at_finds(image, dice, finds, np.random.default_rng(0), {"kind": "pips"})
    labels = [CLASSES[i] for i in got.labels]
    groups = [t["group"] for t in got.tags]
    # the half-hidden die is neither a face to learn nor a false find: left out
    assert labels == [5, "cocked", "none"]
    assert groups == ["found_face", "found_cocked", "false_find"]


def test_training_crops_follow_the_reading_convention():
    """Turned outward (give or take TURN degrees), with the reach plane: as crop_die makes them
    at reading time, or the network learns a view it will never see."""
    image = np.zeros((400, 600, 3), np.uint8)
    image[200, 547:554] = 255  # a bar further out than a die at (540, 200), right of the centre
    rng = np.random.default_rng(3)
    for _ in range(20):
        crop = jittered(image, 540.0, 200.0, 24.0, rng, jitter=False)
        assert crop.shape == (INPUT, INPUT, 4)
        assert crop[0, 0, 3] == round(255 * (540 - 299.5) / 600 / FAR)
        ys, xs = np.nonzero(crop[:, :, 0] > 40)
        c = (INPUT - 1) / 2
        assert np.all(ys < c)  # the bar is above the centre...
        slope = np.degrees(np.arctan2(np.ptp(xs), np.ptp(ys) + 1))
        assert slope <= TURN + 8  # ...and upright, give or take the turn's jitter


def test_wide_crops_are_off_as_far_as_the_detector_puts_finds_on_touching_dice():
    rng = np.random.default_rng(5)
    wide = np.array([_centre_error(rng, 1.0) for _ in range(400)])
    r = np.hypot(*wide.T)
    assert r.min() >= WIDE_SHIFT[0] and r.max() <= WIDE_SHIFT[1]
    assert r.max() > 0.35 and np.all(np.abs(wide).max(0) > 0.3)  # far, and every way
    mixed = np.array([_centre_error(rng, 0.5) for _ in range(400)])
    far = np.abs(mixed).max(1) > JITTER_SHIFT
    assert 0.25 < far.mean() < 0.55  # about half wide (a wide one can fall inside the square)


def test_no_wide_crops_keep_the_earlier_recipes_draws():
    """The committed networks' recipes must make the same crops after `wide` was added."""
    a, b = np.random.default_rng(8), np.random.default_rng(8)
    for _ in range(5):
        assert np.array_equal(_centre_error(a, 0.0), b.uniform(-JITTER_SHIFT, JITTER_SHIFT, 2))
    assert a.random() == b.random()


def test_cocked_crops_move_to_the_upmost_face_only_when_asked():
    image = np.zeros((200, 300, 3), np.uint8)
    image[40:80, 200:240] = 255  # the upmost face: white, away from the cube's centre
    cocked = {"face": None, "x": 120.0, "y": 60.0, "size": 30.0, "cocked": True}
    upper = dict(cocked, upper=(220.0, 60.0))

    def bright(share, die):
        rng = np.random.default_rng(3)
        crops = crops_of_frame(image, [die], rng, {}, 1, False, 8, 0.0, share)
        return [
            float(c[:, :, :3].mean())
            for c, lab in zip(crops.images, crops.labels, strict=True)
            if lab == class_index("cocked")
        ]

    assert max(bright(0.0, upper)) < 5  # the recipes before it: all on the cube
    assert bright(0.0, upper) == bright(0.0, cocked)
    assert min(bright(1.0, upper)) > 50  # all on the upmost face
    assert 0 < sum(b > 50 for b in bright(0.5, upper)) < 8
    assert max(bright(1.0, cocked)) < 5  # no upper face known (the simulated table): the cube


def test_cocked_dice_tipped_near_an_end_get_more_crops_only_when_asked():
    """The cocked dice the reader misses are tipped near 25 or 65 degrees (docs/vision.md):
    `ends` teaches more of those, and leaves a mid-tipped die and every flat die as they were."""
    image = np.zeros((200, 300, 3), np.uint8)

    def counted(ends, tip=None, cocked=True):
        die = {"face": None if cocked else 3, "x": 120.0, "y": 100.0, "size": 30.0}
        die |= {"cocked": cocked} | ({} if tip is None else {"tip": tip})
        crops = crops_of_frame(image, [die], np.random.default_rng(3), {}, 1, False, 2, ends=ends)
        return sum(lab == class_index("cocked" if cocked else 3) for lab in crops.labels)

    assert [counted(1, tip) for tip in (27.0, 45.0, 63.0)] == [2, 2, 2]  # the recipes before it
    assert [counted(3, tip) for tip in (27.0, 34.0, 45.0, 56.0, 63.0)] == [6, 6, 2, 6, 6]
    assert counted(3) == 2  # no tip known (the simulated table): as a mid-tipped die
    assert counted(3, cocked=False) == counted(1, cocked=False) == 1


def test_synthetic_truth_carries_a_cocked_dies_tip():
    from vision.learned.data import training_truth
    from vision.synth.scene import render_scene

    scene = render_scene("detrak", np.random.default_rng(5), frame=(1280, 960), n_dice=12, cocked=4)
    truth = training_truth(scene)
    tips = [d["tip"] for d in truth if d["cocked"]]
    assert tips and all(25.0 <= t <= 65.0 for t in tips)
    assert not any("tip" in d for d in truth if not d["cocked"])


def test_oblique_photos_crops_turn_about_the_point_below_the_camera_only_when_asked():
    """As the reader turns an oblique photo's crops once a die reads cocked: the bar beyond a die
    right of the point below (far left, off the frame) must lie above the crop's centre, with
    the reach that far point gives (about the frame's centre it would lie below); a photo from
    above keeps its centre."""
    image = np.zeros((400, 600, 3), np.uint8)
    image[200, 107:114] = 255  # a bar right of a die at (100, 200), left of the frame's centre
    oblique = SimpleNamespace(image=image, below=(-1300.0, 200.0))
    below = turn_point(oblique, 1.0, np.random.default_rng(0))
    assert below == (-1300.0, 200.0)
    for point, above_centre, reach in ((below, True, 255), (None, False, 113)):
        crop = jittered(image, 100.0, 200.0, 24.0, np.random.default_rng(3), False, 0.0, point)
        ys, _ = np.nonzero(crop[:, :, 0] > 40)
        assert len(ys) and np.all((ys < (INPUT - 1) / 2) == above_centre)
        assert crop[0, 0, 3] == reach  # 2.3 frame lengths: beyond FAR; 0.33 of FAR 0.75
    assert turn_point(oblique, 0.0, np.random.default_rng(0)) is None  # the recipes before it
    above = SimpleNamespace(image=image, below=(310.0, 205.0))  # 0.02 frame lengths off
    assert turn_point(above, 1.0, np.random.default_rng(0)) is None
    halves = [turn_point(oblique, 0.5, np.random.default_rng(s)) is None for s in range(200)]
    assert 60 < sum(halves) < 140


def test_the_turn_point_takes_the_readers_line_for_a_point_off_centre():
    from vision.learned.data import BELOW_FAR
    from vision.read_learned import AXIS_FAR

    assert BELOW_FAR == AXIS_FAR


@pytest.mark.parametrize("focus", sorted(FOCUS))
def test_each_hard_case_renders(focus):
    data = synth_crops("detrak", 1, 99, focus=focus)
    assert len(data) > 0
    if focus == "cocked":
        assert class_index("cocked") in data.labels


def _logits(n_right, n_wrong, rng):
    """Logits over the pips classes: crops of face 1, most read 1 with a wide margin, a few
    read 2 with the same margin (confidently wrong)."""
    idx = kind_indices("pips")
    z = rng.normal(0, 0.3, (n_right + n_wrong, len(CLASSES))).astype(np.float32)
    z[:n_right, idx[0]] += 6.0
    z[n_right:, idx[1]] += 6.0
    labels = np.full(n_right + n_wrong, class_index(1))
    return z, labels


def test_temperature_meets_the_target_when_it_can():
    z, labels = _logits(990, 5, np.random.default_rng(1))
    t, stats = fit_temperature(z, labels, "pips")
    assert stats["accuracy_at_0.9"] >= TARGET
    assert stats["share_at_0.9"] >= MIN_SURE_SHARE


def test_temperature_is_never_so_hot_that_nothing_is_sure():
    """3 % of crops wrong with as much confidence as the right ones: no temperature makes the
    sure crops 99 % right, so the likeliest one is kept rather than one that makes none sure."""
    z, labels = _logits(970, 30, np.random.default_rng(2))
    t, stats = fit_temperature(z, labels, "pips")
    assert stats["share_at_0.9"] >= MIN_SURE_SHARE
    assert t == pytest.approx(stats["nll_temperature"], abs=1e-3)


def test_photoreal_scenes_give_crops_labelled_by_their_truth():
    """The committed Blender scenes (tests/photoreal): one crop per flat die with its face's
    class, `cocked_per_die` per cocked die, "none" crops besides, all at the input's size."""
    import json

    from vision.learned.classes import COCKED, class_index
    from vision.learned.photoreal_crops import photoreal_crops

    here = Path(__file__).parent / "photoreal"
    records = [json.loads(p.read_text()) for p in sorted(here.glob("*.json"))]
    data = photoreal_crops([here], seed=3, per_die=1, cocked_per_die=2)
    flat = [d for r in records for d in r["dice"] if not d["cocked"]]
    cocked = [d for r in records for d in r["dice"] if d["cocked"]]
    groups = [t["group"] for t in data.tags]
    assert groups.count("face") == len(flat) and groups.count("cocked") == 2 * len(cocked)
    faces = sorted(lab for lab, g in zip(data.labels, groups, strict=True) if g == "face")
    assert faces == sorted(class_index(d["face"]) for d in flat)
    assert all(
        lab == class_index(COCKED)
        for lab, g in zip(data.labels, groups, strict=True)
        if g == "cocked"
    )
    assert {t["source"] for t in data.tags} == {"photoreal"}
    assert all(img.shape == data.images[0].shape for img in data.images)
    assert class_index(None) in data.labels


def test_rendered_crops_turn_about_the_cameras_point_below_when_it_lies_far():
    """A render tilted 30° turns its crops about its camera's point below at share 1, never at
    share 0; a camera nearly overhead keeps the centre whatever the share."""
    from vision.learned.photoreal_crops import rendered_below
    from vision.photoreal.camera import below

    rng = np.random.default_rng(0)
    tilted = {"loc": [0.0, 30.0, 52.0], "target": [0.0, 0.0, 0.0], "roll": 0.0, "f_px": 900.0}
    overhead = dict(tilted, loc=[0.0, 0.5, 60.0])
    point = rendered_below({"camera": tilted}, (960, 1280, 3), 1.0, rng)
    assert point == pytest.approx(tuple(below(tilted, (1280, 960))))
    assert abs(point[1] - 480) > 0.12 * 1280
    assert rendered_below({"camera": tilted}, (960, 1280, 3), 0.0, rng) is None
    assert rendered_below({"camera": overhead}, (960, 1280, 3), 1.0, rng) is None


def test_the_model_records_how_many_rendered_scenes_of_each_kind_it_learned_from(tmp_path):
    from vision.photoreal.truth import rendered_scenes

    here = Path(__file__).parent / "photoreal"
    assert rendered_scenes([here]) == {str(here): {"detrak": 1, "pips": 1, "strike": 1}}
    assert rendered_scenes([tmp_path]) == {}


def test_a_network_for_one_kind_learns_from_that_kind_alone():
    """`train.py --kinds detrak`: the crops of the other kinds are left out, the kind's own
    (its faces, "cocked" and "none") all kept, in order."""
    data = CropSet()
    for kind, label in [("pips", 3), ("detrak", 9), ("strike", 13), ("detrak", 14)]:
        data.add(np.full((INPUT, INPUT, 4), label, np.uint8), label, {"kind": kind})
    only = data.only(("detrak",))
    assert only.labels == [9, 14] and [t["kind"] for t in only.tags] == ["detrak", "detrak"]
    assert [int(i[0, 0, 0]) for i in only.images] == [9, 14]
    assert len(data) == 4  # the full set is untouched


def test_train_refuses_an_unknown_kind_and_says_which_it_knows(capsys):
    with pytest.raises(SystemExit):
        train_main(["--kinds", "pips,yahtzee"])
    assert (
        "expected kinds among pips, strike, detrak, got 'pips,yahtzee'" in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--doubted-by", "faces", "--doubt-below", "1.5"],
            "--doubt-below: expected a probability",
        ),
        (["--doubted-by", "faces", "--doubt-below", "0"], "--doubt-below: expected a probability"),
        (["--doubted-by", "faces,nowhere"], "--doubted-by: expected networks in .*nowhere missing"),
        (["--width", "0"], "--width: expected a positive factor, got 0.0"),
        (["--wide-jitter", "1.5"], "--wide-jitter: expected a share between 0 and 1, got '1.5'"),
        (["--wide-jitter", "half"], "--wide-jitter: expected a share between 0 and 1, got 'half'"),
        (
            ["--slim", "0.75"],
            "--slim: expected a share in \\(0, 1\\] of an --init network's .* without --init",
        ),
        (
            ["--init", "vision/learned/models/faces.onnx", "--slim", "0"],
            "--slim: expected a share in \\(0, 1\\] of an --init network's channels, got 0.0",
        ),
        (["--slim-whole", "-1"], "--slim-whole: expected a number of convolutions, 0 or more"),
        (["--slim-whole", "2"], "--slim-whole: expected .* with --slim; got 2 without --slim"),
        (
            ["--cocked-ends", "0"],
            "--cocked-ends: expected a whole number of times, 1 or more, got '0'",
        ),
        (["--cocked-ends", "three"], "--cocked-ends: expected a whole number .* got 'three'"),
    ],
)
def test_train_refuses_options_it_cannot_keep_before_making_crops(capsys, args, message):
    """A line that keeps every crop (or none), or a network that is not there, would be found
    only after the crops were made: minutes later, or an hour."""
    with pytest.raises(SystemExit):
        train_main(args)
    assert re.search(message, capsys.readouterr().err)
