"""det17 made narrower by keeping the channels its next layers read most (detect_train.py
--init NET --slim KEEP): the concatenations of the upsampling path must keep their channels
paired with the layers that read them, or the slimmed network reads other maps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # the train extra: CI has no torch, the trainer's machine has
pytest.importorskip("onnx")

from vision.learned.detect_slim import slimmed_detector  # noqa: E402
from vision.learned.detect_train import build_model, export, from_onnx, main  # noqa: E402

DETECTOR = Path(__file__).parents[1] / "vision" / "learned" / "models" / "dice.onnx"


def _patches(n: int = 6, side: int = 64) -> np.ndarray:
    rng = np.random.default_rng(5)
    return rng.normal(0, 1, (n, 3, side, side)).astype(np.float32)


def _blocks(model) -> list:
    return [*model.to4, *model.to8, *model.to16, model.up8, model.up4]


def _silence_a_quarter(model) -> None:
    """Every block's last quarter of channels outputs 0; the others are lifted so that each
    is read (a positive mean after the ReLU)."""
    with torch.no_grad():
        for block in _blocks(model):
            conv = block[0]
            quiet = conv.out_channels - conv.out_channels * 3 // 4
            rows = torch.randperm(conv.out_channels, generator=torch.Generator().manual_seed(3))
            conv.weight[rows[:quiet]] = 0.0
            conv.bias[rows[:quiet]] = 0.0
            conv.bias[rows[quiet:]] += 0.5


def test_keeping_every_channel_reads_the_same_maps():
    model = from_onnx(DETECTOR).eval()
    x = _patches()
    with torch.no_grad():
        same = slimmed_detector(model, 1.0, x)(torch.from_numpy(x))
        assert torch.equal(same, model(torch.from_numpy(x)))


def test_silent_channels_go_first_and_the_maps_do_not_change():
    model = from_onnx(DETECTOR).eval()
    _silence_a_quarter(model)
    x = _patches()
    slim = slimmed_detector(model, 0.75, x).eval()
    widths = [b[0].out_channels for b in _blocks(slim)]
    assert widths == [9, 18, 18, 24, 24, 36, 36, 24, 18]
    with torch.no_grad():
        before, after = model(torch.from_numpy(x)), slim(torch.from_numpy(x))
    assert torch.allclose(before, after, atol=1e-4)


def test_an_exported_slim_detector_is_read_back_at_its_own_width(tmp_path):
    model = from_onnx(DETECTOR).eval()
    x = _patches(n=2)
    slim = slimmed_detector(model, 0.5, x).eval()
    export(slim, tmp_path, {})
    back = from_onnx(tmp_path / "dice.onnx").eval()
    with torch.no_grad():
        assert torch.allclose(back(torch.from_numpy(x)), slim(torch.from_numpy(x)), atol=1e-5)


def test_a_detector_with_batch_norms_is_refused():
    with pytest.raises(ValueError, match="batch norm"):
        slimmed_detector(build_model(), 0.75, _patches(n=1))


@pytest.mark.parametrize(
    "args",
    [["--slim", "0.75"], ["--slim", "0", "--init", str(DETECTOR)]],
)
def test_slimming_needs_a_detector_and_a_share(args, capsys, tmp_path):
    with pytest.raises(SystemExit):
        main([*args, "--out", str(tmp_path)])
    assert "--slim" in capsys.readouterr().err
