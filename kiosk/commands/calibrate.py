"""`arbitre calibrate FRAME [--dice KIND] [--out FILE]`: the arena and the dice's size, saved.

Take the frame from the table's camera with the arena empty (or nearly). The result goes where
`arbitre run` looks for it (the config's `calibration`, by default DATA_DIR/calibration.json).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "find the arena and the dice's size in a frame of the empty table, and save them"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("frame", metavar="FRAME", help="a photo from the table's camera")
    p.add_argument(
        "--dice",
        choices=("pips", "strike", "detrak"),
        default="strike",
        help="the dice used on this table (default: strike)",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        default=None,
        help="where to save (default: the config's calibration path)",
    )
    p.add_argument("--config", metavar="TOML", default=None, help="the table's config file")


def run(args: argparse.Namespace) -> int:
    from vision import calibrate, save_calibration

    from .image_file import read_image

    frame, why = read_image(args.frame)
    if frame is None:
        print(why, file=sys.stderr)
        return 2
    try:
        out = Path(args.out) if args.out else _default_path(args.config)
        calibration = calibrate(frame, args.dice)
    except (OSError, ValueError) as err:
        print(f"calibrate: {err}", file=sys.stderr)
        return 2
    save_calibration(calibration, out)
    print(json.dumps({"saved": str(out), **calibration.to_json()}, ensure_ascii=False))
    return 0


def _default_path(config_path: str | None) -> Path:
    from kiosk.config import load_config

    config = load_config(config_path)
    if config.calibration:
        return Path(config.calibration).expanduser()
    return config.data_path / "calibration.json"
