"""A trained classifier made narrower (train.py --init NET --slim KEEP): each convolution keeps
the share KEEP of its channels that count most, and the fine-tune that follows mends the rest.

Why not train a narrower network from scratch: the first networks were grown over sessions of
fine-tunes on Blender renders and weight averages (classifiers.json's "why"); a network made
anew from generated crops loses what they learned (session 32's narrow screen read more faces
wrong). A channel's worth is how much it gives the next layer: its mean activation on training
crops times the size of the weights that read it (the next convolution's, or the last layer's).
The product's speed is the forward pass, which is linear in the channels squared: keeping three
quarters costs about 0.56 of the multiply-adds (network.py: 13.4 M a crop at full width).
"""

from __future__ import annotations

import copy

import numpy as np

SAMPLE = 2048  # training crops the activations are measured on


def kept_channels(worth: np.ndarray, keep: float) -> np.ndarray:
    """The indices, in order, of the `keep` share of channels worth the most (one at least)."""
    if not 0.0 < keep <= 1.0:
        raise ValueError(f"expected a share of channels to keep in (0, 1], got {keep!r}")
    n = max(1, int(round(len(worth) * keep)))
    return np.sort(np.argsort(-np.asarray(worth, float), kind="stable")[:n])


def slimmed(model, keep: float, sample: np.ndarray, whole: int = 0):
    """A copy of `model` (network.from_onnx's layers: convolutions with biases, ReLUs,
    poolings, one Linear) with `keep` of each convolution's channels, chosen on `sample`
    (N x CHANNELS x INPUT x INPUT training crops); the first `whole` convolutions keep all of
    theirs (the full-resolution layers see a cocked die's narrow side strip: network.py)."""
    import torch
    import torch.nn as nn

    layers = list(model)
    convs = [i for i, m in enumerate(layers) if isinstance(m, nn.Conv2d)]
    last = next(i for i, m in enumerate(layers) if isinstance(m, nn.Linear))
    means = _mean_activations(model, convs, torch.from_numpy(np.asarray(sample, np.float32)))
    out = [copy.deepcopy(m) for m in layers]
    before = None  # the channels kept by the convolution before
    for n, i in enumerate(convs):
        reader = layers[convs[n + 1]] if n + 1 < len(convs) else layers[last]
        weight = reader.weight.detach().abs()
        reads = weight.sum(dim=tuple(d for d in range(weight.dim()) if d != 1)).numpy()
        kept = kept_channels(means[n] * reads, 1.0 if n < whole else keep)
        out[i] = conv_part(layers[i], kept, before)
        before = kept
    linear = layers[last]
    out[last] = nn.Linear(len(before), linear.out_features)
    out[last].weight.data = linear.weight.data[:, before].clone()
    out[last].bias.data = linear.bias.data.clone()
    return nn.Sequential(*out)


def _mean_activations(model, convs: list[int], x) -> list[np.ndarray]:
    """Each convolution's mean output per channel after its ReLU (what the next layer reads)."""
    import torch

    means, h = [], x
    with torch.no_grad():
        model.eval()
        for i, layer in enumerate(model):
            h = layer(h)
            if i - 1 in convs:  # (the ReLU after a convolution)
                means.append(h.mean(dim=(0, 2, 3)).numpy())
    return means


def conv_part(conv, outputs: np.ndarray, inputs: np.ndarray | None = None):
    """`conv` reduced to the given output channels and input channels (all of them if None),
    its stride, padding and dilation kept (the classifier's and the detector's slimming)."""
    import torch.nn as nn

    w = conv.weight.data[outputs]
    if inputs is not None:
        w = w[:, inputs]
    part = nn.Conv2d(
        w.shape[1],
        w.shape[0],
        conv.kernel_size,
        conv.stride,
        conv.padding,
        conv.dilation,
        bias=conv.bias is not None,
    )
    part.weight.data = w.clone()
    if conv.bias is not None:
        part.bias.data = conv.bias.data[outputs].clone()
    return part
