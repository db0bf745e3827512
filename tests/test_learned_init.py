"""A classifier trained further from its exported weights (network.from_onnx, train.py --init):
it must start from exactly what the product reads, or a fine-tune starts from another network."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch")  # the train extra: CI has no torch, the trainer's machine has
pytest.importorskip("onnx")

from vision.learned.network import from_onnx  # noqa: E402
from vision.learned.train import export  # noqa: E402

MODELS = Path(__file__).parents[1] / "vision" / "learned" / "models"


@pytest.mark.parametrize("stem", ["faces", "faces-doubt"])
def test_a_stored_classifier_comes_back_as_the_network_opencv_reads(stem):
    path = MODELS / f"{stem}.onnx"
    x = np.random.default_rng(1).normal(size=(8, 4, 32, 32)).astype(np.float32)
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(x)
    with torch.no_grad():
        got = from_onnx(path).eval()(torch.from_numpy(x)).numpy()
    assert np.abs(got - net.forward()).max() < 1e-4


def test_trained_further_and_exported_it_reads_the_same_again(tmp_path):
    model = from_onnx(MODELS / "faces.onnx")
    with torch.no_grad():
        model[0].bias += 0.5  # "trained": the export must carry the change, not the parent's
    export(model.eval(), tmp_path / "next.onnx")
    x = np.random.default_rng(2).normal(size=(4, 4, 32, 32)).astype(np.float32)
    net = cv2.dnn.readNetFromONNX(str(tmp_path / "next.onnx"))
    net.setInput(x)
    with torch.no_grad():
        want = model(torch.from_numpy(x)).numpy()
    assert np.abs(net.forward() - want).max() < 0.05  # float16 storage (half.py)
    parent = cv2.dnn.readNetFromONNX(str(MODELS / "faces.onnx"))
    parent.setInput(x)
    assert np.abs(parent.forward() - want).max() > 0.05


def test_a_file_of_other_layers_is_refused_with_what_was_expected(tmp_path):
    from onnx import TensorProto, helper

    node = helper.make_node("Sigmoid", ["x"], ["y"])
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])],
    )
    import onnx

    onnx.save(helper.make_model(graph), str(tmp_path / "other.onnx"))
    with pytest.raises(ValueError, match="expected build_model's layers, found Sigmoid"):
        from_onnx(tmp_path / "other.onnx")


def test_the_stored_detector_comes_back_as_the_network_opencv_reads():
    from vision.learned.detect_train import from_onnx as detector_from_onnx

    path = MODELS / "dice.onnx"
    x = np.random.default_rng(3).normal(size=(1, 3, 96, 128)).astype(np.float32)
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(x)
    with torch.no_grad():
        got = detector_from_onnx(path).eval()(torch.from_numpy(x)).numpy()
    assert got.shape == (1, 5, 24, 32)
    assert np.abs(got - net.forward()).max() < 1e-4


def test_a_classifier_is_no_detector_to_train_further():
    from vision.learned.detect_train import from_onnx as detector_from_onnx

    with pytest.raises(ValueError, match="expected 10 convolutions"):
        detector_from_onnx(MODELS / "faces.onnx")


def test_a_halved_detector_comes_back_as_the_network_the_product_reads(tmp_path):
    import shutil

    from vision.learned.detect_train import from_onnx as detector_from_onnx
    from vision.learned.half import halve
    from vision.learned.onnx_net import read_onnx

    path = tmp_path / "dice.onnx"
    shutil.copy(MODELS / "dice.onnx", path)
    halve(path)
    x = np.random.default_rng(4).normal(size=(1, 3, 64, 64)).astype(np.float32)
    net = read_onnx(path)
    net.setInput(x)
    with torch.no_grad():
        got = detector_from_onnx(path).eval()(torch.from_numpy(x)).numpy()
    assert np.abs(got - net.forward()).max() < 1e-3
