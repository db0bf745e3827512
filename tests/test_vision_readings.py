"""Readings, Ellipse and Calibration as data: JSON shapes, round trips, clear errors."""

from __future__ import annotations

import json

import pytest

from vision import Calibration, Die, Ellipse, Readings, load_calibration, save_calibration


def test_die_json_is_contract_two():
    d = Die(5, 10.04, 20.06, 41.0, True, False, 0.97123, angle=12.0)
    assert d.to_json() == {
        "face": 5,
        "x": 10.0,
        "y": 20.1,
        "size": 41.0,
        "in_arena": True,
        "cocked": False,
        "confidence": 0.971,
    }


def test_readings_faces_skip_dice_out_of_the_arena_and_unsure_ones():
    r = Readings(
        "strike",
        (
            Die("X", 0, 0, 9, True, confidence=0.95),
            Die(4, 0, 0, 9, False),
            Die(6, 0, 0, 9, True, confidence=0.5),
        ),
    )
    assert r.faces() == ["X", 6]
    assert r.faces(0.9) == ["X", None]
    assert json.loads(json.dumps(r.to_json()))["arena"] is None


@pytest.mark.parametrize(
    "x,y,inside",
    [(100, 50, True), (179, 50, True), (181, 50, False), (100, 89, True), (100, 91, False)],
)
def test_ellipse_contains(x, y, inside):
    assert Ellipse(100, 50, 80, 40, 0).contains(x, y) is inside


def test_a_turned_ellipse_turns_as_opencv_draws_it():
    import cv2
    import numpy as np

    e = Ellipse(100, 100, 80, 30, 30)
    img = np.zeros((200, 200), np.uint8)
    cv2.ellipse(img, ((e.cx, e.cy), (2 * e.a, 2 * e.b), e.angle), 255, -1)
    ys, xs = np.nonzero(img)
    agree = np.mean([e.contains(x, y) for x, y in zip(xs[::7], ys[::7], strict=True)])
    assert agree > 0.98
    assert not e.contains(100 + 70 * np.cos(np.radians(120)), 100 + 70 * np.sin(np.radians(120)))


def test_calibration_round_trip_and_rescale(tmp_path):
    cal = Calibration((1280, 960), Ellipse(640, 480, 400, 300, 5), 40.0)
    path = tmp_path / "sub" / "cal.json"
    save_calibration(cal, path)
    back = load_calibration(path)
    assert back == cal
    half = back.for_frame(640, 480)
    assert half.die_size == 20.0 and half.arena.cx == 320 and half.arena.a == 200


@pytest.mark.parametrize(
    "text,message",
    [
        ("nope", "not JSON"),
        ('{"version": 9}', "version 1"),
        ('{"version": 1, "frame_size": "big"}', "frame_size"),
        ('{"version": 1, "frame_size": [4, 3], "arena": {"cx": 1}}', "cx, cy, a, b, angle"),
    ],
)
def test_a_bad_calibration_says_what_is_expected(tmp_path, text, message):
    path = tmp_path / "c.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_calibration(path)


def test_wilson_bound_is_below_the_rate_and_tightens_with_more_samples():
    from vision.confidence import wilson_low

    assert wilson_low(0, 0) == 0.0
    assert wilson_low(30, 30) < 0.9 < wilson_low(300, 300) < 1.0
    assert wilson_low(95, 100) < 0.95


def test_fitted_confidence_never_decreases_and_maps_raw_scores():
    from vision import confidence

    samples = [(0.2, False)] * 300 + [(0.5, True)] * 40 + [(0.5, False)] * 10 + [(0.95, True)] * 900
    table = confidence.fit(samples, step=0.1)
    values = [v for _, v in table]
    assert values == sorted(values)
    assert table[0][1] < 0.9 < table[-2][1]  # raw >= 0.9: 900 of 900 right, lb > 0.99
    saved = confidence._TABLES
    try:
        confidence._TABLES = {"pips": ([t for t, _ in table], values)}
        assert confidence.calibrated("pips", 0.97) == table[-2][1]
        assert confidence.calibrated("pips", 0.0) == 0.0
        assert confidence.calibrated("detrak", 0.42) == 0.42  # no table: the raw score
    finally:
        confidence._TABLES = saved


def test_a_confidence_fitted_on_two_sources_holds_on_the_weaker():
    """Pooled, many easy faces (the simulated table) lift a hard source's errors (the photos)
    over 0.9; with the hard source fitted alone too and the lesser value kept, they do not."""
    from vision import confidence

    easy = [(0.95, True)] * 3000
    hard = [(0.95, True)] * 480 + [(0.95, False)] * 20  # 96 % right
    pooled = confidence.fit(easy + hard, step=0.1)
    assert pooled[-2][1] >= 0.9  # 99.4 % right pooled: trusted
    both = confidence.weakest(confidence.fit(hard, step=0.1), pooled)
    assert [t for t, _ in both] == [t for t, _ in pooled]
    assert both[-2][1] < 0.9  # the hard source alone is not sure enough
    assert both == sorted(both, key=lambda p: p[1])  # still never decreasing


def test_both_readers_have_a_fitted_table_for_every_kind():
    """A kind without a table reports its raw score as the confidence, which means nothing:
    the classical reader (the fallback, ARBITRE_LEARNED=0 or a missing network) went without
    its tables from session 6 to 32, so its raw 0.9 passed the table's line unasked."""
    from vision import confidence
    from vision.find_report import table_key
    from vision.synth.scene import KINDS

    for kind in KINDS:
        for key in (kind, table_key(kind)):
            thresholds, values = confidence._TABLES[key]
            assert len(thresholds) == len(values) > 1, key
            assert max(values) <= 1.0 and values == sorted(values), key
