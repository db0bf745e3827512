"""A first network made narrower (vision/learned/slim.py, train.py --slim): the channels it drops
must be the ones the next layer reads least, and what it keeps must read exactly as before."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.learned.slim import kept_channels

MODELS = Path(__file__).parents[1] / "vision" / "learned" / "models"


def test_the_channels_worth_the_most_are_kept_in_their_order():
    worth = np.array([0.5, 3.0, 0.0, 2.0, 1.0, 2.5, 0.1, 4.0])
    assert kept_channels(worth, 0.5).tolist() == [1, 3, 5, 7]
    assert kept_channels(worth, 1.0).tolist() == list(range(8))
    assert kept_channels(worth, 0.01).tolist() == [7]  # one channel at least


@pytest.mark.parametrize("keep", [0.0, -0.5, 1.5])
def test_a_share_outside_zero_to_one_is_refused(keep):
    with pytest.raises(ValueError, match="expected a share of channels to keep in \\(0, 1\\]"):
        kept_channels(np.ones(4), keep)


def test_channels_no_layer_reads_are_dropped_and_the_rest_reads_as_before():
    torch = pytest.importorskip("torch")  # the train extra: CI has no torch
    pytest.importorskip("onnx")
    from vision.learned.network import from_onnx
    from vision.learned.slim import slimmed

    model = from_onnx(MODELS / "faces.onnx").eval()
    layers = list(model)
    convs = [i for i, m in enumerate(layers) if isinstance(m, torch.nn.Conv2d)]
    readers = convs[1:] + [next(i for i, m in enumerate(layers) if isinstance(m, torch.nn.Linear))]
    with torch.no_grad():  # a quarter of each convolution's channels made useless to the next
        for conv, reader in zip(convs, readers, strict=True):
            n = layers[conv].out_channels
            gone = np.random.default_rng(conv).choice(n, n // 4, replace=False)
            layers[reader].weight[:, gone] = 0.0
    x = torch.from_numpy(np.random.default_rng(3).normal(size=(64, 4, 32, 32)).astype(np.float32))
    slim = slimmed(model, 0.75, x.numpy()).eval()
    widths = [m.out_channels for m in slim if isinstance(m, torch.nn.Conv2d)]
    assert widths == [12, 12, 24, 24, 48, 48, 96, 96]  # m14's 16, 32, 64, 128 times 3/4
    with torch.no_grad():
        assert torch.allclose(slim(x), model(x), atol=1e-4)
        assert not torch.allclose(slimmed(model, 0.5, x.numpy()).eval()(x), model(x), atol=1e-2)
    spared = slimmed(model, 0.75, x.numpy(), whole=2)
    widths = [m.out_channels for m in spared if isinstance(m, torch.nn.Conv2d)]
    assert widths == [16, 16, 24, 24, 48, 48, 96, 96]  # the full-resolution layers kept whole
    with torch.no_grad():
        assert torch.allclose(spared.eval()(x), model(x), atol=1e-4)
