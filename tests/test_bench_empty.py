"""bench/bench_empty.py: empty tables really are empty, and every report on one is counted."""

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_empty import EmptyTally, empty_conditions  # noqa: E402

from vision.synth.conditions import benchmark_conditions  # noqa: E402
from vision.synth.scene import render_scene  # noqa: E402


def _die(face, confidence, cocked=False):
    return SimpleNamespace(face=face, confidence=confidence, cocked=cocked)


def test_every_report_on_an_empty_table_is_a_false_die():
    t = EmptyTally()
    t.frame("tray", [_die("circle", 0.95), _die(None, 0.0, cocked=True)], 100.0)
    t.frame("tray", [_die("slash", 0.6)], 90.0)
    t.frame("felt", [], 12.0)
    c = t.c
    assert (c["frames"], c["frames_with_dice"], c["dice"]) == (3, 2, 3)
    assert (c["faces"], c["sure"], c["cocked"]) == (2, 1, 1)
    text = "\n".join(t.lines("detrak"))
    assert "by background: tray 3" in text and "felt" not in text
    assert "median 90.0, slowest 100.0" in text


def test_the_empty_scenes_keep_the_benchmark_conditions_without_dice():
    empty = list(empty_conditions("strike", 3, 5))
    full = list(benchmark_conditions("strike", 3, 5))
    for e, f in zip(empty, full, strict=True):
        assert (e["n_dice"], e["cocked"]) == (0, 0) and f["n_dice"] >= 3
        assert {k: v for k, v in e.items() if k not in ("n_dice", "cocked")} == {
            k: v for k, v in f.items() if k not in ("n_dice", "cocked")
        }
    scene = render_scene("strike", np.random.default_rng(0), **empty[0])
    assert scene.dice == [] and scene.arena is not None
