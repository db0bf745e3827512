"""bench/calibration_figures.py: the figures a kept network's json holds, from logits and labels."""

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from calibration_figures import figures, main  # noqa: E402

from vision.learned.classes import CLASSES  # noqa: E402


def _logits(reads: list) -> np.ndarray:
    """One crop per entry: (class read, its logit margin over every other class)."""
    out = np.zeros((len(reads), len(CLASSES)), np.float32)
    for row, (face, margin) in zip(out, reads, strict=True):
        row[CLASSES.index(face)] = margin
    return out


def _labels(faces: list) -> np.ndarray:
    return np.array([CLASSES.index(f) for f in faces], np.int64)


def test_figures_count_right_sure_and_cocked_crops():
    # a sure right 3, a sure wrong 4 (truly 5), an unsure right 2, a cocked die read cocked and
    # one read as a sure 6
    logits = _logits([(3, 9.0), (4, 9.0), (2, 0.5), ("cocked", 9.0), (6, 9.0)])
    labels = _labels([3, 5, 2, "cocked", "cocked"])
    f = figures(logits, labels, "pips", 1.0)
    assert f["crops"] == 5
    assert 0.3 <= f["own_fit"] <= 8.0  # temperature.py's grid
    assert f["accuracy"] == 0.6  # 3, 2 and the first cocked die
    assert f["share_at_0.9"] == 0.8  # all but the 2
    assert f["accuracy_at_0.9"] == 0.5  # of the four sure, the 3 and the cocked die
    assert (f["cocked_crops"], f["cocked_read_cocked"]) == (2, 1)


def test_a_hotter_temperature_makes_fewer_crops_sure_and_none_at_all_says_so():
    logits = _logits([(3, 6.0), (4, 6.0)])
    labels = _labels([3, 4])
    assert figures(logits, labels, "pips", 1.0)["share_at_0.9"] == 1.0
    hot = figures(logits, labels, "pips", 10.0)
    assert hot["share_at_0.9"] == 0.0 and hot["accuracy_at_0.9"] is None
    assert hot["accuracy"] == 1.0  # the argmax does not move with the temperature
    # every crop right: the sharpest temperature of temperature.py's grid is the likeliest
    assert figures(logits, labels, "pips", 1.0)["own_fit"] == pytest.approx(0.3)


def test_crops_of_another_kind_or_a_temperature_of_zero_are_refused():
    with pytest.raises(ValueError, match="expected only pips's classes"):
        figures(_logits([("X", 5.0)]), _labels(["X"]), "pips", 1.0)
    with pytest.raises(ValueError, match="temperature above 0"):
        figures(_logits([(3, 5.0)]), _labels([3]), "pips", 0.0)


def test_a_missing_network_is_named_before_any_crop_is_made(tmp_path, capsys):
    gone = tmp_path / "gone.onnx"
    with pytest.raises(SystemExit):
        main([str(gone), "--kind", "pips", "--seed", "1", "--temperature", "1.5"])
    assert "gone.onnx" in capsys.readouterr().err
