"""bench/condition_errors.py: the bins a scene counts in, and the errors it sums into them."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from condition_errors import bins, main, tally  # noqa: E402

COND = {
    "die_size": 21.0,
    "frame": (4032, 3024),
    "tilt": 12.0,
    "background": "felt",
    "die_colour": "ivory",
    "mark_colour": "gold",
    "shadows": False,
    "glare": True,
}


def _scene(tp, fp, fn, cocked=0, flagged=0) -> dict:
    return {"tp": tp, "fp": fp, "fn": fn, "cocked": cocked, "cocked_flagged": flagged}


def test_a_scene_counts_in_one_bin_of_each_condition():
    got = dict(bins(COND))
    assert got["die px"] == "<22" and got["tilt"] == "<15" and got["frame"] == "4032x3024"
    assert got["glare"] == "True" and got["mark_colour"] == "gold"
    assert dict(bins({**COND, "die_size": 150.0, "tilt": 25.0}))["die px"] == ">=80"
    assert dict(bins({**COND, "tilt": 25.0}))["tilt"] == ">=15"


def test_errors_are_summed_per_bin_with_the_cocked_dice_missed():
    big = {**COND, "die_size": 90.0}
    t = tally([(_scene(18, 2, 3, cocked=2, flagged=1), COND), (_scene(40, 1, 0), big)])
    assert t["die px"]["<22"] == [21, 5, 2, 1]  # flat = tp + fn; errors = fp + fn
    assert t["die px"][">=80"] == [40, 1, 0, 0]
    assert t["all"][""] == [61, 6, 2, 1]
    assert t["background"]["felt"] == t["all"][""]


def test_each_seed_s_scenes_are_grouped_by_their_drawn_conditions(tmp_path, capsys):
    from vision.synth.conditions import benchmark_conditions

    conds = list(benchmark_conditions("detrak", 150, 20))
    scenes = [_scene(10, 0, 0) for _ in conds]
    scenes[7] = _scene(5, 0, 5)  # one scene lost half its dice
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"seed": 20, "scenes": {"detrak": scenes}, "kinds": {}}))
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    lost_bin = dict(bins(conds[7]))["die px"]
    line = next(x for x in out.splitlines() if x.strip().startswith(f"{lost_bin}:"))
    assert "5 errors (100.0 %" in line
    with pytest.raises(SystemExit):
        main([str(path), "--min-seed", "21"])  # no seed left: said, not an empty table
