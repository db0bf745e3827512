"""bench/report_rows.py: each report paired with its truth die and what the reader saw there,
and the two summaries made of such rows."""

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from report_rows import faces_on_cocked, main, rows_of, sure_by_size  # noqa: E402


def _row(face, conf, size, truth, cocked_odds=0.01, heat=(0.8, 0.1)):
    odds = {"cocked": cocked_odds, "none": 0.0}
    return {"face": face, "cocked": face is None, "conf": conf, "size": size, "truth": truth,
            "odds": odds, "heat": list(heat)}  # fmt: skip


FLAT4 = {"face": "4", "cocked": False}
COCKED = {"face": None, "cocked": True}


def test_every_truth_die_is_in_the_rows_once():
    """A generated frame of 8 dice, 2 of them cocked: each die is a report's truth or a missed
    row, never both, and each report carries the classifier's odds and the detector's heats."""
    from vision.synth.scene import render_scene

    rng = np.random.default_rng([63, 1])
    scene = render_scene("pips", rng, frame=(640, 480), n_dice=8, die_size=40.0, cocked=2)
    rows = rows_of(scene, "pips", label=7)
    reported = [r for r in rows if "missed" not in r]
    matched = sum(r["truth"] is not None for r in reported)
    assert matched + sum("missed" in r for r in rows) == len(scene.dice)
    assert reported and all("odds" in r and len(r["heat"]) == 2 for r in reported)
    assert {r["scene"] for r in rows} == {7}
    assert sum(r["cocked"] for r in reported) >= 1  # the reader flags a cocked die here


def test_sure_faces_are_counted_by_reported_size():
    rows = [
        _row("4", 0.95, 16.0, FLAT4),
        _row("5", 0.95, 17.0, FLAT4),  # misread
        _row("4", 0.85, 17.5, FLAT4),  # not sure: not counted
        _row("4", 0.97, 25.0, COCKED),  # a cocked die read as a face
        _row("4", 0.97, 25.0, None),  # a face where no die lies
        _row("4", 0.97, 50.0, FLAT4),
        _row(None, 0.3, 50.0, COCKED),
    ]
    got = {band: (n, bad) for band, n, bad in sure_by_size(rows)}
    assert got == {"16-18": (2, 1), "22-26": (2, 2), "40-60": (1, 0)}


def test_faces_on_cocked_dice_are_set_against_flat_ones_for_each_line(tmp_path, capsys):
    rows = [
        _row("4", 0.95, 30.0, COCKED, cocked_odds=0.12, heat=(0.5, 0.45)),
        _row("4", 0.95, 30.0, FLAT4, cocked_odds=0.06),
        _row("4", 0.95, 30.0, FLAT4, cocked_odds=0.01),
    ]
    got = {name: counts for name, *counts in faces_on_cocked(rows)}
    assert got['"cocked" odds >= 0.05'] == [1, 1, 1, 2]
    assert got['"cocked" odds >= 0.15'] == [0, 1, 0, 2]
    assert got["cocked heat >= 0.4"] == [1, 1, 0, 2]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["--summary", str(path)]) == 0
    assert '"cocked" odds >= 0.05: cocked 1 / 1, flat 1 / 2' in capsys.readouterr().out
