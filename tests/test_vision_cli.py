"""`arbitre read` (contract 2) and `arbitre calibrate`, through kiosk.cli.main."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import cv2
from test_vision_draw import scatter, table

from kiosk.cli import main


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _strike_frame(path, places):
    img = table(shape=(480, 640), seed=3, arena=((320, 240), (460, 320), 0))
    scatter(img, ["X", 4, 6][: len(places)], 30, "black", "white", places=places)
    cv2.imwrite(str(path), img)


def test_read_prints_one_contract_line_per_image_in_order(tmp_path):
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    _strike_frame(a, [(320, 240), (600, 40), (250, 200)])
    _strike_frame(b, [(300, 250)])
    code, out, err = _cli("read", str(a), str(b), "--dice", "strike")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 2
    assert set(lines[0]) == {"dice", "arena", "ms"}
    assert set(lines[0]["dice"][0]) == {
        "face",
        "x",
        "y",
        "size",
        "in_arena",
        "cocked",
        "confidence",
    }
    faces = {(d["face"], d["in_arena"]) for d in lines[0]["dice"]}
    assert faces == {("X", True), (4, False), (6, True)}
    assert [d["face"] for d in lines[1]["dice"]] == ["X"]
    assert lines[0]["arena"]["a"] > lines[0]["arena"]["b"] > 100


def test_an_unreadable_image_keeps_its_place_and_fails_the_run(tmp_path):
    good = tmp_path / "good.png"
    _strike_frame(good, [(320, 240)])
    bad = tmp_path / "bad.png"
    bad.write_text("not a picture")
    code, out, err = _cli("read", str(bad), str(good), "--dice", "strike", "--arena", "none")
    assert code == 2
    first, second = (json.loads(line) for line in out.splitlines())
    assert "error" in first and "bad.png" in err
    assert second["arena"] is None and second["dice"][0]["in_arena"] is True


def test_a_missing_file_is_told_apart_from_one_that_is_no_image(tmp_path):
    bad = tmp_path / "bad.png"
    bad.write_text("not a picture")
    missing = tmp_path / "missing.png"
    code, out, err = _cli("read", str(missing), str(bad), str(tmp_path), "--dice", "pips")
    assert code == 2
    errors = [json.loads(line)["error"] for line in out.splitlines()]
    assert errors[0].endswith("missing.png: no such file")
    assert errors[1].endswith(
        "bad.png: not an image file OpenCV reads (JPEG, PNG, BMP, TIFF, WebP)"
    )
    assert "a directory" in errors[2]
    assert err.splitlines() == errors
    code, _, err = _cli("calibrate", str(missing), "--out", str(tmp_path / "c.json"))
    assert code == 2 and "no such file" in err and not (tmp_path / "c.json").exists()


def test_overlay_is_written(tmp_path):
    img = tmp_path / "a.png"
    _strike_frame(img, [(320, 240)])
    code, _, _ = _cli("read", str(img), "--dice", "strike", "--overlay", str(tmp_path / "o.png"))
    drawn = cv2.imread(str(tmp_path / "o.png"))
    assert code == 0 and drawn.shape == (480, 640, 3)
    assert (drawn != cv2.imread(str(img))).any()


def test_calibrate_saves_arena_and_size_for_read(tmp_path):
    frame = tmp_path / "empty.png"
    _strike_frame(frame, [(300, 240)])
    cal = tmp_path / "cal.json"
    code, out, err = _cli("calibrate", str(frame), "--out", str(cal))
    assert code == 0, err
    saved = json.loads(cal.read_text())
    assert 26 < saved["die_size"] < 34 and saved["arena"]["a"] > 200
    assert json.loads(out)["saved"] == str(cal)
    code, out, _ = _cli("read", str(frame), "--dice", "strike", "--calibration", str(cal))
    assert code == 0 and json.loads(out)["arena"] == saved["arena"]


def test_calibrate_warns_when_the_camera_shows_the_dice_too_small(tmp_path):
    """An empty Strike box seen far (its oval 240 px long): dice of about 15 px, under the 18
    the reader is sure from. The calibration is saved, and the maker is told why and what to do,
    in French unless the config says English."""
    frame = tmp_path / "far.png"
    cv2.imwrite(str(frame), table(shape=(480, 640), seed=3, arena=((320, 240), (240, 160), 0)))
    code, out, err = _cli("calibrate", str(frame), "--out", str(tmp_path / "c.json"))
    said = json.loads(out)
    assert code == 0 and said["die_size"] < 18 and (tmp_path / "c.json").exists()
    assert "rapprochez la caméra" in err and said["warning"] in err
    config = tmp_path / "arbitre.toml"
    config.write_text('language = "en"\n')
    code, out, err = _cli(
        "calibrate", str(frame), "--out", str(tmp_path / "c.json"), "--config", str(config)
    )
    assert code == 0 and "bring the camera closer" in err


def test_calibrate_says_nothing_more_of_dice_big_enough(tmp_path):
    frame = tmp_path / "near.png"
    _strike_frame(frame, [(300, 240)])
    code, out, err = _cli("calibrate", str(frame), "--out", str(tmp_path / "c.json"))
    assert code == 0 and err == "" and "warning" not in json.loads(out)


def test_calibrate_tells_of_pale_marks_on_dice_just_big_enough():
    """From 18 px to FAINT_PX the dice are read, but faces with pale marks are asked (rule
    247): the maker hears it with the fix; from 25 px, nothing."""
    from kiosk.commands.calibrate import small_dice
    from vision.faint import FAINT_PX

    fr, en = small_dice(FAINT_PX - 2)
    assert "marques pâles" in fr and "rapprochez la caméra" in fr
    assert "pale marks" in en and "bring the camera closer" in en
    assert "moins que les" in small_dice(15.0)[0]
    assert small_dice(FAINT_PX + 1) is None and small_dice(None) is None


def test_calibrate_refuses_a_frame_with_nothing_in_it(tmp_path):
    frame = tmp_path / "plain.png"
    cv2.imwrite(str(frame), table(seed=4))
    code, _, err = _cli("calibrate", str(frame), "--out", str(tmp_path / "c.json"))
    assert code == 2 and "nothing to calibrate" in err
    assert not (tmp_path / "c.json").exists()


def test_a_broken_calibration_file_is_named(tmp_path):
    img = tmp_path / "a.png"
    _strike_frame(img, [(320, 240)])
    cal = tmp_path / "cal.json"
    cal.write_text('{"version": 1}')
    code, out, err = _cli("read", str(img), "--calibration", str(cal))
    assert code == 2 and "cal.json" in err and out == ""
