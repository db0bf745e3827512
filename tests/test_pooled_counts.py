"""bench/pooled_counts.py: which seeds it pools, and the figures it gives them."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from pooled_counts import kind_counts, lines, main, pooled  # noqa: E402


def _counts(tp, fp, fn, cocked=(0, 0), low=(0, 0), arena=(0, 0), sure=(0, 0), scenes=1) -> dict:
    """A kind's counts as scoring.Tally writes them; `low`: the dice tipped 25-35°."""
    return {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "scenes": scenes,
        "cocked": cocked[1],
        "cocked_flagged": cocked[0],
        "cocked 25-35°": low[1],
        "cocked 25-35° flagged": low[0],
        "arena_n": arena[1],
        "arena_ok": arena[0],
        "sure_total": sure[1],
        "sure_right": sure[0],
    }


def _file(tmp_path, name, seed, kinds, **flags):
    path = tmp_path / name
    path.write_text(json.dumps({"seed": seed, "kinds": kinds, **flags}))
    return path


def test_each_seed_is_pooled_once_and_moved_hinted_and_low_seeds_are_left_out(tmp_path):
    first = _file(tmp_path, "a.json", 20, {"pips": _counts(90, 5, 5), "strike": _counts(1, 0, 0)})
    again = _file(tmp_path, "b.json", 20, {"pips": _counts(100, 0, 0)})
    moved = _file(tmp_path, "c.json", 21, {"pips": _counts(0, 9, 9)}, moved=1)
    hinted = _file(tmp_path, "d.json", 22, {"pips": _counts(0, 9, 9)}, hinted=True)
    tuned = _file(tmp_path, "e.json", 3, {"pips": _counts(0, 9, 9)})
    got = kind_counts([first, again, moved, hinted, tuned], "pips", min_seed=11)
    assert got == {"pips": {20: _counts(90, 5, 5)}}
    assert set(kind_counts([first, tuned], None, min_seed=0)) == {"pips", "strike"}
    assert set(kind_counts([tuned], None, min_seed=0)["pips"]) == {3}


def test_f1_is_pooled_over_the_dice_not_averaged_over_the_seeds():
    # a seed of 10 dice all lost and one of 990 read right: averaging the seeds' F1 gives 0.5,
    # the dice pooled 990 / 1000 read
    f = pooled({1: _counts(0, 0, 10), 2: _counts(990, 0, 0)})
    assert f["f1"] == pytest.approx(2 * 990 / (2 * 990 + 10))
    assert f["f1_median"] == pytest.approx(0.5)
    assert f["f1_range"] == (0.0, 1.0)
    assert f["seeds_at_target"] == 1
    assert f["errors"] == 10


def test_cocked_dice_sure_faces_and_the_arena_are_summed():
    f = pooled(
        {
            5: _counts(10, 0, 0, cocked=(3, 4), low=(1, 2), arena=(9, 10), sure=(8, 9), scenes=2),
            6: _counts(10, 0, 0, cocked=(2, 2), low=(0, 1), arena=(10, 10), sure=(10, 10)),
        }
    )
    assert (f["cocked"], f["of_cocked"]) == (5, 6)
    assert f["bands"]["25-35°"] == (1, 3)
    assert f["bands"]["35-55°"] == (0, 0)
    assert f["sure"] == (18, 19)
    assert (f["of_arena"] - f["arena_wrong"], f["of_arena"]) == (19, 20)
    assert f["scenes"] == 3
    text = "\n".join(lines("strike", f))
    assert "5 / 6 (0.8333)" in text and "25-35°: 1 / 3" in text and "19 / 20" in text
    # a kind with no arena says nothing of one
    assert "arena" not in "\n".join(lines("pips", pooled({1: _counts(1, 0, 0)})))


def test_files_that_are_not_counts_are_refused_with_what_was_expected(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"seed": 1}))
    with pytest.raises(SystemExit, match="expected bench_vision.py --json counts"):
        kind_counts([bad], None, 0)
    empty = _file(tmp_path, "a.json", 2, {"pips": _counts(1, 0, 0)})
    assert main([str(empty), "--min-seed", "5"]) == 1
    assert "no unmoved, unhinted counts" in capsys.readouterr().out


def test_f1_over_issue_5_s_sizes_is_pooled_only_from_seeds_that_counted_it():
    old = _counts(90, 5, 5)
    new = {**_counts(90, 5, 5), "tp outside": 0, "fp outside": 3, "fn outside": 5}
    assert pooled({1: new, 2: old})["f1_in_range"] is None
    f = pooled({1: new, 2: dict(new)})
    assert f["f1_in_range"] == pytest.approx(2 * 180 / (2 * 180 + 4 + 0))
    assert "18-150 px alone 0.9890" in "\n".join(lines("pips", f))


def test_cocked_dice_read_as_sure_faces_are_pooled_only_from_seeds_that_counted_them():
    old = _counts(90, 5, 5, cocked=(8, 10))
    new = {**old, "cocked_unasked": 1}
    assert pooled({1: new, 2: old})["unasked"] is None
    assert "read as faces at 0.9" not in "\n".join(lines("pips", pooled({1: new, 2: old})))
    f = pooled({1: new, 2: {**old, "cocked_unasked": 2}})
    assert f["unasked"] == (3, 20)
    assert "cocked dice read as faces at 0.9 or more 3 / 20 (0.1500)" in "\n".join(lines("pips", f))
