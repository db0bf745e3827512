"""Networks stored with float16 weights: half the bytes in the repository, read as float32.

The issue allows 5 MB of models; three classifiers of 1.2-1.8 MB and the detector took 4.6, and
a fourth classifier (w1, Détrak's first network since session 21) did not fit. Each weight
tensor is stored as float16 and a Cast node turns it back into float32 when OpenCV loads the
network (valid ONNX, which OpenCV 4.9 and 5 both read; nothing changes at run time). The
logits move by about 1e-2 at most (docs/vision-history.md, "Session 20"). Needs the `onnx` package (the
train and dev extras); the product only reads the result.

    .venv/bin/python -m vision.learned.half vision/learned/models/faces.onnx ...
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

SMALLEST = 16  # tensors of fewer values (shapes, scalars) stay as they are: nothing to gain
SUFFIX = "__half"  # the float16 tensor's name; the Cast's output keeps the original name


def halve(path: Path) -> tuple[int, int]:
    """Rewrite the ONNX file at `path` with its float32 weights as float16; bytes before, after.
    A network already halved is left as it is."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    before = path.stat().st_size
    model = onnx.load(str(path))
    graph = model.graph
    kept, casts = [], []
    for tensor in graph.initializer:
        values = numpy_helper.to_array(tensor)
        if values.dtype != np.float32 or values.size < SMALLEST:
            kept.append(tensor)
            continue
        half = numpy_helper.from_array(values.astype(np.float16), tensor.name + SUFFIX)
        kept.append(half)
        casts.append(helper.make_node("Cast", [half.name], [tensor.name], to=TensorProto.FLOAT))
    if not casts:
        return before, before
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return before, path.stat().st_size


def main(argv=None) -> int:
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    missing = [str(p) for p in paths if not p.is_file()]
    if not paths or missing:
        print(f"expected ONNX files to halve, missing: {', '.join(missing) or 'none given'}")
        return 2
    for p in paths:
        before, after = halve(p)
        print(f"{p}: {before} -> {after} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
