"""vision.read's learned path (vision/read_learned.py): the detector finds the dice, the classifier
reads them, and the looks after its first reading (vision/later_looks.py) read again. Scenes are
generated with seeds the networks were not trained on (training: 2026.., calibration: 2526..),
and tables drawn by the tests' own drawer (tests/test_vision_draw.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_vision_draw import FACES, match, scatter, table

from vision import Ellipse, find_report, later_looks, read, read_learned
from vision.read import in_arena
from vision.readings import Die
from vision.synth.scene import render_scene

pytestmark = pytest.mark.skipif(
    not all(read_learned.enabled(k) for k in ("pips", "strike", "detrak")),
    reason="the learned models are not there",
)
SURE = 0.9


def _pair(scene, readings):
    """Each truth die with the reading nearest its centre (within 0.6 of its side), or None."""
    out = []
    for t in scene.dice:
        near = [d for d in readings.dice if math.hypot(d.x - t.x, d.y - t.y) < 0.6 * t.size]
        out.append((t, min(near, key=lambda d: math.hypot(d.x - t.x, d.y - t.y)) if near else None))
    return out


def _tables(kind, seed, count, n_dice, cocked, tilts, backgrounds):
    """`count` generated tables of 1280 x 960, dice of 36 to 64 px, light noise; tilts and
    backgrounds taken in turn."""
    for i in range(count):
        yield render_scene(
            kind,
            np.random.default_rng([seed, i]),
            frame=(1280, 960),
            n_dice=n_dice,
            die_size=float(36 + 14 * (i % 3)),
            cocked=cocked,
            tilt=tilts[i % len(tilts)],
            background=backgrounds[i % len(backgrounds)],
            noise=3.0,
        )


@pytest.mark.parametrize("kind", ["pips", "strike", "detrak"])
def test_unseen_scenes_are_read(kind):
    """Six tables of 12 dice (with three, one die was 3 % of the share: a cluster of touching
    dice could tip it)."""
    right = flat = 0
    for scene in _tables(kind, 31337, 6, 12, 1, (3.0,), ("felt", "wood", "foam")):
        r = read(scene.image, kind)
        for t, d in _pair(scene, r):
            if t.cocked:  # (one a table: test_cocked_dice_are_flagged counts them over more)
                continue
            flat += 1
            right += d is not None and d.face == t.face
            if d is not None and d.confidence >= SURE:
                assert d.face == t.face, (t, d)
    assert right >= 0.9 * flat, f"{right}/{flat} flat dice read right"


@pytest.mark.parametrize("kind", ["pips", "strike", "detrak"])
def test_cocked_dice_are_flagged(kind):
    """Eight tables of 14 dice, three of them cocked. Issue 5 asks that every cocked die be
    flagged; the reader does not reach that yet (docs/vision.md, "Where it stands": 92-96 % on
    fresh benchmark seeds, a few in a hundred read as a face at 0.9 or more). This holds it to
    where it is: two thirds flagged at least (session 3's classifier flagged half), and at most
    one in eight read as a sure face, whatever the table."""
    flagged = sure = cocked = 0
    tables = _tables(
        kind, 4242, 8, 14, 3, (0.0, 3.0, 6.0, 9.0), ("felt", "wood", "foam", "grey_card")
    )
    for scene in tables:
        for t, d in _pair(scene, read(scene.image, kind)):
            if t.cocked:
                cocked += 1
                flagged += d is not None and d.cocked
                sure += d is not None and d.face is not None and d.confidence >= SURE
    assert cocked >= 20
    assert flagged >= 2 / 3 * cocked, f"{flagged}/{cocked} cocked dice flagged"
    assert sure <= cocked / 8, f"{sure}/{cocked} cocked dice read as a sure face"


@pytest.mark.parametrize(
    "kind,die,marks",
    [
        ("pips", "white", "black"),
        ("strike", "black", "white"),
        ("detrak", "white", "black"),
    ],
)
def test_drawn_dice_are_read(kind, die, marks):
    img = table(seed=56)
    faces = FACES[kind] * 2
    truth = scatter(img, faces, 56, die, marks, seed=56)
    r = read(img, kind, arena="none")
    assert len(r.dice) == len(faces)
    for t, d in match(r, truth, 56):
        assert d is not None and (d.face, d.cocked) == (t["face"], False), (t, d)
        # the detector learned the top face of dice whose sides show: a flat drawing of a die,
        # all top, is seen up to a quarter smaller (docs/vision.md, failure cases)
        assert abs(d.size - 56) < 56 * 0.3


def test_an_empty_table_has_no_dice():
    assert read(table(seed=9), "pips", arena="none").dice == ()


def test_a_die_against_the_rim_is_in_and_one_beyond_it_is_out():
    arena = Ellipse(500, 400, 300, 200, 0)
    at_rim = Die(4, 500 + 300 * 1.05, 400, 30)  # its centre just past the oval: leaning on the wall
    away = Die(4, 500 + 300 * 1.3, 400, 30)
    assert in_arena(arena, Die(4, 500, 400, 30))
    assert in_arena(arena, at_rim)
    assert not in_arena(arena, away)


def test_classical_reader_when_asked(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("the learned path was used")

    monkeypatch.setattr(read_learned, "learned_dice", refuse)
    monkeypatch.setenv("ARBITRE_LEARNED", "0")
    img = table(seed=3)
    scatter(img, [2, 5], 48, seed=3)
    assert sorted(d.face for d in read(img, "pips", arena="none").dice) == [2, 5]


def _row(names, best, p=0.95):
    """A probability row over `names` with `best` at p and the rest shared out."""
    row = np.full(len(names), (1 - p) / (len(names) - 1))
    row[names.index(best)] = p
    return row


def test_what_the_classifier_says_of_each_find_decides_its_die():
    """The rules between the two networks, on made-up outputs: a face on a flat find the
    classifier reads, unless it gives the die high odds of being cocked; "cocked" from either
    network flags the die, unless the classifier reads a face on a find the detector calls
    cocked, sure of it and sure the die is not on its edge; "no die" from the classifier drops
    a find, unless the detector is sure of a cocked die."""
    from vision.learned.classes import kind_classes
    from vision.learned.detector import Found

    names = kind_classes("pips")
    flat = Found(10.0, 20.0, 30.0, flat_score=0.9, cocked_score=0.1)
    unsure_flat = Found(10.0, 20.0, 30.0, flat_score=0.4, cocked_score=0.1)
    tilted = Found(10.0, 20.0, 30.0, flat_score=0.2, cocked_score=0.5)
    sure_tilted = Found(10.0, 20.0, 30.0, flat_score=0.2, cocked_score=0.8)

    read4 = find_report.flat(flat, _row(names, 4), names, "pips")
    assert (read4.face, read4.cocked) == (4, False)
    assert (
        read4.confidence > find_report.flat(unsure_flat, _row(names, 4), names, "pips").confidence
    )
    on_edge = find_report.flat(flat, _row(names, "cocked"), names, "pips")
    assert (on_edge.face, on_edge.cocked) == (None, True)
    line = find_report.COCKED_ODDS["pips"]
    doubted4 = _row(names, 4, p=0.55)
    doubted4[names.index("cocked")] = line + 0.02  # under the face's odds, but high: cocked
    assert find_report.flat(flat, doubted4, names, "pips").cocked
    doubted4[names.index("cocked")] = line - 0.05
    assert find_report.flat(flat, doubted4, names, "pips").face == 4
    assert find_report.flat(unsure_flat, _row(names, "none"), names, "pips") is None
    assert find_report.flat(flat, _row(names, "none"), names, "pips") is None  # a print

    def tilted_read(find, row):
        return find_report.tilted(find, row, names, "pips")

    unsure6 = _row(names, 6, p=0.75)
    leaning6 = _row(names, 6, p=0.86)
    leaning6[names.index("cocked")] = 0.12
    assert tilted_read(tilted, unsure6).cocked
    assert tilted_read(tilted, leaning6).cocked
    sure6 = tilted_read(tilted, _row(names, 6, p=0.97))
    assert (sure6.face, sure6.cocked) == (6, False)  # seen large, the die lies flat
    assert tilted_read(tilted, _row(names, "none")) is None  # a print
    assert tilted_read(sure_tilted, _row(names, "none")).cocked


def _one_flat_die():
    """A 640 x 480 frame of one flat 48 px pips die on felt, seen from straight above."""
    return render_scene(
        "pips",
        np.random.default_rng([4242, 1]),
        frame=(640, 480),
        n_dice=1,
        die_size=48.0,
        cocked=0,
        tilt=0.0,
        background="felt",
        noise=1.0,
    )


def test_a_find_off_its_die_is_looked_at_around(monkeypatch):
    """A hot flat find the classifier sees no die in (the detector a third of a die off, in a
    cluster) is read again around it, and takes the crop that reads a face; a find on bare
    table stays no die; only the RELOOKS hottest of a frame are looked at again."""
    from vision.learned.classes import kind_classes
    from vision.learned.detector import Found

    scene = _one_flat_die()
    (die,) = scene.dice
    names = kind_classes("pips")
    bare = (40.0, 40.0) if math.hypot(die.x - 40, die.y - 40) > 150 else (600.0, 440.0)
    looked = later_looks.RELOOKS
    found = [Found(die.x + 0.3 * die.size, die.y, die.size, flat_score=0.6, cocked_score=0.1)]
    found += [  # on bare table, colder and colder: the last is left alone
        Found(*bare, die.size, flat_score=0.55 - 0.05 * k, cocked_score=0.1) for k in range(looked)
    ]
    p = np.stack([_row(names, "none")] * len(found))
    crops = []
    real = later_looks.probabilities

    def counted(c, kind):
        crops.append(len(c))
        return real(c, kind)

    monkeypatch.setattr(later_looks, "probabilities", counted)
    moved, q = later_looks.look_around(scene.image, found, p, "pips", None)
    assert crops == [looked * len(later_looks.AROUND)]
    assert moved[0] in later_looks._around(found[0])  # one of the crops around it
    assert math.hypot(moved[0].x - die.x, moved[0].y - die.y) < 0.6 * die.size
    assert names[int(q[0].argmax())] == die.face
    assert find_report.flat(moved[0], q[0], names, "pips").face == die.face
    assert moved[1:] == found[1:] and np.array_equal(q[1:], p[1:])


def test_one_die_read_twice_is_one_die():
    """Two faces nearer than ONE_DIE of a side are one die: the surer stays, with the lesser
    confidence when the two faces disagree. Dice a side apart (touching), and dice touching
    whose finds were drawn 0.75 of a side together (session 24: a 3 lost that way), are two
    dice."""
    one = find_report.one_per_die
    sure, twin = Die(2, 100, 100, 20, confidence=0.95), Die(2, 100, 110, 20, confidence=0.7)
    assert one([twin, sure]) == [sure]
    other = Die(3, 100, 110, 20, confidence=0.6)
    assert one([sure, other]) == [Die(2, 100, 100, 20, confidence=0.6)]
    touching = Die(5, 120, 100, 20, confidence=0.9)
    assert one([sure, touching]) == [sure, touching]
    drawn = Die(3, 100, 115, 20, confidence=0.9)
    assert one([sure, drawn]) == [sure, drawn]
    near_cocked = Die(None, 100, 118, 20, cocked=True, confidence=0.8)
    assert one([sure, near_cocked]) == [sure, near_cocked]  # 0.9 of a side: two dice


def test_a_face_on_a_die_reported_cocked_goes():
    """A face within ONE_DIE of a cocked report is a second find of that cocked die (no cocked
    die of the benchmark nor of the Blender scenes lies that near a flat one): the die is
    reported once, cocked, so that the table has it thrown again and the benchmark counts no
    face on it. Faces further off stay, and two cocked reports are left as they are."""
    one = find_report.one_per_die
    cocked = Die(None, 100, 100, 20, cocked=True, confidence=0.4)
    face = Die(1, 100, 109, 20, confidence=0.95)
    assert one([face, cocked]) == [cocked]
    assert one([cocked, face, Die(1, 90, 95, 20, confidence=0.5)]) == [cocked]
    apart = Die(4, 121, 100, 20, confidence=0.9)
    assert one([cocked, apart]) == [cocked, apart]
    again = Die(None, 100, 105, 20, cocked=True, confidence=0.3)
    assert one([cocked, again]) == [cocked, again]


def test_an_oblique_photo_is_read_about_the_point_below_the_camera(monkeypatch):
    """Flat dice in a photo taken 28 degrees off vertical show their sides away from where
    the frame's centre says: read about the point below the camera, far fewer are called
    cocked (vision/learned/nadir.py), and no face read is wrong. (Session 6's wider crops made
    the classifier less easily fooled: at 22 degrees the search now saves about a third.
    Session 8's detector calls fewer of them cocked in the first place: at 28 degrees 5 with
    the search against 10 without, so the search is asked to halve them at least.)"""
    from vision.synth.scene import render_scene

    scenes = [
        render_scene(
            "pips",
            np.random.default_rng([5150, seed]),
            frame=(1280, 960),
            n_dice=16,
            cocked=0,
            tilt=28.0,
            cluster=0.0,
            die_size=40.0,
        )
        for seed in (1, 2, 4)
    ]

    def read_all():
        cocked = wrong = 0
        for s in scenes:
            for d in read(s.image, "pips", arena="none").dice:
                cocked += d.cocked
                if d.face is not None:
                    t = min(s.dice, key=lambda t: math.hypot(t.x - d.x, t.y - d.y))
                    wrong += d.face != t.face
        return cocked, wrong

    with_search, wrong = read_all()
    assert wrong == 0
    monkeypatch.setattr(read_learned, "_oblique_view", lambda *a, **k: None)
    assert 2 * with_search <= read_all()[0]


def test_a_die_half_a_side_off_its_find_is_reached_in_two_steps(monkeypatch):
    """A crop around a lost find that reads a face a little (RELOOK_STEP) is a step the right
    way: it is looked around once more, and the die half a side off is read (a die of a row of
    three touching, in a Strike demo game). A find with nothing near stays no die."""
    from vision.learned.classes import kind_classes
    from vision.learned.detector import Found

    names = kind_classes("pips")
    die = (100.0, 100.0)
    side = 20.0

    def crop(frame, x, y, size, below=None):
        return (x, y)

    def probabilities(crops, kind):
        rows = []
        for x, y in crops:
            off = math.hypot(x - die[0], y - die[1]) / side
            rows.append(_row(names, 3) if off < 0.15 else _row(names, "none"))
            if 0.15 <= off < 0.35:  # half the die in the crop: a face, but not surely
                rows[-1] = 0.6 * _row(names, 3) + 0.4 * _row(names, "none")
        return np.stack(rows)

    monkeypatch.setattr(later_looks, "crop_die", crop)
    monkeypatch.setattr(later_looks, "probabilities", probabilities)
    found = [
        Found(die[0] + 0.55 * side, die[1], side, flat_score=0.6, cocked_score=0.1),
        Found(300.0, 300.0, side, flat_score=0.6, cocked_score=0.1),
    ]
    p = np.stack([_row(names, "none")] * 2)
    moved, q = later_looks.look_around(None, found, p, "pips", None)
    assert math.hypot(moved[0].x - die[0], moved[0].y - die[1]) < 0.15 * side
    assert names[int(q[0].argmax())] == 3
    assert moved[1] == found[1] and names[int(q[1].argmax())] == "none"
    monkeypatch.setattr(later_looks, "RELOOK_STEP", 0.7)  # one step only: not reached
    moved, q = later_looks.look_around(None, found, p, "pips", None)
    assert moved[0] == found[0] and names[int(q[0].argmax())] == "none"


def test_a_hinted_frame_is_looked_at_with_its_dice_at_the_kinds_own_size(monkeypatch):
    """With the dice's size known (the watcher's hint, a calibration) the detector makes one
    look, at the size the kind reads its hinted frames best: 12.5 px for pips, 15 px for Strike
    and Détrak (rules 159-160)."""
    from vision.learned import detector

    scales = []
    monkeypatch.setattr(detector, "look", lambda frame, s, base=None: scales.append(s) or [])
    frame = np.zeros((960, 1280, 3), np.uint8)
    for kind in ("pips", "strike", "detrak"):
        assert read_learned.learned_dice(frame, kind, die_size=40.0) == []
    assert scales == pytest.approx([12.5 / 40, 15.0 / 40, 15.0 / 40])
