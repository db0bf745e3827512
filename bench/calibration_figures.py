"""How networks read train.py's calibration crops at one temperature: the figures a kept network's
json holds beside its parent's (a tool for stating what a network does, not a test: run it, read
it).

    .venv/bin/python bench/calibration_figures.py --kind strike --seed 6468 --temperature 1.7763 \\
        PARENT.onnx CANDIDATE.onnx [CHILD.onnx] [--wide-jitter 0.5 --cocked-upper 0.5]

--seed is the child's training seed: the crops are the ones train.py fitted its temperature on
(made at seed + 500 by `train.calibration_crops`), all of them, not only those a --doubted-by
child was shown, and options after the networks are train.py's own (a recipe's --wide-jitter and
--cocked-upper change the crops). Every network is read at the same temperature, the one the
candidate keeps (its parent's, sessions 54-65): the figures then say what the weights changed,
not what a refitted temperature moves. Until session 66 each session wrote this as a throwaway
script, lost with its machine; the figures of the networks' jsons since are this tool's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.learned.classes import CLASSES, KINDS, kind_indices  # noqa: E402
from vision.learned.crops import to_input  # noqa: E402
from vision.learned.temperature import figures_at, fit_temperature  # noqa: E402
from vision.learned.train import calibration_crops, onnx_logits  # noqa: E402
from vision.learned.train_options import options  # noqa: E402


def figures(logits: np.ndarray, labels: np.ndarray, kind: str, temperature: float) -> dict:
    """temperature.figures_at (what train.py records), with the temperature of least log-loss on
    these crops (`own_fit`) that a kept average's json names though it keeps its parent's."""
    idx = kind_indices(kind)
    foreign = sorted({CLASSES[v] for v in labels if v not in idx}, key=str)
    if foreign:
        raise ValueError(f"{kind}: crops labelled {foreign}, expected only {kind}'s classes")
    if temperature <= 0:
        raise ValueError(f"expected a temperature above 0, got {temperature}")
    own_fit = fit_temperature(logits, labels, kind)[1]["nll_temperature"]
    return {"own_fit": own_fit, "crops": int(len(labels))} | figures_at(
        logits, labels, kind, temperature
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("networks", type=Path, nargs="+", help="ONNX networks, each read alike")
    p.add_argument("--kind", required=True, choices=KINDS)
    p.add_argument("--seed", type=int, required=True, help="the child's training seed")
    p.add_argument("--temperature", type=float, required=True)
    p.add_argument("--json", type=Path, help="write the figures here too")
    a, recipe = p.parse_known_args(argv)
    missing = [str(n) for n in a.networks if not n.is_file()]
    if missing:
        p.error(f"expected ONNX network files, not found: {', '.join(missing)}")

    opts, hard = options(["--kinds", a.kind, "--seed", str(a.seed), *recipe], __doc__)
    crops = calibration_crops(opts, hard, print)
    images, labels = crops.arrays()
    blob = to_input(list(images))
    out = {}
    for net in a.networks:
        out[str(net)] = figures(onnx_logits(net)(blob), labels, a.kind, a.temperature)
        print(net, json.dumps(out[str(net)]), flush=True)
    if a.json:
        a.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
