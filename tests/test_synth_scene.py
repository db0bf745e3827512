"""vision.synth.scene: seeded, and the truth agrees with the pixels."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synth.camera import Lens
from vision.synth.conditions import (
    FRAMES,
    SIZE_BANDS,
    TILT_BANDS,
    benchmark_conditions,
    readable,
)
from vision.synth.faces import DIE_COLOURS, MARK_COLOURS, PIP_RADIUS
from vision.synth.scene import FACES, benchmark_set, render_scene

CLEAN = dict(
    tilt=0.0,
    shadows=False,
    glare=False,
    noise=0.0,
    blur=0.0,
    jpeg=None,
    light_gradient=0.0,
    vignette=0.0,
    exposure=1.0,
    colour_cast=(0.0, 0.0, 0.0),
    cluster=0.0,
    cocked=0,
    background="grey_card",
)


def _scene(kind="pips", seed=0, **kw):
    args = dict(CLEAN, frame=(640, 480), die_size=50.0, n_dice=6)
    args.update(kw)
    return render_scene(kind, np.random.default_rng(seed), **args)


def _near(pixel, bgr, tol=14.0) -> bool:
    return float(np.linalg.norm(pixel.astype(float) - np.array(bgr, float))) < tol


def test_same_seed_same_scene_and_another_seed_another():
    a = render_scene("strike", np.random.default_rng(5), frame=(640, 480))
    b = render_scene("strike", np.random.default_rng(5), frame=(640, 480))
    c = render_scene("strike", np.random.default_rng(6), frame=(640, 480))
    assert np.array_equal(a.image, b.image) and a.dice == b.dice and a.conditions == b.conditions
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("die, marks", [("white", "black"), ("red", "white"), ("blue", "yellow")])
def test_centre_pixel_of_a_flat_die_has_the_die_or_the_mark_colour(die, marks):
    scene = _scene(seed=3, die_colour=die, mark_colour=marks, n_dice=8)
    flat = [d for d in scene.dice if not d.cocked]
    assert len(flat) >= 5
    for d in flat:
        pixel = scene.image[int(round(d.y)), int(round(d.x))]
        expected = MARK_COLOURS[marks] if d.face in (1, 3, 5) else DIE_COLOURS[die]
        assert _near(pixel, expected), (d, pixel)


def _count_pips(scene, d, die, marks) -> int:
    img = scene.image.astype(float)
    to_mark = np.linalg.norm(img - MARK_COLOURS[marks], axis=2)
    to_die = np.linalg.norm(img - DIE_COLOURS[die], axis=2)
    yy, xx = np.mgrid[0 : img.shape[0], 0 : img.shape[1]]
    inner = np.hypot(xx - d.x, yy - d.y) < 0.41 * d.size  # the flat top, not the bevel or sides
    mask = ((to_mark < to_die) & inner).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    pip_area = np.pi * (PIP_RADIUS * d.size) ** 2
    return int(sum(stats[i, cv2.CC_STAT_AREA] >= 0.3 * pip_area for i in range(1, n)))


@pytest.mark.parametrize("seed", [1, 2])
def test_pips_counted_on_a_clean_render_equal_the_truth(seed):
    scene = _scene(seed=seed, die_colour="ivory", mark_colour="black", n_dice=10, die_size=44.0)
    flat = [d for d in scene.dice if not d.cocked]
    assert {d.face for d in flat} <= set(FACES["pips"]) and len(flat) >= 6
    for d in flat:
        assert _count_pips(scene, d, "ivory", "black") == d.face, d


def test_truth_size_is_the_projected_side():
    scene = _scene(seed=4, die_size=60.0)
    sizes = [d.size for d in scene.dice]
    assert all(55 < s < 75 for s in sizes)  # dice nearer the edges are a little nearer the lens


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_in_arena_matches_the_oval_seen_in_the_image(seed):
    scene = render_scene(
        "strike",
        np.random.default_rng(seed),
        frame=(800, 600),
        n_dice=20,
        tilt=float(seed * 4),
        out_of_arena=0.3,
        cocked=2,
    )
    outline = np.array(scene.arena["outline"], np.float32)
    assert scene.arena["axes"][0] >= scene.arena["axes"][1]
    assert any(d.in_arena for d in scene.dice) and not all(d.in_arena for d in scene.dice)
    for d in scene.dice:
        inside = cv2.pointPolygonTest(outline, (d.x, d.y), False) > 0
        assert inside == d.in_arena, d


def test_strike_faces_are_x_and_two_to_six_on_black_dice():
    scene = render_scene("strike", np.random.default_rng(8), frame=(640, 480), n_dice=25)
    assert {d.face for d in scene.dice if not d.cocked} <= {"X", 2, 3, 4, 5, 6}
    assert scene.conditions["die_colour"] == "black"


def test_cocked_dice_have_no_face_and_are_flagged():
    scene = _scene(seed=9, cocked=3, cluster=0.6, n_dice=6)
    cocked = [d for d in scene.dice if d.cocked]
    assert len(cocked) >= 2
    assert all(d.face is None for d in cocked)
    assert all(d.face is not None for d in scene.dice if not d.cocked)
    # the tip is kept in the truth (the benchmark counts cocked dice by it)
    assert all(25 <= d.tip <= 65 for d in cocked)
    assert all(d.tip == 0 for d in scene.dice if not d.cocked)
    # A cocked die shows a skewed, lighter-and-darker pair of faces: not one flat colour.
    for d in cocked:
        patch = scene.image[int(d.y) - 8 : int(d.y) + 8, int(d.x) - 8 : int(d.x) + 8]
        assert patch.std() > 3


def test_a_cocked_die_knows_where_its_upmost_face_shows():
    """The detector finds a die tipped under 45 degrees on its upmost face, not on its cube's
    centre: the truth says where that face is, for the classifier's training crops."""
    scene = _scene(seed=9, cocked=3, cluster=0.6, n_dice=6)
    cocked = [d for d in scene.dice if d.cocked]
    assert all(d.upper is None for d in scene.dice if not d.cocked)
    for d in cocked:
        off = np.hypot(d.upper[0] - d.x, d.upper[1] - d.y) / d.size
        assert 0.15 < off < 0.75  # half a side from the cube's centre, seen tipped
    assert "upper" not in cocked[0].to_json()  # contract 2's shape is unchanged


def test_the_upmost_face_of_a_die_tipped_past_45_degrees_is_a_side_face():
    from vision.synth.dice import Die

    less = Die(3, np.zeros(3), 16.0, yaw=0.0, tip=30.0)
    more = Die(3, np.zeros(3), 16.0, yaw=0.0, tip=60.0)
    assert np.allclose(less.upper_centre(), less.top_centre())
    assert more.upper_centre()[2] > more.top_centre()[2]
    assert np.isclose(np.linalg.norm(more.upper_centre()), 8.0)  # a face's centre, half a side


def test_visible_share_is_one_when_nothing_overlaps_and_less_in_oblique_clusters():
    assert all(d.visible == 1.0 for d in _scene(seed=2).dice)
    shares = []
    for seed in range(4):
        scene = render_scene(
            "detrak",
            np.random.default_rng(seed),
            frame=(800, 600),
            tilt=25.0,
            cluster=0.9,
            n_dice=16,
            die_size=70.0,
        )
        shares += [d.visible for d in scene.dice if not d.cocked]
    assert min(shares) < 1.0 and all(0 <= s <= 1 for s in shares)


def test_jpeg_bytes_decode_to_the_image():
    scene = _scene(seed=1, jpeg=60)
    decoded = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(decoded, scene.image)
    assert _scene(seed=1).jpeg is None


def test_big_frames_keep_the_truth_in_full_size_pixels():
    scene = render_scene(
        "pips",
        np.random.default_rng(3),
        **dict(
            CLEAN,
            frame=(4032, 3024),
            die_size=120.0,
            n_dice=5,
            die_colour="green",
            mark_colour="white",
        ),
    )
    assert scene.image.shape == (3024, 4032, 3) and len(scene.dice) >= 4
    for d in scene.dice:
        assert 105 < d.size < 140
        pixel = scene.image[int(round(d.y)), int(round(d.x))]
        expected = MARK_COLOURS["white"] if d.face in (1, 3, 5) else DIE_COLOURS["green"]
        assert _near(pixel, expected, 20), d


@pytest.mark.parametrize("kind", ["pips", "strike", "detrak"])
def test_benchmark_conditions_reach_every_value_of_every_axis(kind):
    conds = list(benchmark_conditions(kind, 24, seed=0))
    seen = {k: {repr(c[k]) for c in conds} for k in conds[0]}
    dies = {c["die_colour"] for c in conds}
    assert dies == set(DIE_COLOURS) | {"mixed"}
    assert {c["mark_colour"] for c in conds} == set(MARK_COLOURS)
    assert len(seen["background"]) == 6
    assert {tuple(c["frame"]) for c in conds} == set(FRAMES)
    assert {False, True} <= {c["tilt"] > 10 for c in conds}
    for lo, hi in TILT_BANDS:
        assert any(lo <= c["tilt"] <= hi for c in conds)
    if kind != "strike":
        for lo, hi in SIZE_BANDS:
            assert any(lo <= c["die_size"] <= hi for c in conds)
    assert {0, 1, 2} <= {c["cocked"] for c in conds}
    assert {True, False} <= {c["shadows"] for c in conds} & {c["glare"] for c in conds}
    assert None in {c["jpeg"] for c in conds} and len(seen["jpeg"]) == 4
    assert len(seen["noise"]) == 3 and len(seen["cluster"]) == 3
    for c in conds:
        assert c["die_colour"] == "mixed" or readable(c["die_colour"], c["mark_colour"])
        assert c["blur"] <= 0.045 * c["die_size"] + 1e-9
    assert list(benchmark_conditions(kind, 24, seed=0)) == conds
    assert list(benchmark_conditions(kind, 24, seed=1)) != conds


@pytest.mark.parametrize("kind", ["pips", "strike", "detrak"])
def test_benchmark_conditions_cross_the_axes(kind):
    """No axis is tied to another (before session 11, axes of lengths 2, 4 and 8 moved in
    lockstep: no tilted photo had glare, and the cocked dice always came with one cluster level)."""
    conds = list(benchmark_conditions(kind, 150, seed=0))
    assert len({(c["glare"], c["tilt"] > 10) for c in conds}) == 4
    assert len({(c["shadows"], c["glare"]) for c in conds}) == 4
    assert len({(c["cocked"], c["cluster"]) for c in conds}) == 9
    assert len({(c["frame"], c["tilt"] > 10) for c in conds}) == 2 * len(set(FRAMES))
    backgrounds = [c["background"] for c in conds]
    for start in range(0, 144, 6):  # every value once in each pass over the axis
        assert len(set(backgrounds[start : start + 6])) == 6


def test_benchmark_set_renders_the_conditions_it_announces():
    for scene in benchmark_set("detrak", 2, seed=3):
        h, w = scene.image.shape[:2]
        assert (w, h) == scene.conditions["frame"]
        assert all(d.face in FACES["detrak"] for d in scene.dice if not d.cocked)


@pytest.mark.parametrize("background", ["foam", "felt", "white_card", "grey_card", "wood", "tray"])
def test_every_background_renders(background):
    scene = _scene(seed=2, background=background, shadows=True, glare=True, noise=4.0)
    assert scene.image.std() > 2 and scene.conditions["background"] == background


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(sparkle=True), "unknown condition"),
        (dict(die_size=300.0), "die_size"),
        (dict(tilt=60.0), "tilt"),
        (dict(background="lava"), "background"),
        (dict(die_colour="white", mark_colour="white"), "unreadable"),
        (dict(arena=True), "only the strike kind"),
        (dict(frame=(100, 100)), "frame"),
    ],
)
def test_bad_conditions_say_what_was_expected(kw, message):
    with pytest.raises(ValueError, match=message):
        render_scene("pips", np.random.default_rng(0), **kw)


def test_bad_kind():
    with pytest.raises(ValueError, match="expected one of pips, strike, detrak"):
        render_scene("cards", np.random.default_rng(0))


def test_lens_maps_round_trip_and_barrel_pulls_corners_in():
    lens = Lens(800, 600, 0.1)
    pts = np.array([[0.0, 0.0], [400, 300], [799, 599], [120, 480]])
    assert np.allclose(lens.output_from_ideal(lens.ideal_from_output(pts)), pts, atol=1e-6)
    corner = lens.ideal_from_output([[0.0, 0.0]])[0]
    cw, ch = lens.canvas
    assert corner[0] < cw / 2 - 400 and corner[1] < ch / 2 - 300  # sees further out
    assert lens.magnification([[0.0, 0.0]])[0] < 1 < 1.0001 + lens.magnification([[400, 300]])[0]


def test_truth_follows_the_lens_distortion():
    scene = _scene(seed=5, distortion=0.12, die_colour="yellow", mark_colour="black", n_dice=10)
    flat = [d for d in scene.dice if not d.cocked]
    assert len(flat) >= 6
    for d in flat:
        pixel = scene.image[int(round(d.y)), int(round(d.x))]
        expected = MARK_COLOURS["black"] if d.face in (1, 3, 5) else DIE_COLOURS["yellow"]
        assert _near(pixel, expected, 20), d
        assert _count_pips(scene, d, "yellow", "black") == d.face, d


def test_a_phone_photo_is_drawn_at_its_size():
    """A 4032x3024 frame's dice keep their pixels: a pip's edge steps from die to mark within a
    pixel or two, where a frame drawn smaller and enlarged 2.4 times (up to session 13) spreads
    every edge over ~3 pixels (on a like scene: steps of 0.32-0.36 of the range there, 0.74-0.86
    here)."""
    scene = _scene(
        seed=3,
        frame=(4032, 3024),
        die_size=40.0,
        distortion=0.0,
        die_colour="white",
        mark_colour="black",
    )
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY).astype(np.int16)
    assert scene.image.shape[:2] == (3024, 4032)
    for d in scene.dice:
        x, y, r = int(d.x), int(d.y), int(d.size * 0.4)
        patch = grey[y - r : y + r, x - r : x + r]
        step = np.abs(np.diff(patch, axis=1)).max()
        assert step >= 0.6 * (patch.max() - patch.min()), (d, step)


def test_a_scene_moved_by_a_pixel_keeps_its_truth_on_its_dice():
    """bench_vision --moved: the frame grows at the top left, and every truth point (a die's
    centre, a cocked die's upper face, the point below, the arena) lands on the same pixels."""
    from vision.synth.scene import benchmark_scene, moved

    scene = benchmark_scene("strike", 3, 0)
    m = moved(scene, 2)
    h, w = scene.image.shape[:2]
    assert m.image.shape[:2] == (h + 2, w + 2)
    assert np.array_equal(m.image[2:, 2:], scene.image)
    for d, e in zip(scene.dice, m.dice, strict=True):
        assert (e.x, e.y, e.face, e.cocked) == (d.x + 2, d.y + 2, d.face, d.cocked)
        if d.upper is not None:
            assert e.upper == (d.upper[0] + 2, d.upper[1] + 2)
    assert m.below == (scene.below[0] + 2, scene.below[1] + 2)
    assert m.arena["centre"] == [scene.arena["centre"][0] + 2, scene.arena["centre"][1] + 2]
    assert m.arena["axes"] == scene.arena["axes"]
    assert moved(scene, 0).image.shape == scene.image.shape
    with pytest.raises(ValueError, match="expected a number of pixels >= 0"):
        moved(scene, -1)
