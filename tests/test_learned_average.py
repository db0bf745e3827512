"""Two exported classifiers averaged weight by weight (vision/learned/average.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.learned.average import average, main
from vision.learned.widen import widened

onnx = pytest.importorskip("onnx")  # the dev and train extras have it; the product does not
from onnx import TensorProto, helper, numpy_helper  # noqa: E402


def _network(path, weights: dict, op: str = "Relu") -> None:
    """A dense layer and an activation, weights as given (float16 kept as float16)."""
    inits = [numpy_helper.from_array(v, k) for k, v in weights.items()]
    nodes = [
        helper.make_node("Gemm", ["x", "fc", "fb"], ["g"], transB=1),
        helper.make_node(op, ["g"], ["y"]),
    ]
    _save(path, nodes, inits)


def _save(path, nodes: list, inits: list) -> None:
    """A graph from 4 inputs to 3 outputs, of these nodes and weights."""
    graph = helper.make_graph(
        nodes,
        "small",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 3])],
        inits,
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))


def _weights(rng, dtype=np.float32) -> dict:
    return {
        "fc": rng.normal(0, 1, (3, 4)).astype(dtype),
        "fb": rng.normal(0, 1, 3).astype(dtype),
        "steps": np.array([2, 5], np.int64),
    }


def _read(path) -> dict:
    return {t.name: numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer}


def _read_wide(path) -> dict:
    """The weights as the product reads them (widen.py), under the names the layers read."""
    model = onnx.load_from_string(widened(path.read_bytes()))
    return {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}


@pytest.mark.parametrize("alpha", [0.0, 0.25, 0.5, 1.0])
def test_each_floating_weight_is_the_weighted_mean_and_constants_stay(tmp_path, alpha):
    rng = np.random.default_rng(3)
    wa, wb = _weights(rng), _weights(rng)
    _network(tmp_path / "a.onnx", wa)
    _network(tmp_path / "b.onnx", wb)
    assert average(tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "m.onnx", alpha) == 2
    got = _read(tmp_path / "m.onnx")
    for name in ("fc", "fb"):
        np.testing.assert_allclose(got[name], (1 - alpha) * wa[name] + alpha * wb[name], atol=1e-6)
    np.testing.assert_array_equal(got["steps"], wa["steps"])


def test_float16_weights_are_averaged_in_float32_and_stored_as_float16(tmp_path):
    wa = {"fc": np.full((3, 4), 1.0, np.float16), "fb": np.full(3, 40000.0, np.float16)}
    wb = {"fc": np.full((3, 4), 2.0, np.float16), "fb": np.full(3, 40064.0, np.float16)}
    _network(tmp_path / "a.onnx", wa)
    _network(tmp_path / "b.onnx", wb)
    average(tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "m.onnx")
    got = _read(tmp_path / "m.onnx")
    assert got["fc"].dtype == np.float16
    np.testing.assert_array_equal(got["fc"], 1.5)
    assert got["fb"][0] == 40032.0  # in float16 the sum 80064 would overflow to infinity


def test_networks_that_are_not_parent_and_child_are_refused(tmp_path):
    rng = np.random.default_rng(4)
    _network(tmp_path / "a.onnx", _weights(rng))
    _network(tmp_path / "other_op.onnx", _weights(rng), op="Sigmoid")
    wide = _weights(rng)
    wide["fb"] = rng.normal(0, 1, 4).astype(np.float32)
    _network(tmp_path / "other_shape.onnx", wide)
    const = _weights(rng)
    const["steps"] = np.array([2, 6], np.int64)
    _network(tmp_path / "other_const.onnx", const)
    for other, says in [
        ("other_op", "not the same network"),
        ("other_shape", "not the same"),
        ("other_const", "constants differ"),
    ]:
        with pytest.raises(ValueError, match=says):
            average(tmp_path / "a.onnx", tmp_path / f"{other}.onnx", tmp_path / "m.onnx")
    assert not (tmp_path / "m.onnx").exists()
    with pytest.raises(ValueError, match="between 0 and 1"):
        average(tmp_path / "a.onnx", tmp_path / "a.onnx", tmp_path / "m.onnx", alpha=1.5)


def test_the_command_writes_the_child_s_recipe_with_the_average(tmp_path, capsys):
    rng = np.random.default_rng(5)
    _network(tmp_path / "a.onnx", _weights(rng))
    _network(tmp_path / "b.onnx", _weights(rng))
    (tmp_path / "b.json").write_text(json.dumps({"temperatures": {"detrak": 1.4}, "epochs": 3}))
    out = tmp_path / "soup" / "m.onnx"  # (a folder not made yet: made)
    assert main([str(tmp_path / "a.onnx"), str(tmp_path / "b.onnx"), "--out", str(out)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["epochs"] == 3 and meta["temperatures"] == {"detrak": 1.4}
    assert meta["averaged"]["alpha"] == 0.5 and meta["averaged"]["child"].endswith("b.onnx")
    assert "temperatures to refit" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([str(tmp_path / "missing.onnx"), str(tmp_path / "b.onnx"), "--out", str(out)])


def test_the_parent_s_temperatures_are_kept_when_asked(tmp_path, capsys):
    rng = np.random.default_rng(6)
    _network(tmp_path / "a.onnx", _weights(rng))
    _network(tmp_path / "b.onnx", _weights(rng))
    (tmp_path / "b.json").write_text(json.dumps({"temperatures": {"strike": 1.42}}))
    out, args = tmp_path / "m.onnx", [str(tmp_path / "a.onnx"), str(tmp_path / "b.onnx")]
    with pytest.raises(SystemExit):  # the parent has no .json: said, not the child's kept
        main([*args, "--out", str(out), "--parent-temperatures"])
    assert "a.json" in capsys.readouterr().err and not out.exists()  # (nothing half written)
    (tmp_path / "a.json").write_text(json.dumps({"temperatures": {"strike": 1.7763}}))
    assert main([*args, "--out", str(out), "--parent-temperatures"]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["temperatures"] == {"strike": 1.7763} and meta["averaged"]["alpha"] == 0.5
    assert "the parent's temperatures" in capsys.readouterr().out


def _halved_network(path, names: tuple[str, str], fc: np.ndarray, fb: np.ndarray, extra=None):
    """The dense layer as half.py leaves it (the matrix float16, cast at load), its weights
    under the names given (the layer's; the matrix is stored as NAME__half): two exporters
    name the same layers differently."""
    stored = names[0] + "__half"
    inits = [numpy_helper.from_array(fc, stored), numpy_helper.from_array(fb, names[1])]
    if extra is not None:
        inits.append(numpy_helper.from_array(extra, "unused"))
    nodes = [
        helper.make_node("Cast", [stored], [names[0]], to=TensorProto.FLOAT),
        helper.make_node("Gemm", ["x", names[0], names[1]], ["y"], transB=1),
    ]
    _save(path, nodes, inits)


def test_weights_named_apart_are_paired_by_the_layer_and_input_they_enter(tmp_path):
    rng = np.random.default_rng(6)
    fa, ba = rng.normal(0, 1, (3, 4)).astype(np.float16), rng.normal(0, 1, 3).astype(np.float32)
    fb, bb = rng.normal(0, 1, (3, 4)).astype(np.float16), rng.normal(0, 1, 3).astype(np.float32)
    # the parent as m18's old exporter named it, the child as train.py names it today
    _halved_network(tmp_path / "a.onnx", ("onnx::Gemm_7", "onnx::Gemm_8"), fa, ba)
    _halved_network(tmp_path / "b.onnx", ("0.weight", "0.bias"), fb, bb)
    assert average(tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "m.onnx", 0.25) == 2
    got = _read_wide(tmp_path / "m.onnx")
    assert set(got) == {"onnx::Gemm_7", "onnx::Gemm_8"}  # the parent's names stay
    want = 0.75 * fa.astype(np.float32) + 0.25 * fb.astype(np.float32)
    np.testing.assert_allclose(got["onnx::Gemm_7"], want, atol=1e-6)
    np.testing.assert_allclose(got["onnx::Gemm_8"], 0.75 * ba + 0.25 * bb, atol=1e-6)


def test_a_weight_named_apart_that_no_layer_takes_is_refused(tmp_path):
    rng = np.random.default_rng(7)
    fc, fb = rng.normal(0, 1, (3, 4)).astype(np.float16), rng.normal(0, 1, 3).astype(np.float32)
    _halved_network(tmp_path / "a.onnx", ("w", "b"), fc, fb)
    _halved_network(tmp_path / "b.onnx", ("0.weight", "0.bias"), fc, fb, extra=fb)
    with pytest.raises(ValueError, match="name other weights, and no place pairs unused"):
        average(tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "m.onnx")
    assert not (tmp_path / "m.onnx").exists()


def test_an_int8_parent_gives_an_int8_average_of_what_both_read(tmp_path):
    """A committed classifier is stored as int8 (narrow.py); its child is exported as float16:
    the average is of the weights both networks read, stored as the parent is."""
    from vision.learned.half import halve
    from vision.learned.narrow import narrow

    rng = np.random.default_rng(8)
    wa = {"fc": rng.normal(0, 1, (3, 8)).astype(np.float32), "fb": np.zeros(3, np.float32)}
    wb = {"fc": rng.normal(0, 1, (3, 8)).astype(np.float32), "fb": np.ones(3, np.float32)}
    _network(tmp_path / "a.onnx", wa)
    _network(tmp_path / "b.onnx", wb)
    narrow(tmp_path / "a.onnx")
    halve(tmp_path / "b.onnx")
    parent, child = _read_wide(tmp_path / "a.onnx"), _read_wide(tmp_path / "b.onnx")
    average(tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "m.onnx")
    stored = onnx.load(str(tmp_path / "m.onnx")).graph
    assert [n.op_type for n in stored.node] == ["DequantizeLinear", "Gemm", "Relu"]
    got, mean = _read_wide(tmp_path / "m.onnx"), (parent["fc"] + child["fc"]) / 2
    step = np.abs(mean).max(axis=1, keepdims=True) / 127
    assert np.all(np.abs(got["fc"] - mean) <= step / 2 + 1e-7)  # (within half an int8 step)
    np.testing.assert_allclose(got["fb"], 0.5)
