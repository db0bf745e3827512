"""The face classifier's network, for training (torch, the `train` extra); the product runs its
ONNX export through OpenCV and never imports this module."""

from __future__ import annotations

from .classes import CLASSES
from .crops import CHANNELS


def build_model(full_res_layers: int = 2):
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    # Two full-resolution layers (pip and stroke edges, then edges combined before the first
    # pooling: a cocked die's narrow side strip, a small symbol's strokes a pixel or two wide),
    # then width where the die's parts are put together (16 x 16 and below): 296 k parameters,
    # 13.4 M multiply-adds a crop. m10 (sessions 6-10) had one: 294 k, 11 M.
    first = block(CHANNELS, 16)
    for _ in range(full_res_layers - 1):
        first += block(16, 16)
    return nn.Sequential(
        *first,
        nn.MaxPool2d(2),
        *block(16, 32),
        *block(32, 32),
        nn.MaxPool2d(2),
        *block(32, 64),
        *block(64, 64),
        nn.MaxPool2d(2),
        *block(64, 128),
        *block(128, 128),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.1),
        nn.Linear(128, len(CLASSES)),
    )
