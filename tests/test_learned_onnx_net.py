"""Loading the networks: OpenCV 5's classic engine where there is one, else as OpenCV 4 does."""

import types

import cv2
import numpy as np
import pytest

from vision.learned import detector, onnx_net, runtime

pytestmark = pytest.mark.skipif(
    not (detector.ONNX_PATH.exists() and runtime.ONNX_PATH.exists()), reason="models missing"
)


def test_the_classic_engine_is_asked_for_when_opencv_has_one(monkeypatch):
    asked = {}

    def read(path, **kw):
        asked.update(kw, path=path)
        return "net"

    fake = types.SimpleNamespace(ENGINE_CLASSIC=7, readNetFromONNX=read)
    monkeypatch.setattr(onnx_net.cv2, "dnn", fake)
    assert onnx_net.read_onnx(runtime.ONNX_PATH) == "net"
    assert asked == {"engine": 7, "path": str(runtime.ONNX_PATH)}


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
