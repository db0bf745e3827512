"""bench/lost_scenes.py: which scenes count as lost whole, and which count files it reads."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from lost_scenes import lost, readings  # noqa: E402


def _scene(tp: int, fn: int, fp: int = 0) -> dict:
    return {"tp": tp, "fp": fp, "fn": fn}


def test_a_scene_is_lost_whole_from_the_share_and_only_with_enough_dice():
    scenes = [_scene(10, 0), _scene(5, 5), _scene(6, 4), _scene(1, 3), _scene(0, 20, fp=2)]
    # half lost counts; 4 of 10 does not; 3 of 4 is too few dice to say
    assert lost(scenes) == [(1, 5, 10), (4, 20, 20)]
    assert lost(scenes, share=0.4) == [(1, 5, 10), (2, 4, 10), (4, 20, 20)]
    assert lost(scenes, least=4) == [(1, 5, 10), (3, 3, 4), (4, 20, 20)]


def test_moved_and_hinted_readings_are_left_out_and_a_seed_is_read_once(tmp_path):
    def counts(name, seed, scenes, **flags):
        path = tmp_path / name
        path.write_text(json.dumps({"seed": seed, "scenes": scenes, **flags}))
        return path

    first = counts("a.json", 7, {"pips": [_scene(1, 9)], "strike": [_scene(9, 1)]})
    again = counts("b.json", 7, {"pips": [_scene(10, 0)]})
    moved = counts("c.json", 8, {"pips": [_scene(0, 10)]}, moved=1)
    hinted = counts("d.json", 9, {"pips": [_scene(0, 10)]}, hinted=True)
    got = readings([first, again, moved, hinted], "pips")
    assert got == {("pips", 7): [_scene(1, 9)]}
    assert set(readings([first], None)) == {("pips", 7), ("strike", 7)}


def test_a_file_that_is_not_counts_says_what_was_expected(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"scenes": {}}))
    with pytest.raises(SystemExit, match="expected bench_vision.py --json counts"):
        readings([bad], None)
