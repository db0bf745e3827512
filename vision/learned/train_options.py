"""What a classifier's training recipe can say (train.py): its options, each checked before a
single crop is made, so that a wrong option costs a second and not an hour of rendering."""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.photoreal.truth import add_scenes_option

from .classes import KINDS
from .doubt import problem

MODELS = Path(__file__).parent / "models"
NAME = "faces"  # the files written: <name>.onnx and <name>.json


def _stems(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in text.split(",") if s.strip())


def _share(text: str) -> float:
    try:
        share = float(text)
    except ValueError:
        share = -1.0
    if not 0.0 <= share <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a share between 0 and 1, got {text!r}")
    return share


def _times(text: str) -> int:
    """A multiplier of crops: 0 would drop the very dice it is meant to add, silently."""
    try:
        times = int(text)
    except ValueError:
        times = 0
    if times < 1:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of times, 1 or more, got {text!r}"
        )
    return times


def _kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        raise argparse.ArgumentTypeError(f"expected kinds among {', '.join(KINDS)}, got {text!r}")
    return kinds


def options(argv, description: str) -> tuple[argparse.Namespace, bool]:
    """The parsed options and whether hard negatives are made (the detector's finds); argparse's
    error (exit 2) for any option it cannot keep."""
    p = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawTextHelpFormatter
    )
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--scenes", type=int, default=500, help="synthetic scenes per kind")
    p.add_argument("--sim-tables", type=int, default=10, help="simulated tables per kind")
    p.add_argument("--per-die", type=int, default=2, help="jittered crops per die")
    p.add_argument("--cocked-crops", type=int, default=4, help="crops per cocked die")
    p.add_argument(
        "--wide-jitter",
        type=_share,
        default=0.0,
        help="share of the jittered crops cut off by data.WIDE_SHIFT (as the detector's finds on"
        " dice that touch), not data.JITTER_SHIFT; 0: the recipes before it",
    )
    p.add_argument(
        "--cocked-upper",
        type=_share,
        default=0.0,
        help="share of the synthetic cocked crops centred on the die's upmost face, where the"
        " detector finds a die tipped 25-35 degrees, not on its cube; 0: the recipes before it",
    )
    p.add_argument(
        "--turn-below",
        type=_share,
        default=0.0,
        help="share of the synthetic oblique photos whose crops are turned about the point below"
        " the camera, as the reader turns them (data.turn_point); 0: the recipes before it",
    )
    p.add_argument(
        "--cocked-ends",
        type=_times,
        default=1,
        help="times as many crops of a synthetic cocked die tipped near 25 or 65 degrees"
        " (data.ENDS), the ones the reader misses most; 1: the recipes before it",
    )
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument(
        "--data-sets",
        type=int,
        default=1,
        help="training sets of that size, each from its own seed (seed, seed + 1000, ...)",
    )
    p.add_argument(
        "--focus-scenes", type=int, default=200, help="scenes per kind of each hard case (FOCUS)"
    )
    p.add_argument("--cache", type=Path, default=None, help="keep/reuse the training crops here")
    add_scenes_option(p)
    p.add_argument(
        "--photoreal-weight",
        type=int,
        default=4,
        help="jittered crops of a rendered die for each of a synthetic one (they are few)",
    )
    p.add_argument(
        "--photoreal-turn",
        type=float,
        default=0.0,
        help="share of the rendered scenes whose crops are turned about the camera's point below"
        " (photoreal_crops.rendered_below); 0: the recipes before it",
    )
    p.add_argument("--calib-scenes", type=int, default=60, help="calibration scenes per kind")
    p.add_argument(
        "--no-hard",
        action="store_true",
        help="leave out the crops where the detector (models/dice.onnx) finds dice",
    )
    p.add_argument(
        "--full-res-layers",
        type=int,
        default=2,
        help="3x3 layers before the first pooling (2: m14, committed; 1: m10, sessions 6-10)",
    )
    p.add_argument("--width", type=float, default=1.0, help="channels, times m14's (network.py)")
    p.add_argument(
        "--init",
        type=Path,
        default=None,
        help="an exported classifier (ONNX) to train further instead of a new network (its own"
        " layers: --full-res-layers and --width are not used); give it a lower --max-lr",
    )
    p.add_argument(
        "--slim",
        type=float,
        default=None,
        help="with --init: keep this share of each convolution's channels, the ones worth the most"
        " to the next layer on the training crops, then train (slim.py: a faster network)",
    )
    p.add_argument(
        "--slim-whole",
        type=int,
        default=0,
        help="with --slim: the first convolutions that keep all their channels (2: the"
        " full-resolution ones)",
    )
    p.add_argument("--max-lr", type=float, default=4e-3, help="the one-cycle schedule's peak")
    p.add_argument(
        "--doubted-by",
        type=_stems,
        default=(),
        help="comma-separated stems of networks in models/ ('first': each crop's kind's first"
        " network): learn only the crops one of them gives under --doubt-below (a route's"
        " second opinion: doubt.py)",
    )
    p.add_argument("--doubt-below", type=float, default=0.995)
    p.add_argument(
        "--teacher-share",
        type=_share,
        default=0.0,
        help="share of each crop's target given by the committed route's probabilities for its"
        " kind (models/classifiers.json; distill.py), the rest its label: a screen; 0: labels",
    )
    p.add_argument("--out", type=Path, default=MODELS)
    p.add_argument(
        "--name",
        default=NAME,
        help="file stem (models/classifiers.json routes pips to faces-photoreal first, Strike to"
        " faces-strike)",
    )
    p.add_argument(
        "--recalibrate",
        action="store_true",
        help="only fit the temperatures again, for the network already in --out (no torch)",
    )
    p.add_argument(
        "--kinds",
        type=_kinds,
        default=KINDS,
        help="comma-separated dice kinds the network learns (default all; one kind: a network"
        " for models/classifiers.json to route that kind to)",
    )
    a = p.parse_args(argv)
    if wrong := problem(a.doubted_by, a.doubt_below, a.width):
        p.error(wrong)
    if a.init is not None and not a.init.is_file():
        p.error(f"--init: expected an exported classifier (ONNX file), {a.init} is not a file")
    if a.slim is not None and (a.init is None or not 0.0 < a.slim <= 1.0):
        alone = "" if a.init else " without --init (the trained network to narrow)"
        p.error(
            f"--slim: expected a share in (0, 1] of an --init network's channels, got {a.slim}"
            + alone
        )
    if a.slim_whole < 0 or (a.slim_whole and a.slim is None):
        p.error(
            f"--slim-whole: expected a number of convolutions, 0 or more, with --slim; got"
            f" {a.slim_whole}" + ("" if a.slim is not None else " without --slim")
        )
    hard = not a.no_hard
    if hard:
        from .detector import available

        if not available():
            p.error("the detector (models/dice.onnx) is missing: train it first, or --no-hard")
    return a, hard
