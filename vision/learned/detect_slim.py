"""The detector made narrower (detect_train.py --init NET --slim KEEP): each convolution keeps
the share KEEP of its output channels that count most, and the fine-tune that follows mends the
rest.

Why not a narrow detector trained anew: two were (sessions 68's rules 204-205, det17 teaching
their maps) and both missed dice det17 finds, even on three times the patches. det17's own
channels already hold what its renders and fine-tunes taught; slimming keeps the part of them
that the next layers read most, as slim.py does for the classifier. A channel's worth is its
mean output after the ReLU on training patches times the size of the weights that read it,
summed over every reader: the stride-4 and stride-8 maps are read twice, by the next
downsampling and through the skip concatenation of the upsampling path.
"""

from __future__ import annotations

import copy

import numpy as np

from .slim import conv_part, kept_channels

SAMPLE = 512  # training patches the activations are measured on


def _convs(model) -> dict:
    """The detector's convolution blocks by name (each: conv, batch norm or Identity, ReLU)."""
    return {
        "a": model.to4[0],
        "b1": model.to4[1],
        "x4": model.to4[2],
        "c1": model.to8[0],
        "x8": model.to8[1],
        "d1": model.to16[0],
        "x16": model.to16[1],
        "y8": model.up8,
        "y4": model.up4,
    }


def _readers(model) -> dict:
    """Who reads each block's output: (reading layer's name, first input channel it is read at).
    up8 reads cat[upsampled x16, x8] and up4 reads cat[upsampled y8, x4]."""
    d = model.to16[1][0].out_channels
    c = model.up8[0].out_channels
    return {
        "a": [("b1", 0)],
        "b1": [("x4", 0)],
        "x4": [("c1", 0), ("y4", c)],
        "c1": [("x8", 0)],
        "x8": [("d1", 0), ("y8", d)],
        "d1": [("x16", 0)],
        "x16": [("y8", 0)],
        "y8": [("y4", 0)],
        "y4": [("head", 0)],
    }


def slimmed_detector(model, keep: float, sample: np.ndarray):
    """A copy of `model` (detect_train.from_onnx's detector: biased convolutions, no batch
    norm) with `keep` of each convolution's output channels, chosen on `sample` (N x 3 x H x W
    patches, already normalised as the detector reads them)."""
    import torch

    blocks = _convs(model)
    if any(isinstance(b[1], torch.nn.BatchNorm2d) for b in blocks.values()):
        raise ValueError(
            "expected an exported detector read back (detect_train.from_onnx: batch norms"
            " folded into the convolutions), got one with batch norm layers"
        )
    means = _mean_outputs(model, blocks, torch.from_numpy(np.asarray(sample, np.float32)))
    layers = {name: block[0] for name, block in blocks.items()} | {"head": model.head}
    readers = _readers(model)
    kept = {}
    for name, block in blocks.items():
        n = block[0].out_channels
        reads = np.zeros(n)
        for reader, at in readers[name]:
            w = layers[reader].weight.detach().abs()[:, at : at + n]
            reads += w.sum(dim=(0, 2, 3)).numpy()
        kept[name] = kept_channels(means[name] * reads, keep)
    out = copy.deepcopy(model)
    for name, block in _convs(out).items():
        block[0] = conv_part(layers[name], kept[name], _input_channels(name, kept, readers))
    heads = np.arange(model.head.out_channels)
    out.head = conv_part(model.head, heads, _input_channels("head", kept, readers))
    return out


def _input_channels(name: str, kept: dict, readers: dict) -> np.ndarray | None:
    """The input channels layer `name` keeps: the kept outputs of whatever it reads, each at
    the place it is read (None, all of them, for the first layer's colours)."""
    parts = [kept[src] + at for src, rs in readers.items() for r, at in rs if r == name]
    return np.sort(np.concatenate(parts)) if parts else None


def _mean_outputs(model, blocks: dict, x) -> dict:
    """Each block's mean output per channel (after its ReLU: what its readers see)."""
    import torch

    means, hooks = {}, []
    for name, block in blocks.items():

        def keep_mean(_m, _i, y, name=name):
            means[name] = y.mean(dim=(0, 2, 3)).numpy()

        hooks.append(block.register_forward_hook(keep_mean))
    try:
        with torch.no_grad():
            model.eval()(x)
    finally:
        for h in hooks:
            h.remove()
    return means
