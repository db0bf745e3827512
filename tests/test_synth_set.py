"""bench/make_vision_set.py writes images whose truth files describe them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import pytest

from vision.synth.scene import benchmark_set

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "make_vision_set.py"


def _script():
    spec = importlib.util.spec_from_file_location("make_vision_set", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_writes_images_truth_and_index(tmp_path, capsys):
    assert (
        _script().main(["--out", str(tmp_path), "--n", "3", "--kinds", "detrak", "--seed", "4"])
        == 0
    )
    index = json.loads((tmp_path / "index.json").read_text())
    assert [s["kind"] for s in index["scenes"]] == ["detrak"] * 3
    expected = list(benchmark_set("detrak", 3, 4))
    for entry, scene in zip(index["scenes"], expected, strict=True):
        truth = json.loads((tmp_path / entry["truth"]).read_text())
        image = cv2.imread(str(tmp_path / entry["image"]))
        assert image.shape == scene.image.shape
        assert (image == scene.image).all()  # PNG is lossless, JPEG is the generator's own file
        assert truth["image"] == Path(entry["image"]).name
        assert [d["face"] for d in truth["dice"]] == [d.face for d in scene.dice]
        assert truth["conditions"]["frame"] == list(scene.conditions["frame"])
    assert "rendered 3 scenes" in capsys.readouterr().out


def test_bad_arguments_are_refused(tmp_path):
    with pytest.raises(SystemExit):
        _script().main(["--out", str(tmp_path), "--kinds", "cards"])
    with pytest.raises(SystemExit):
        _script().main(["--n", "2"])
