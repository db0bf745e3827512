"""The face classifier's network, for training (torch, the `train` extra); the product runs its
ONNX export through OpenCV and never imports this module."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .classes import CLASSES
from .crops import CHANNELS


def build_model(full_res_layers: int = 2, width: float = 1.0):
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    # Two full-resolution layers (pip and stroke edges, then edges combined before the first
    # pooling: a cocked die's narrow side strip, a small symbol's strokes a pixel or two wide),
    # then width where the die's parts are put together (16 x 16 and below): 296 k parameters,
    # 13.4 M multiply-adds a crop. m10 (sessions 6-10) had one: 294 k, 11 M.
    # `width` scales every layer's channels: a network that reads only the crops the others
    # doubt (doubt.py) reads a few crops a frame, and can afford more (h1, session 18: 1.25,
    # 463 k parameters, 1.56 times the work).
    c1, c2, c3, c4 = (round(c * width) for c in (16, 32, 64, 128))
    first = block(CHANNELS, c1)
    for _ in range(full_res_layers - 1):
        first += block(c1, c1)
    return nn.Sequential(
        *first,
        nn.MaxPool2d(2),
        *block(c1, c2),
        *block(c2, c2),
        nn.MaxPool2d(2),
        *block(c2, c3),
        *block(c3, c3),
        nn.MaxPool2d(2),
        *block(c3, c4),
        *block(c4, c4),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.1),
        nn.Linear(c4, len(CLASSES)),
    )


def exported_graph(path):
    """An exported network's graph as the product reads it: every stored weight widened to a
    float32 one under the name its layer reads (widen.py), whichever way it is stored."""
    import onnx

    from .widen import widened

    return onnx.load_from_string(widened(Path(path).read_bytes())).graph


def exported_weights(graph):
    """name -> float32 torch tensor of an exported graph's weights (exported_graph)."""
    import torch
    from onnx import numpy_helper

    stored = {t.name: numpy_helper.to_array(t).astype(np.float32) for t in graph.initializer}

    def weight(name):
        return torch.from_numpy(stored[name].copy())

    return weight


def from_onnx(path) -> object:
    """The torch network of an exported classifier, its weights as exported, to train further.

    The export folds each batch norm into its convolution, so the network comes back with
    biased convolutions and no batch norm: a fine-tune starts from exactly what the product
    reads (the weights may be stored as float16 or int8: half.py, narrow.py) and exports the
    same layers again.
    """
    import torch.nn as nn

    simple = {
        "Relu": nn.ReLU,
        "MaxPool": lambda: nn.MaxPool2d(2),
        "GlobalAveragePool": lambda: nn.AdaptiveAvgPool2d(1),
        "Flatten": nn.Flatten,
    }
    graph = exported_graph(path)
    weight = exported_weights(graph)
    layers = []
    for node in graph.node:
        if node.op_type == "Conv":
            w, b = weight(node.input[1]), weight(node.input[2])
            conv = nn.Conv2d(w.shape[1], w.shape[0], w.shape[2], padding=w.shape[2] // 2)
            conv.weight.data, conv.bias.data = w, b
            layers.append(conv)
        elif node.op_type == "Gemm":
            w, b = weight(node.input[1]), weight(node.input[2])
            linear = nn.Linear(w.shape[1], w.shape[0])
            linear.weight.data, linear.bias.data = w, b
            layers += [nn.Dropout(0.1), linear]
        elif node.op_type in simple:
            layers.append(simple[node.op_type]())
        else:
            raise ValueError(f"{path}: expected build_model's layers, found {node.op_type}")
    return nn.Sequential(*layers)
