"""`arbitre read IMAGE... --dice KIND [--arena auto|none] [--overlay OUT]`: contract 2 of DESIGN.md.

One JSON object per image, one line each, in the order given. An image that cannot be read gets a
line {"error": ...} in its place (and a message on stderr), the others are still read, and the
exit status is then 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "read the dice in photos: one JSON line per image (faces, positions, confidence)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("images", nargs="+", metavar="IMAGE", help="photos or frames (PNG, JPEG...)")
    p.add_argument(
        "--dice",
        choices=("pips", "strike", "detrak"),
        default="pips",
        help="which dice are on the table (default: pips)",
    )
    p.add_argument(
        "--arena",
        choices=("auto", "none"),
        default="auto",
        help="look for the Strike arena (auto) or not (none)",
    )
    p.add_argument(
        "--calibration",
        metavar="FILE",
        default=None,
        help="a file written by `arbitre calibrate` (default: none)",
    )
    p.add_argument(
        "--overlay",
        metavar="OUT",
        default=None,
        help="draw the reading: a file for one image, a directory for several",
    )


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision import draw_overlay, load_calibration, read

    from .image_file import read_image

    calibration = None
    if args.calibration:
        try:
            calibration = load_calibration(args.calibration)
        except (OSError, ValueError) as err:
            print(f"calibration: {err}", file=sys.stderr)
            return 2
    status = 0
    for path in args.images:
        frame, why = read_image(path)
        if frame is None:
            print(why, file=sys.stderr)
            print(json.dumps({"error": why}, ensure_ascii=False), flush=True)
            status = 2
            continue
        readings = read(frame, args.dice, calibration=calibration, arena=args.arena)
        print(json.dumps(readings.to_json(), ensure_ascii=False), flush=True)
        if args.overlay:
            out = _overlay_path(args.overlay, path, len(args.images))
            out.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out), draw_overlay(frame, readings))
    return status


def _overlay_path(target: str, image: str, count: int) -> Path:
    if count == 1 and Path(target).suffix:
        return Path(target)
    return Path(target) / (Path(image).stem + ".overlay.png")
