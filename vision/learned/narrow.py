"""The classifiers stored with int8 weights: a quarter of float32's bytes, read as float32.

Each convolution's and the last layer's weights are kept as int8 with one scale per output
channel (symmetric: the largest weight of a channel is 127 steps), widened back by a
DequantizeLinear node; biases and other small tensors stay float16 (half.py). The loader folds
both into float32 weights before OpenCV sees the network (widen.py): nothing runs at frame time.
The five classifiers took 3.31 MB as float16 and 1.7 as int8, room for another network under
the issue's 5 MB; rounded this way they read fresh benchmark scenes as the float16 ones did
(docs/vision-history.md, "Session 77"). Needs the `onnx` package (the train and dev extras).

    .venv/bin/python -m vision.learned.narrow vision/learned/models/faces.onnx ...
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import half

LEVELS = 127  # steps each side of zero: int8 without -128, so that zero is exact and symmetric
SUFFIX, SCALE = "__q8", "__scale"  # the int8 tensor's and its scales' names


def narrow(path: Path) -> tuple[int, int]:
    """Rewrite the ONNX file at `path` with its weight matrices as int8 and its other float
    weights as float16; bytes before, after."""
    return half.restore(path, narrowed)


def narrowed(name: str, values: np.ndarray) -> tuple[list, list]:
    """A weight of two or more dims as int8 steps of a scale per output channel (its first
    dim), and the DequantizeLinear that widens it back under its name; a bias as float16."""
    from onnx import helper, numpy_helper

    if values.ndim < 2:
        return half.halved(name, values)
    steps, scale = quantized(values)
    tensors = [
        numpy_helper.from_array(steps, name + SUFFIX),
        numpy_helper.from_array(scale, name + SCALE),
    ]
    node = helper.make_node("DequantizeLinear", [t.name for t in tensors], [name], axis=0)
    return tensors, [node]


def quantized(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 steps and a float32 scale per output channel with steps * scale nearest `values`."""
    flat = values.reshape(len(values), -1).astype(np.float32)
    scale = np.abs(flat).max(axis=1) / LEVELS
    scale[scale == 0] = 1.0  # (a channel of zeros: any scale keeps it zero)
    steps = np.clip(np.rint(flat / scale[:, None]), -LEVELS, LEVELS).astype(np.int8)
    return steps.reshape(values.shape), scale.astype(np.float32)


def main(argv=None) -> int:
    return half.main(argv, narrow, "to store as int8")


if __name__ == "__main__":
    raise SystemExit(main())
