"""Networks stored with float16 weights: half the bytes in the repository, read as float32.

The issue allows 5 MB of models; three classifiers of 1.2-1.8 MB and the detector took 4.6, and
a fourth classifier (w1, Détrak's first network since session 21) did not fit. Each weight
tensor is stored as float16 behind a Cast node that turns it back into float32 (valid ONNX);
the loader folds each such Cast into a float32 weight before OpenCV sees the network (widen.py),
so nothing changes at run time. The logits move by about 1e-2 at most (docs/vision-history.md,
"Session 20"). The classifiers go further, to int8 (narrow.py). Needs the `onnx` package (the
train and dev extras); the product only reads the result.

    .venv/bin/python -m vision.learned.half vision/learned/models/faces.onnx ...
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from .widen import widened

SMALLEST = 16  # tensors of fewer values (shapes, scalars) stay as they are: nothing to gain
SUFFIX = "__half"  # the float16 tensor's name; the Cast's output keeps the original name


def halve(path: Path) -> tuple[int, int]:
    """Rewrite the ONNX file at `path` with its float32 weights as float16; bytes before, after.
    A network already halved comes out the same."""
    return restore(path, halved)


def halved(name: str, values: np.ndarray) -> tuple[list, list]:
    """A weight as float16 and the Cast that widens it back under its name."""
    from onnx import TensorProto, helper, numpy_helper

    half = numpy_helper.from_array(values.astype(np.float16), name + SUFFIX)
    return [half], [helper.make_node("Cast", [half.name], [name], to=TensorProto.FLOAT)]


def restore(path: Path, store) -> tuple[int, int]:
    """Rewrite the ONNX file at `path` with each float32 weight of SMALLEST values or more
    stored as `store(name, values)` says: (tensors, the nodes that widen them back under the
    weight's name). The network is first widened as the product reads it (widen.py), so a
    network stored one way can be stored another. Bytes before, after."""
    import onnx
    from onnx import numpy_helper

    before = path.stat().st_size
    model = onnx.load_from_string(widened(path.read_bytes()))
    graph = model.graph
    kept, nodes = [], []
    for tensor in graph.initializer:
        values = numpy_helper.to_array(tensor)
        if values.dtype != np.float32 or values.size < SMALLEST:
            kept.append(tensor)
            continue
        tensors, widening = store(tensor.name, values)
        kept += tensors
        nodes += widening
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes += list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return before, path.stat().st_size


def main(argv=None, rewrite=halve, what: str = "to halve") -> int:
    """The command line of this module, and of narrow.py with its `rewrite`."""
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    missing = [str(p) for p in paths if not p.is_file()]
    if not paths or missing:
        print(f"expected ONNX files {what}, missing: {', '.join(missing) or 'none given'}")
        return 2
    for p in paths:
        before, after = rewrite(p)
        print(f"{p}: {before} -> {after} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
