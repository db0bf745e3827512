"""The crops the committed networks doubt: what a second-opinion network learns from.

A route's later networks read only the crops its first network gives less than
runtime.SURE_ALONE (vision/learned/runtime.py): about one crop in eight (12-15 % of session 18's
calibration crops), the ones it is least sure of. A network that reads only those can spend all
its weights on them, and may be wider than one that must read every crop of a frame in time.
It learns from the training crops the committed networks give less than `below` (a looser line
than SURE_ALONE: a network is surer of the crops it was taught than of new ones).
"""

from __future__ import annotations

import numpy as np

from . import runtime
from .data import CropSet

CHUNK = 2000  # crops a forward pass (a blob of 33 MB)
# A stem standing for each crop's kind's first network (models/classifiers.json): a second
# opinion serving several kinds doubts what each kind's own first network doubts (session 59:
# pips' and Strike's first networks are different networks since session 46).
FIRST = "first"


def problem(stems, below: float, width: float = 1.0) -> str | None:
    """What is wrong with these training options, said before any crop is made: a line that
    keeps every crop or none, a network that is not there to doubt, a network with no
    channels. None when nothing is."""
    if not 0.0 < below <= 1.0:
        return f"--doubt-below: expected a probability in (0, 1], got {below}"
    missing = [s for s in stems if s != FIRST and not (runtime.MODELS / f"{s}.onnx").exists()]
    if missing:
        return f"--doubted-by: expected networks in {runtime.MODELS}, {', '.join(missing)} missing"
    if width <= 0:
        return f"--width: expected a positive factor, got {width}"
    return None


def doubted(data: CropSet, stems, below: float) -> np.ndarray:
    """A mask over `data`: the crops that at least one of the networks `stems` (files in the
    runtime's models directory, run by cv2.dnn as the reader runs them; FIRST: the crop's
    kind's first network) gives a top probability under `below`, each network at its own
    temperature for the crop's kind."""
    kinds = np.array([t["kind"] for t in data.tags])
    out = np.zeros(len(data), bool)
    for start in range(0, len(data), CHUNK):
        crops = data.images[start : start + CHUNK]
        for kind in set(kinds[start : start + CHUNK]):
            rows = np.flatnonzero(kinds[start : start + CHUNK] == kind)
            few = [crops[i] for i in rows]
            for stem in stems:
                stem = runtime.models_for(kind)[0] if stem == FIRST else stem
                p = runtime.calibrated(few, kind, stem)
                out[start + rows] |= p.max(axis=1) < below
    return out


def only_doubted(data: CropSet, stems, below: float, log) -> CropSet:
    """The crops of `data` one of the networks `stems` doubts; all of them with no stems."""
    if not stems:
        return data
    mask = doubted(data, stems, below)
    log(f"  {int(mask.sum())} of {len(data)} crops doubted by {', '.join(stems)}")
    return data.where(mask)
