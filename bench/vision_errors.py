"""Where the learned reader loses each die it gets wrong, on the synthetic benchmark (a tool for
deciding what to work on next, not a test: run it, read it).

    .venv/bin/python bench/vision_errors.py --kind pips [--seed 0] [--n 150] [--scenes 35,80]
                                            [--zoom DIR] [--blender DIR...]
                                            [--hinted] [--max-tilt DEG]

bench_vision.py counts the errors; this says, die by die, at which step of the reader each one
was lost, so that a session starts from the largest group instead of from scripts rewritten
every time (sessions 22-24 each wrote their own and lost them with the machine):
- a flat die never found by the detector, or found and dropped (the classifier saw no die), or
  found and reported but merged into a neighbour's report (find_report.one_per_die), or
  reported cocked (the classifier's odds of "cocked", the detector's heats), or misread;
- a cocked die read as a face (with the odds of "cocked" the classifier gave it), or missed;
- a face reported where no die lies.
It listens to the reader's steps (the detector's finds, the finds and readings it reports from,
the reports before one per die is kept) without changing them: the readings are read()'s own.
With --zoom DIR each error is drawn there, enlarged: truth in green (cocked: yellow), the
reports in red, the detector's finds in blue (flat) or magenta (cocked) with their heats.
With --oracle each die lost is read again as if the detector had found it perfectly (at its
truth's centre and side, turned about the reader's point below the camera), by the same report
rules: whether a better find or a better reading is what it lacked (session 35).
With --blender DIR... it reads Blender-rendered scenes of the kind instead (bench_photoreal.py's,
the dice the truth leaves out left out here too): the renders' errors are not the synthetic
set's (session 41: flat dice reported cocked in photos tilted 15° or more).
With --hinted --max-tilt 10 it reads as the table does: its camera mounted within 10° of vertical,
each frame read knowing the dice's size (session 72).
"""

from __future__ import annotations

import argparse
import inspect
import math
import sys
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_photoreal import load, without_left_out  # noqa: E402
from bench_vision import tilted_within, watcher_hint  # noqa: E402
from scoring import match  # noqa: E402

from vision import read, read_learned  # noqa: E402
from vision.find_report import flat  # noqa: E402
from vision.learned import crop_die, probabilities  # noqa: E402
from vision.learned.classes import COCKED, kind_classes  # noqa: E402
from vision.learned.detector import Found  # noqa: E402
from vision.photoreal import spec  # noqa: E402
from vision.photoreal.truth import scene_paths  # noqa: E402
from vision.synth.scene import KINDS, TruthDie, benchmark_scene  # noqa: E402

NEAR = 0.6  # a find or report this near a die's centre, in its sides, is of that die (as match)
OBLIQUE = int(spec.OBLIQUE[0])  # photos tilted this much or more: 62 of the 84 errors of seed
# 4000's renders (session 41), where the synthetic set's oblique photos hold a minority of its errors


@contextmanager
def listening():
    """The reader's inner steps of each read, recorded in a dict: `finds` (the detector's),
    `ringed` (the finds and classifier rows the ring look is given), `read` (the finds reported
    from, with their rows), `below` (the point below the camera the crops were turned about),
    `reports` (before one per die is kept)."""
    heard: dict = {}
    saved = {
        name: getattr(read_learned, name) for name in ("find_dice", "ring_look", "one_per_die")
    }

    def find_dice(*a, **k):
        heard["finds"] = saved["find_dice"](*a, **k)
        return heard["finds"]

    ring_args = inspect.signature(saved["ring_look"])

    def ring_look(*a, **k):  # the last of the looks: what the reports are made from
        given = ring_args.bind(*a, **k).arguments
        heard["ringed"] = given["found"], given["p"]
        heard["below"] = given["below"]
        heard["read"] = saved["ring_look"](*a, **k)
        return heard["read"]

    def one_per_die(dice):
        heard["reports"] = list(dice)
        return saved["one_per_die"](dice)

    patches = {"find_dice": find_dice, "ring_look": ring_look, "one_per_die": one_per_die}
    for name, fn in patches.items():
        setattr(read_learned, name, fn)
    try:
        yield heard
    finally:
        for name, fn in saved.items():
            setattr(read_learned, name, fn)


def near(items, t, within=NEAR):
    """The items (finds, reports) within `within` of die `t`'s side from its centre."""
    return [f for f in items if math.hypot(f.x - t.x, f.y - t.y) < within * t.size]


def why(t, die, heard: dict, names: tuple) -> tuple[str, str] | None:
    """(the step that lost it, details) for truth die `t`, `die` the report matched to it;
    None when it was read right."""
    if t.cocked:
        if die is not None and die.cocked:
            return None
        if die is None:
            return "cocked die missed", ""
        odds = _odds(die, heard, names)
        return "cocked die read as a face", f"{die.face} at {die.confidence:.2f}{odds}"
    if die is not None and die.face is not None and str(die.face) == str(t.face):
        return None
    if die is not None and die.face is None:
        return "flat die reported cocked", _odds(die, heard, names).strip(", ")
    if die is not None:
        return "flat die misread", f"{t.face} read {die.face} at {die.confidence:.2f}"
    if not near(heard.get("finds", []), t):
        return "flat die never found", ""
    if near(heard.get("reports", []), t):
        return "flat die merged into a neighbour's report", ""
    found, rows = heard.get("read", ([], []))
    close = [i for i, f in enumerate(found) if near([f], t)]
    if close:
        row = rows[close[0]]
        return "flat die found, dropped", f"classifier {names[int(row.argmax())]} {row.max():.2f}"
    return "flat die found, moved off it by a later look", ""


def at_truth(frame, t, kind: str, below=None) -> str:
    """What the report rules make of truth die `t` found perfectly: a flat find at its centre
    and side, sure and not half cocked, read from its crop turned about `below` (the reader's
    point below the camera; None, the frame's centre)."""
    names = kind_classes(kind)
    row = probabilities([crop_die(frame, t.x, t.y, t.size, below)], kind)[0]
    return verdict(t, flat(Found(t.x, t.y, t.size, 1.0, 0.0), row, names, kind))


def verdict(t, die) -> str:
    """One word for what a report makes of truth die `t`, in the words the summary counts."""
    if die is None:
        return "no die"
    if die.cocked:
        return "cocked"
    if t.cocked:
        return "a face"
    return "right" if str(die.face) == str(t.face) else "misread"


def find_of(found, die) -> int:
    """The index of the find a report came from: the nearest to it (reports sit on their find)."""
    return min(range(len(found)), key=lambda i: math.hypot(found[i].x - die.x, found[i].y - die.y))


def _odds(die, heard: dict, names: tuple) -> str:
    """The classifier's odds of "cocked" and the detector's heats at the find a report came from."""
    found, rows = heard.get("read", ([], []))
    if not len(found):
        return ""
    i = find_of(found, die)
    f, cocked = found[i], rows[i][names.index(COCKED)]
    return (
        f", cocked odds {cocked:.2f}, detector flat/cocked {f.flat_score:.2f}/{f.cocked_score:.2f}"
    )


def errors_of(scene, kind: str, left: list[dict] = (), hinted: bool = False):
    """The reading of one scene, what the reader's steps did, and (truth die or report, step,
    details) for each of its errors; reports on the dice `left` out of the truth are dropped.
    `hinted`: read knowing the dice's size, as the table's watcher reads (bench_vision --hinted)."""
    hint = watcher_hint(scene) if hinted else None
    with listening() as heard:
        dice = without_left_out(read(scene.image, kind, hint, "auto"), list(left)).dice
    names = kind_classes(kind)
    pairs = match(dice, scene.dice)
    out = []
    for i, t in enumerate(scene.dice):
        lost = why(t, dice[pairs[i]] if i in pairs else None, heard, names)
        if lost:
            out.append((t, *lost))
    matched = set(pairs.values())
    for j, d in enumerate(dice):
        if j not in matched and d.face is not None:
            out.append((d, "a face where no die lies", f"{d.face} at {d.confidence:.2f}"))
    return dice, heard, out


def zoom(scene, dice, heard: dict, at, path: Path) -> None:
    """The frame around `at`, enlarged, with truth, reports and the detector's finds drawn."""
    r = 2.2 * at.size
    x0, y0 = max(0, int(at.x - r)), max(0, int(at.y - r))
    crop = scene.image[y0 : int(at.y + r), x0 : int(at.x + r)]
    s = 640 / max(crop.shape[:2])
    img = cv2.resize(crop, None, fx=s, fy=s, interpolation=cv2.INTER_CUBIC)

    def p(x, y):
        return int((x - x0) * s), int((y - y0) * s)

    for t in scene.dice:
        colour = (0, 255, 255) if t.cocked else (0, 255, 0)
        cv2.circle(img, p(t.x, t.y), int(t.size * s / 2), colour, 1)
        label = f"tip {t.tip:.0f}" if t.cocked else str(t.face)
        cv2.putText(img, label, p(t.x - t.size / 2, t.y - t.size * 0.55), 0, 0.5, colour, 1)
    for f in heard.get("finds", []):
        colour = (255, 0, 255) if f.cocked else (255, 128, 0)
        cv2.drawMarker(img, p(f.x, f.y), colour, cv2.MARKER_CROSS, 12, 2)
        heat = f"{f.flat_score:.2f}/{f.cocked_score:.2f}"
        cv2.putText(img, heat, p(f.x + 2, f.y - 2), 0, 0.4, colour, 1)
    for d in dice:
        label = f"{'cocked' if d.cocked else d.face} {d.confidence:.2f}"
        cv2.putText(img, label, p(d.x - d.size * 0.4, d.y + d.size * 0.7), 0, 0.5, (0, 0, 255), 1)
    cv2.imwrite(str(path), img)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kind", required=True, choices=KINDS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n", type=int, default=150, help="scenes (default 150, as bench_vision)")
    ap.add_argument("--scenes", default=None, help="only these scene indices, e.g. 35,80")
    ap.add_argument("--zoom", type=Path, default=None, help="draw each error here")
    ap.add_argument(
        "--oracle", action="store_true", help="read each die lost again from a perfect find"
    )
    ap.add_argument(
        "--blender", type=Path, nargs="+", default=None, help="read these rendered scenes instead"
    )
    ap.add_argument(
        "--hinted", action="store_true", help="read knowing the dice's size (the table's watcher)"
    )
    ap.add_argument(
        "--max-tilt",
        type=float,
        default=None,
        metavar="DEG",
        help="only scenes whose camera leans DEG degrees or less (10, with --hinted: the table's)",
    )
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        indices = [int(i) for i in args.scenes.split(",")] if args.scenes else range(args.n)
    except ValueError:
        ap.error(f"--scenes: expected scene indices separated by commas, got {args.scenes!r}")
    if args.zoom:
        args.zoom.mkdir(parents=True, exist_ok=True)
    groups, oracle, oblique = Counter(), Counter(), Counter()
    for i, scene, left in scenes(args, indices):
        cond = scene.conditions
        if not tilted_within(scene, args.max_tilt):
            continue
        dice, heard, errors = errors_of(scene, args.kind, left, args.hinted)
        for at, step, details in errors:
            groups[step] += 1
            oblique[step] += cond["tilt"] >= OBLIQUE
            w, h = cond["frame"]
            perfect = ""
            if args.oracle and isinstance(at, TruthDie):
                got = at_truth(scene.image, at, args.kind, heard.get("below"))
                oracle[(step, got)] += 1
                perfect = f" | found perfectly: {got}"
            print(
                f"scene {i} ({at.x:.0f}, {at.y:.0f}) {at.size:.0f} px: {step}"
                f"{': ' + details if details else ''}"
                f" | {w}x{h} {cond['background']} {cond['die_colour']} tilt {cond['tilt']:.0f}"
                f"{perfect}"
            )
            if args.zoom:
                name = f"{args.kind}_{args.seed}_{i}_{at.x:.0f}_{at.y:.0f}.png".replace("/", "_")
                zoom(scene, dice, heard, at, args.zoom / name)
    print("by step:", ", ".join(f"{k}: {v}" for k, v in groups.most_common()))
    print(
        f"...of them in photos tilted {OBLIQUE}° or more:",
        ", ".join(f"{k}: {oblique[k]}" for k, _ in groups.most_common()),
    )
    if args.oracle:
        print(
            "found perfectly:",
            ", ".join(f"{s} -> {g}: {v}" for (s, g), v in sorted(oracle.items())),
        )
    return 0


def scenes(args, indices):
    """(label, scene, dice left out of its truth) of the synthetic seed, or of the renders."""
    if not args.blender:
        for i in indices:
            yield f"{i:3d}", benchmark_scene(args.kind, i, args.seed), []
        return
    for path in scene_paths(args.blender):
        kind, scene, left = load(path)
        if kind == args.kind:
            yield f"{path.parent.name}/{path.stem}", scene, left


if __name__ == "__main__":
    raise SystemExit(main())
