"""The halved networks widened back to float32 for an OpenCV that cannot read float16 (4.6,
Raspberry Pi OS Bookworm's): the same weights, the same outputs, read_onnx's fallback."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.learned import onnx_net, runtime
from vision.learned.unhalve import unhalved

onnx = pytest.importorskip("onnx")  # the dev extra has it: the test reads the rewrite back
from onnx import TensorProto, numpy_helper  # noqa: E402

MODELS = Path(runtime.ONNX_PATH).parent
HALVED = sorted(
    p
    for p in MODELS.glob("*.onnx")
    if any(t.data_type == TensorProto.FLOAT16 for t in onnx.load(str(p)).graph.initializer)
)
pytestmark = pytest.mark.skipif(not HALVED, reason="no halved network in the repository")


def _weights(model) -> dict:
    return {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}


@pytest.mark.parametrize("path", HALVED, ids=lambda p: p.name)
def test_every_float16_weight_becomes_the_same_float32_one(path):
    original = onnx.load(str(path))
    wide = onnx.load_from_string(unhalved(path.read_bytes()))
    onnx.checker.check_model(wide)
    assert all(t.data_type != TensorProto.FLOAT16 for t in wide.graph.initializer)
    before, after = _weights(original), _weights(wide)
    assert before.keys() == after.keys()
    for name, values in before.items():
        assert after[name].shape == values.shape
        np.testing.assert_array_equal(after[name], values.astype(after[name].dtype))
    assert [n.op_type for n in wide.graph.node] == [n.op_type for n in original.graph.node]


def test_the_widened_network_gives_the_same_outputs():
    path = HALVED[0]
    x = np.random.default_rng(5).standard_normal((5, 4, 32, 32)).astype(np.float32)
    outs = []
    for source in (str(path), np.frombuffer(unhalved(path.read_bytes()), np.uint8)):
        net = cv2.dnn.readNetFromONNX(source)
        net.setInput(x)
        outs.append(np.asarray(net.forward()))
    np.testing.assert_allclose(outs[0], outs[1], atol=1e-5)


def test_a_network_without_float16_is_left_as_it_is():
    path = MODELS / "dice.onnx"
    data = path.read_bytes()
    assert unhalved(data) == data


def test_float16_kept_in_int32_data_is_read_too():
    values = np.array([[0.5, -1.25], [3.0, 65504.0]], np.float16)
    tensor = onnx.helper.make_tensor("w", TensorProto.FLOAT16, values.shape, values.ravel())
    assert not tensor.raw_data and len(tensor.int32_data) == 4  # (make_tensor's way: bits)
    graph = onnx.helper.make_graph([], "g", [], [], initializer=[tensor])
    model = onnx.helper.make_model(graph)
    wide = onnx.load_from_string(unhalved(model.SerializeToString()))
    np.testing.assert_array_equal(numpy_helper.to_array(wide.graph.initializer[0]), values)


@pytest.mark.parametrize("cut", [3, 1000, 80_001])
def test_garbled_bytes_say_what_was_expected(cut):
    data = HALVED[0].read_bytes()
    with pytest.raises(ValueError, match="expected an ONNX protobuf"):
        unhalved(data[:cut] + b"\xff\xff\xff")


def _opencv_without_float16(monkeypatch):
    """OpenCV 4.6's refusal, as it words it, for a file with float16 weights."""
    real = cv2.dnn.readNetFromONNX
    seen = []

    def read(source, **kw):
        seen.append(source)
        if isinstance(source, str) and Path(source) in HALVED:
            raise cv2.error("Unsupported data type: FLOAT16 in function 'getMatFromTensor'")
        return real(source, **kw)

    monkeypatch.setattr(onnx_net.cv2.dnn, "readNetFromONNX", read)
    return seen


def test_read_onnx_widens_the_weights_when_opencv_refuses_float16(monkeypatch):
    path = HALVED[0]
    x = np.random.default_rng(6).standard_normal((3, 4, 32, 32)).astype(np.float32)
    expected = cv2.dnn.readNetFromONNX(str(path))
    expected.setInput(x)
    seen = _opencv_without_float16(monkeypatch)
    net = onnx_net.read_onnx(path)
    assert len(seen) == 2 and isinstance(seen[1], np.ndarray)
    net.setInput(x)
    np.testing.assert_allclose(net.forward(), expected.forward(), atol=1e-5)


def test_read_onnx_reports_opencv_own_error_when_widening_does_not_help(monkeypatch):
    def refuse(source, **kw):
        raise cv2.error(f"cannot read {type(source).__name__}")

    monkeypatch.setattr(onnx_net.cv2.dnn, "readNetFromONNX", refuse)
    with pytest.raises(cv2.error, match="cannot read str"):
        onnx_net.read_onnx(HALVED[0])  # (the first refusal, not the retry's)
    with pytest.raises(cv2.error, match="cannot read str"):
        onnx_net.read_onnx(MODELS / "dice.onnx")  # (nothing to widen: no retry)
