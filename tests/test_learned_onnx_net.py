"""Loading the networks: widened to float32, on OpenCV 5's classic engine where there is one,
else as OpenCV 4 does."""

import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.learned import detector, onnx_net, runtime
from vision.learned.widen import widened

pytestmark = pytest.mark.skipif(
    not (detector.ONNX_PATH.exists() and runtime.ONNX_PATH.exists()), reason="models missing"
)


def test_the_classic_engine_is_asked_for_when_opencv_has_one(monkeypatch):
    asked = {}

    def read(path, **kw):
        asked.update(kw, data=Path(path).read_bytes())
        return "net"

    fake = types.SimpleNamespace(ENGINE_CLASSIC=7, readNetFromONNX=read)
    monkeypatch.setattr(onnx_net.cv2, "dnn", fake)
    assert onnx_net.read_onnx(runtime.ONNX_PATH) == "net"
    assert asked.pop("engine") == 7
    assert asked["data"] == widened(runtime.ONNX_PATH.read_bytes())


def test_a_widened_network_is_read_from_a_file_on_the_classic_engine():
    """OpenCV 5.0 reads a network from memory on its new engine, whatever it is asked for."""
    if not hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        pytest.skip("one ONNX engine here (OpenCV 4; 5.1 has no ENGINE_CLASSIC)")
    net = onnx_net.read_onnx(runtime.ONNX_PATH)
    kinds = {net.getLayer(n).type for n in net.getLayerNames()}
    assert "Convolution" in kinds and "Conv2" not in kinds  # (the new engine's name: Conv2)


def test_opencv_without_engines_loads_as_opencv_4_does(monkeypatch):
    def read(path, **kw):
        assert not kw, "OpenCV 4's readNetFromONNX takes no engine"
        return "net"

    monkeypatch.setattr(onnx_net.cv2, "dnn", types.SimpleNamespace(readNetFromONNX=read))
    assert onnx_net.read_onnx(detector.ONNX_PATH) == "net"


def test_both_engines_give_the_classifier_the_same_answers():
    """The engine is a matter of speed only: a reading must not depend on it."""
    if not hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        pytest.skip("one ONNX engine here (OpenCV 4; 5.1 has no ENGINE_CLASSIC)")
    blob = np.random.default_rng(3).standard_normal((6, 4, 32, 32)).astype(np.float32)
    outs = []
    for engine in (cv2.dnn.ENGINE_CLASSIC, cv2.dnn.ENGINE_AUTO):
        net = cv2.dnn.readNetFromONNX(str(runtime.ONNX_PATH), engine=engine)
        net.setInput(blob)
        outs.append(np.asarray(net.forward()))
    np.testing.assert_allclose(outs[0], outs[1], atol=1e-4)


def test_without_a_writable_temporary_folder_the_network_is_read_from_memory(monkeypatch):
    """A Pi whose /tmp is full or read-only still reads its networks, if on another engine."""

    def no_folder(*a, **kw):
        raise OSError(28, "No space left on device")

    blob = np.random.default_rng(4).standard_normal((2, 4, 32, 32)).astype(np.float32)
    outs = []
    for folder in (onnx_net.tempfile.TemporaryDirectory, no_folder):
        monkeypatch.setattr(onnx_net.tempfile, "TemporaryDirectory", folder)
        net = onnx_net.read_onnx(runtime.ONNX_PATH)
        net.setInput(blob)
        outs.append(np.asarray(net.forward()))
    np.testing.assert_allclose(outs[0], outs[1], atol=1e-4)  # (the engines: to 3e-5)
