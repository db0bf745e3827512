"""Every stored network widened to plain float32 before OpenCV reads it (widen.py): the weights
the stored network computes, under the names its layers read; OpenCV 4.6 reads no float16."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.learned import onnx_net, runtime
from vision.learned.widen import widened

onnx = pytest.importorskip("onnx")  # the dev extra has it: the test reads the rewrite back
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

MODELS = Path(runtime.ONNX_PATH).parent
FOLDED = ("Cast", "DequantizeLinear")
STORED = sorted(
    p
    for p in MODELS.glob("*.onnx")
    if any(n.op_type in FOLDED for n in onnx.load(str(p)).graph.node)
)
pytestmark = pytest.mark.skipif(not STORED, reason="no network stored narrower than float32")


def _weights(model) -> dict:
    return {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}


def _computed(model) -> dict:
    """What each folded node computes, by ONNX's meaning of it, from the stored weights."""
    stored, out = _weights(model), {}
    for node in model.graph.node:
        if node.op_type == "Cast":
            out[node.output[0]] = stored[node.input[0]].astype(np.float32)
        elif node.op_type == "DequantizeLinear":
            q, scale = stored[node.input[0]], stored[node.input[1]]
            shape = [-1] + [1] * (q.ndim - 1)  # (our storage's axis: 0, the output channels)
            out[node.output[0]] = q.astype(np.float32) * scale.reshape(shape)
    return out


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.name)
def test_every_stored_weight_becomes_the_float32_one_its_layer_reads(path):
    original = onnx.load(str(path))
    wide = onnx.load_from_string(widened(path.read_bytes()))
    onnx.checker.check_model(wide)
    assert {t.data_type for t in wide.graph.initializer} == {TensorProto.FLOAT}
    kept = [n.op_type for n in original.graph.node if n.op_type not in FOLDED]
    assert [n.op_type for n in wide.graph.node] == kept
    after, expected = _weights(wide), _computed(original)
    assert expected and set(expected) <= set(after)
    for name, values in expected.items():
        np.testing.assert_array_equal(after[name], values)
    read = {x for n in wide.graph.node for x in n.input}
    assert set(after) <= read  # (no stored tensor left behind)


def _graph_with(node, *tensors, opset=21):
    out = helper.make_tensor_value_info(node.output[0], TensorProto.FLOAT, None)
    graph = helper.make_graph([node], "g", [], [out], initializer=list(tensors))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


@pytest.mark.parametrize("axis", [None, 0, -1])
def test_dequantize_means_what_onnx_says_with_zero_points_axes_and_int32_data(axis):
    """Against ONNX's own reference: the default axis (1), a negative one, zero points, and
    steps kept in int32_data (make_tensor's way) rather than raw bytes."""
    rng = np.random.default_rng(1)
    steps = rng.integers(-127, 128, (3, 4, 2)).astype(np.int8)
    along = {None: 1, 0: 0, -1: 2}[axis]
    scale = rng.uniform(0.01, 0.1, steps.shape[along]).astype(np.float32)
    zero = rng.integers(-3, 4, steps.shape[along]).astype(np.int8)
    q = helper.make_tensor("q", TensorProto.INT8, steps.shape, steps.ravel().tolist())
    assert not q.raw_data and len(q.int32_data) == steps.size
    attrs = {} if axis is None else {"axis": axis}
    node = helper.make_node("DequantizeLinear", ["q", "s", "z"], ["w"], **attrs)
    model = _graph_with(
        node, q, numpy_helper.from_array(scale, "s"), numpy_helper.from_array(zero, "z")
    )
    expected = ReferenceEvaluator(model).run(None, {})[0]
    wide = onnx.load_from_string(widened(model.SerializeToString()))
    assert [t.name for t in wide.graph.initializer] == ["w"] and not wide.graph.node
    np.testing.assert_allclose(_weights(wide)["w"], expected, rtol=1e-6)


def test_scales_that_do_not_fit_the_axis_say_what_was_expected():
    steps = numpy_helper.from_array(np.ones((3, 4), np.int8), "q")
    scale = numpy_helper.from_array(np.ones(5, np.float32), "s")
    node = helper.make_node("DequantizeLinear", ["q", "s"], ["w"], axis=0)
    with pytest.raises(ValueError, match=r"expected a scale per slice along axis 0 of \[3, 4\]"):
        widened(_graph_with(node, steps, scale).SerializeToString())


def test_float16_kept_in_int32_data_is_read_too():
    values = np.array([[0.5, -1.25], [3.0, 65504.0]], np.float16)
    tensor = helper.make_tensor("h", TensorProto.FLOAT16, values.shape, values.ravel())
    assert not tensor.raw_data and len(tensor.int32_data) == 4  # (make_tensor's way: bits)
    model = _graph_with(helper.make_node("Cast", ["h"], ["w"], to=TensorProto.FLOAT), tensor)
    wide = onnx.load_from_string(widened(model.SerializeToString()))
    np.testing.assert_array_equal(_weights(wide)["w"], values.astype(np.float32))


def test_nodes_it_does_not_know_are_left_to_opencv():
    """A Cast to another type, or of a type not folded here, stays a node."""
    shape = numpy_helper.from_array(np.array([2, 3], np.int64), "shape")
    for node in (
        helper.make_node("Cast", ["shape"], ["w"], to=TensorProto.FLOAT),
        helper.make_node("Cast", ["shape"], ["w"], to=TensorProto.INT32),
    ):
        data = _graph_with(node, shape).SerializeToString()
        assert widened(data) == data


def test_a_network_stored_as_float32_is_left_as_it_is():
    weights = numpy_helper.from_array(np.ones((3, 4), np.float32), "w")
    data = _graph_with(helper.make_node("Relu", ["w"], ["y"]), weights).SerializeToString()
    assert widened(data) is data


@pytest.mark.parametrize("cut", [3, 1000, 80_001])
def test_garbled_bytes_say_what_was_expected(cut):
    data = STORED[0].read_bytes()
    with pytest.raises(ValueError, match="expected an ONNX protobuf"):
        widened(data[:cut] + b"\xff\xff\xff")


def test_read_onnx_gives_opencv_the_widened_network(monkeypatch):
    """Only float32 weights reach OpenCV, and they give what OpenCV 5 gives reading the stored
    network's Casts and DequantizeLinears itself (OpenCV 4.6 cannot)."""
    path = Path(runtime.ONNX_PATH)  # (a classifier: the crops below are its input)
    if path not in STORED:
        pytest.skip("the classifier is stored as float32")
    x = np.random.default_rng(6).standard_normal((3, 4, 32, 32)).astype(np.float32)
    seen = []
    real = cv2.dnn.readNetFromONNX

    def read(source, **kw):
        seen.append(Path(source).read_bytes())
        return real(source, **kw)

    monkeypatch.setattr(onnx_net.cv2.dnn, "readNetFromONNX", read)
    net = onnx_net.read_onnx(path)
    assert len(seen) == 1 and seen[0] == widened(path.read_bytes())
    types = {t.data_type for t in onnx.load_from_string(seen[0]).graph.initializer}
    assert types == {TensorProto.FLOAT}
    if not hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        pytest.skip("this OpenCV cannot read the stored network itself, or not on one engine")
    expected = real(str(path), engine=cv2.dnn.ENGINE_CLASSIC)
    for n in (net, expected):
        n.setInput(x)
    np.testing.assert_allclose(net.forward(), expected.forward(), atol=1e-5)
