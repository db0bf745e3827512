"""The face classifier's network, for training (torch, the `train` extra); the product runs its
ONNX export through OpenCV and never imports this module."""

from __future__ import annotations

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
