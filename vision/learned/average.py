"""A classifier whose weights are the average of two exported ones (a "weight soup").

A network trained further on Blender renders reads the renders better and the synthetic scenes no
better (u2r, session 38), while its parent reads the synthetic scenes well. Averaging the weights
of a network and of its fine-tuned descendant keeps much of what each knows (Wortsman et al.,
"Robust fine-tuning of zero-shot models", 2022: WiSE-FT); it costs no size and no time at run
time, since the result has the parent's layers. Only a descendant can be averaged this way: two
networks trained apart have unrelated weights even with the same layers.

    .venv/bin/python -m vision.learned.average PARENT.onnx CHILD.onnx --alpha 0.5 --out DIR/NAME.onnx
    .venv/bin/python -m vision.learned.train --recalibrate --kinds K --name NAME --out DIR

The averaged network's temperatures are the child's until `--recalibrate` fits them again (the
second command), or the parent's with `--parent-temperatures` (how every average kept since
session 55 reads); its .json is the child's with the average added. Needs the `onnx` package (the
train and dev extras); the product only reads the result.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np


def average(parent: Path, child: Path, out: Path, alpha: float = 0.5) -> int:
    """Write to `out` the parent with every floating weight (1 - alpha) * parent + alpha *
    child, stored as the parent is (float16 or int8: half.py, narrow.py); the number of
    tensors averaged. Both are averaged as the product reads them, widened to float32
    (widen.py). ValueError when the two are not the same network (other layers, names or
    shapes)."""
    import onnx
    from onnx import numpy_helper

    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha: expected a share between 0 and 1, got {alpha}")
    a, b = _widened(parent), _widened(child)
    _same_layers(a, b, parent, child)
    theirs = {t.name: numpy_helper.to_array(t) for t in b.graph.initializer}
    partner = _partners(a, b, parent, child)
    averaged = 0
    for i, tensor in enumerate(a.graph.initializer):
        x, y = numpy_helper.to_array(tensor), theirs[partner[tensor.name]]
        if x.shape != y.shape or x.dtype != y.dtype:
            raise ValueError(
                f"{tensor.name}: {parent.name} has {x.dtype} {x.shape}, {child.name} has"
                f" {y.dtype} {y.shape}: not the same network"
            )
        if x.dtype.kind != "f":
            if not np.array_equal(x, y):
                raise ValueError(f"{tensor.name}: the two networks' constants differ")
            continue
        mean = (1 - alpha) * x.astype(np.float32) + alpha * y.astype(np.float32)
        a.graph.initializer[i].CopyFrom(numpy_helper.from_array(mean.astype(x.dtype), tensor.name))
        averaged += 1
    out.parent.mkdir(parents=True, exist_ok=True)  # (a new soup's folder: DIR/NAME.onnx)
    onnx.save(a, str(out))
    store = _storage(parent)
    if store is not None:
        store(out)
    return averaged


def _widened(path: Path):
    import onnx

    from .widen import widened

    return onnx.load_from_string(widened(path.read_bytes()))


def _storage(path: Path):
    """How the network at `path` is stored (narrow.py, half.py, or None: as float32), so that
    an average takes no more room than its parent."""
    import onnx
    from onnx import TensorProto

    from .half import halve
    from .narrow import narrow

    model = onnx.load(str(path))
    if any(n.op_type == "DequantizeLinear" for n in model.graph.node):
        return narrow
    if any(t.data_type == TensorProto.FLOAT16 for t in model.graph.initializer):
        return halve
    return None


def _same_layers(a, b, parent: Path, child: Path) -> None:
    """The two graphs have the same operators in the same order."""
    ops_a, ops_b = [n.op_type for n in a.graph.node], [n.op_type for n in b.graph.node]
    if ops_a != ops_b:
        at = next(
            (i for i, (x, y) in enumerate(zip(ops_a, ops_b, strict=False)) if x != y),
            min(map(len, (ops_a, ops_b))),
        )
        raise ValueError(
            f"{parent.name} and {child.name} are not the same network: layer {at} is"
            f" {ops_a[at] if at < len(ops_a) else 'missing'} in one,"
            f" {ops_b[at] if at < len(ops_b) else 'missing'} in the other"
        )


def _partners(a, b, parent: Path, child: Path) -> dict[str, str]:
    """Each parent weight's name -> the child's weight in the same place. The same names when
    both were written by one exporter; otherwise the weight that enters the same layer at the
    same input: faces-photoreal (m18, session 16; its average of session 45 keeps m18's names)
    was written by an older exporter that named its folded convolutions' weights
    `onnx::Conv_82`, where today's writes `2.weight`."""
    names_a = [t.name for t in a.graph.initializer]
    names_b = {t.name for t in b.graph.initializer}
    if set(names_a) == names_b:
        return {n: n for n in names_a}
    where_a, where_b = _places(a), _places(b)
    by_place = {place: name for name, place in where_b.items()}
    out = {n: by_place.get(where_a.get(n)) for n in names_a}
    odd = sorted(n for n, m in out.items() if m is None)
    if odd or len(set(out.values())) != len(names_b):
        odd = odd or sorted(names_b - set(out.values()))
        raise ValueError(
            f"{parent.name} and {child.name} name other weights, and no place pairs"
            f" {', '.join(odd[:3])}"
        )
    return out


def _places(model) -> dict[str, tuple[int, int]]:
    """Each weight's place: the layer it enters (its index among the graph's nodes) and at
    which input."""
    weights = {t.name for t in model.graph.initializer}
    out = {}
    for k, node in enumerate(model.graph.node):
        for j, name in enumerate(node.input):
            if name in weights:
                out[name] = (k, j)
    return out


def write_meta(
    parent: Path, child: Path, out: Path, alpha: float, parent_temperatures: bool = False
) -> Path:
    """The child's .json beside `out` (its recipe names the parent it was trained from), with
    the average added: the runtime reads the temperatures there, which stay the child's until
    train.py --recalibrate, or are the parent's with `parent_temperatures`. Every first network
    kept since session 55 reads at its parent's (rules 141-195): the average's own fit on
    the calibration crops asks more of it than the gates did."""
    meta_in = child.with_suffix(".json")
    meta = json.loads(meta_in.read_text()) if meta_in.is_file() else {}
    meta["averaged"] = {"parent": str(parent), "child": str(child), "alpha": alpha}
    if parent_temperatures:  # (main refuses a parent without its .json before anything is written)
        meta["temperatures"] = json.loads(parent.with_suffix(".json").read_text())["temperatures"]
    path = out.with_suffix(".json")
    path.write_text(json.dumps(meta, indent=1) + "\n")
    return path


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("parent", type=Path, help="the network the child was trained from (ONNX)")
    p.add_argument("child", type=Path, help="the network trained further (ONNX)")
    p.add_argument("--alpha", type=float, default=0.5, help="the child's share (default 0.5)")
    p.add_argument("--out", type=Path, required=True, help="the averaged network (ONNX)")
    p.add_argument(
        "--parent-temperatures",
        action="store_true",
        help="keep the parent's temperatures (its .json) instead of the child's",
    )
    a = p.parse_args(argv)
    for path in (a.parent, a.child):
        if not path.is_file():
            p.error(f"expected an exported classifier (ONNX file), {path} is not a file")
    if a.parent_temperatures and not a.parent.with_suffix(".json").is_file():  # (before writing)
        p.error(f"expected the parent's temperatures in {a.parent.with_suffix('.json')}: no file")
    try:
        n = average(a.parent, a.child, a.out, a.alpha)
        meta = write_meta(a.parent, a.child, a.out, a.alpha, a.parent_temperatures)
    except ValueError as e:
        p.error(str(e))
    kept = "the parent's temperatures" if a.parent_temperatures else "temperatures to refit"
    print(f"{a.out}: {n} weight tensors averaged (alpha {a.alpha}); {meta}: {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
