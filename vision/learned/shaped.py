"""One network kept as a few OpenCV nets, one per input shape it was recently given.

OpenCV's dnn module sets a net up for the shape of its last input: given another shape, it
allocates every layer again before running. A frame gives a network several shapes in turn
(the detector looks at 192 then 384 px; a classifier reads 20 crops, then 1 doubted crop, then
8 of a ring), so the single net of sessions 2-55 was set up again at nearly every pass. On the
speed frames that cost the detector's 384 px look 8.0 ms instead of 5.7, and a classifier's
batch of 20 crops after a batch of 8 10.6 ms instead of 8.9 (one thread, session 56). The
outputs do not depend on it: each net runs the same weights on the same input.

Memory bounds it: a net holds its last shape's layers (the detector at 2.4 Mpx, about 170 MB),
so at most KEEP nets are kept, and at most VALUES input values among them; a shape beyond
either takes over the least recently used net, which is what happened at every pass before
(a new net for it would cost its loading too: the benchmark's four calibrated Strike frames,
each looked at in a shape of its own over 0.5 M values, took 31.6-31.9 ms so, 29 before).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from math import prod

import numpy as np

KEEP = 4  # nets of one network at most...
VALUES = 1_500_000  # ...and input values among them (the detector's 384 px look: 331 776)


class PerShape:
    """Runs `load()`'s network with a net set up for each recent input shape (not thread
    safe, as a cv2.dnn.Net is not: callers hold their module's lock)."""

    def __init__(self, load: Callable, keep: int = KEEP, values: int = VALUES) -> None:
        if keep < 1:
            raise ValueError(f"keep must be 1 or more nets, got {keep}")
        self._load, self._keep, self._values = load, keep, values
        self._nets: OrderedDict[tuple[int, ...], object] = OrderedDict()
        self._idle = [load()]  # loaded now: a missing or broken file says so before a frame

    def run(self, blob: np.ndarray) -> np.ndarray:
        """The network's first output for `blob`, as `net.setInput(blob); net.forward()`."""
        net = self._net_for(tuple(blob.shape))
        net.setInput(blob)
        return net.forward()

    def shapes(self) -> list[tuple[int, ...]]:
        """The shapes a net is set up for, least recently used first."""
        return list(self._nets)

    def _net_for(self, shape: tuple[int, ...]):
        net = self._nets.pop(shape, None)
        if net is None and self._idle:
            net = self._idle.pop()
        elif net is None:
            full = len(self._nets) >= self._keep or self._held() + prod(shape) > self._values
            net = self._nets.popitem(last=False)[1] if full else self._load()
        self._nets[shape] = net
        while len(self._nets) > 1 and self._held() > self._values:
            self._nets.popitem(last=False)  # dropped, and its layers freed
        return net

    def _held(self) -> int:
        return sum(map(prod, self._nets))
