"""The classifier's training loop (train.py): epochs of mirrored batches, each crop's loss over
its own kind's classes, against its label or against soft targets (distill.py); torch is
imported only when a network is trained (the `train` extra)."""

from __future__ import annotations

import time

import numpy as np

from .classes import CLASSES, KINDS, kind_indices


def mirrored(x, gen):
    """The same batch mirrored left to right, or not: every face mirrors into a turned copy of
    itself (a pip 3 or 6, a Détrak slash), and "up", the direction away from the frame's centre
    (crops.py), stays up. No quarter turns: they would move it."""
    import torch

    return torch.flip(x, (3,)) if int(torch.randint(2, (1,), generator=gen)) else x


def crop_loss(logits, labels, soft=None):
    """Cross-entropy with the labels, or with `soft` target probabilities (distill.py). The
    logits are masked to the crop's kind with -inf; a soft target is 0 there, and 0 x -inf
    must count as nothing, not as NaN."""
    import torch
    import torch.nn.functional as F

    if soft is None:
        return F.cross_entropy(logits, labels)
    logp = F.log_softmax(logits, dim=1)
    return -(soft * torch.where(torch.isinf(logp), 0.0, logp)).sum(1).mean()


def train(model, x, y, tags, epochs: int, seed: int, log, max_lr: float = 4e-3, targets=None):
    """`targets`: N x len(CLASSES) probabilities to learn instead of the labels (distill.py)."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    # The loss of each crop is over its own kind's classes: a Strike die never learns "not 1".
    masks = torch.full((len(KINDS), len(CLASSES)), float("-inf"))
    for i, k in enumerate(KINDS):
        masks[i, kind_indices(k)] = 0.0
    kid = torch.tensor([KINDS.index(t["kind"]) for t in tags])
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    soft = None if targets is None else torch.from_numpy(targets)
    batch = 128
    steps = epochs * ((len(y) + batch - 1) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    for epoch in range(epochs):
        model.train()
        t, total, right = time.time(), 0.0, 0
        order = torch.randperm(len(y), generator=gen)
        for s in range(0, len(y), batch):
            idx = order[s : s + batch]
            xb = mirrored(xt[idx], gen)
            logits = model(xb) + masks[kid[idx]]
            loss = crop_loss(logits, yt[idx], None if soft is None else soft[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((logits.argmax(1) == yt[idx]).sum())
        log(
            f"  epoch {epoch + 1}/{epochs}: loss {total / len(y):.4f}, "
            f"train acc {right / len(y):.4f}, {time.time() - t:.0f} s"
        )
    model.eval()
    return model


def logits_of(model, x) -> np.ndarray:
    import torch

    with torch.no_grad():
        return np.concatenate(
            [model(torch.from_numpy(x[s : s + 512])).numpy() for s in range(0, len(x), 512)]
        )
