"""bench/compare_trees.py: the figures the keep-or-not rules are written in, and a comparison that
goes on where it stopped."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from compare_trees import figures, main, paired, sign_test, summed  # noqa: E402


def test_figures_count_what_the_rules_name():
    c = {"tp": 90, "fp": 4, "fn": 10, "cocked": 7, "cocked_flagged": 5}
    c |= {"sure_total": 88, "sure_right": 85}
    f = figures(c)
    assert (f["errors"], f["cocked"], f["of_cocked"], f["sure_wrong"]) == (14, 5, 7, 3)
    assert abs(f["f1"] - 180 / 194) < 1e-12
    assert (f["arena_wrong"], f["of_arena"]) == (0, 0)


def test_the_arena_is_counted_where_a_set_has_one():
    """Strike's scenes judge each die found in or out of the arena: a rule on the arena is
    written in that figure, which a row shows only where there is one."""
    from compare_trees import _cell

    c = {"tp": 90, "fp": 4, "fn": 10, "arena_n": 95, "arena_ok": 93}
    f = figures(c)
    assert (f["arena_wrong"], f["of_arena"]) == (2, 95)
    assert _cell(f).endswith("; in/out wrong 2/95")
    assert "in/out" not in _cell(figures({"tp": 90}))


def test_the_sign_test_is_the_binomial_tail_both_ways():
    assert sign_test(0, 5) == 2 / 32  # all five one way: 2 of the 32 splits are that uneven
    assert sign_test(5, 0) == sign_test(0, 5)
    assert sign_test(1, 4) == 2 * 6 / 32
    assert sign_test(3, 3) == 1.0 and sign_test(0, 0) == 1.0
    assert sign_test(0, 10) < 0.01 < sign_test(2, 8) < 0.2


def _scene(fp=0, fn=0, cocked_flagged=0, sure_total=0, sure_right=0):
    return {"fp": fp, "fn": fn, "cocked_flagged": cocked_flagged} | {
        "sure_total": sure_total,
        "sure_right": sure_right,
    }


def test_scenes_are_paired_one_for_one():
    committed = [_scene(fn=2), _scene(fp=1, cocked_flagged=1), _scene(), _scene(sure_total=3)]
    candidate = [_scene(fn=1), _scene(fp=1), _scene(fp=1), _scene(sure_total=3, sure_right=2)]
    got = paired(committed, candidate)
    assert got["errors"][:2] == (1, 1)  # a scene with one error fewer, one with one more
    assert got["cocked"][:2] == (0, 1)
    assert got["sure_wrong"][:2] == (1, 0)
    assert got["errors"][2] == 1.0
    with pytest.raises(ValueError, match="not a pair"):
        paired(committed, candidate[:3])


def test_seeds_are_summed_count_by_count():
    total = summed([{"tp": 3, "fp": 1}, {"tp": 4, "fn": 2}])
    assert total == {"tp": 7, "fp": 1, "fn": 2}


def test_a_tree_against_itself_reads_the_same_and_is_not_run_twice(tmp_path, capsys):
    args = ["--kinds", "strike", "--seeds", "0", "--n", "2", "--jobs", "2", "--out", str(tmp_path)]
    assert main([str(ROOT), *args]) == 0
    row = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| seed0")]
    assert len(row) == 2  # the figures, then scene against scene
    cells = [c.strip() for c in row[0].strip("|").split("|")]
    assert cells[1] == "strike" and cells[2] == cells[3]
    # scene against scene, a tree reads as itself: no scene better or worse
    assert [c.strip() for c in row[1].strip("|").split("|")][2:] == ["0 / 0 (1.00)"] * 3
    kept = json.loads((tmp_path / "candidate-seed0.json").read_text())
    assert len(kept["scenes"]["strike"]) == 2
    assert (
        sum(s["fp"] + s["fn"] for s in kept["scenes"]["strike"])
        == figures(kept["kinds"]["strike"])["errors"]
    )
    # counts already there are read, not measured again
    path = tmp_path / "candidate-seed0.json"
    kept = json.loads(path.read_text())
    strike = kept["kinds"]["strike"]
    strike["fp"] = strike.get("fp", 0) + 1000
    path.write_text(json.dumps(kept))
    assert main([str(ROOT), *args]) == 0
    row = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| seed0")]
    cells = [c.strip() for c in row[0].strip("|").split("|")]
    assert int(cells[3].split(",")[0]) == int(cells[2].split(",")[0]) + 1000
    # counted with another number of scenes: measured again
    kept["n"] = 7
    path.write_text(json.dumps(kept))
    assert main([str(ROOT), *args]) == 0
    assert json.loads(path.read_text())["n"] == 2


def test_a_moved_set_is_counted_apart_from_the_set_itself(tmp_path, capsys):
    """--moved: the same seed read moved is another set, kept in its own file and row (so counts
    of the unmoved set in the same --out are not taken for it, nor it for them)."""
    args = ["--kinds", "strike", "--seeds", "0", "--n", "1", "--jobs", "2", "--out", str(tmp_path)]
    assert main([str(ROOT), *args, "--moved", "1"]) == 0
    out = capsys.readouterr().out
    assert "| seed0-moved1 | strike |" in out
    assert json.loads((tmp_path / "committed-seed0-moved1.json").read_text())["moved"] == 1
    assert not (tmp_path / "committed-seed0.json").exists()


def test_a_hinted_set_is_counted_apart_from_the_set_itself(tmp_path, capsys):
    """--hinted: the same seed read knowing the dice's size (the watcher's steady state, where
    the detector makes one look) is another set, in its own file and row."""
    args = ["--kinds", "strike", "--seeds", "0", "--n", "1", "--jobs", "2", "--out", str(tmp_path)]
    assert main([str(ROOT), *args, "--hinted"]) == 0
    out = capsys.readouterr().out
    assert "| seed0-hinted | strike |" in out
    assert json.loads((tmp_path / "committed-seed0-hinted.json").read_text())["hinted"] is True
    assert not (tmp_path / "committed-seed0.json").exists()


def test_no_seed_compares_the_renders_alone(tmp_path, capsys):
    """--seeds "": a comparison of rendered scenes only; an empty render directory reads no scene
    and so writes no row, and no synthetic set is run."""
    renders = tmp_path / "renders"
    renders.mkdir()
    out = tmp_path / "out"
    args = ["--kinds", "detrak", "--seeds", "", "--blender", str(renders), "--out", str(out)]
    assert main([str(ROOT), *args]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "candidate-blender.json",
        "committed-blender.json",
    ]
    assert "| seed" not in capsys.readouterr().out
