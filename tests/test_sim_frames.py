"""`arbitre sim-frames`, and the vision reader reading the simulated table's settled frames."""

from __future__ import annotations

import json
from collections import Counter

import cv2
import pytest

from engine.record import replay
from kiosk.cli import main
from vision.sim.drivers import settled_throw


def test_sim_frames_writes_frames_truth_and_a_replayable_record(tmp_path, capsys):
    out = tmp_path / "set"
    args = ["sim-frames", "--game", "strike", "--seed", "3", "--out", str(out)]
    code = main([*args, "--throws", "2", "--size", "160x120", "--every", "25"])
    assert code == 0
    assert "frames and their truth written" in capsys.readouterr().out
    pngs = sorted(out.glob("frame_*.png"))
    assert len(pngs) >= 3
    for png in pngs:
        image = cv2.imread(str(png))
        assert image.shape == (120, 160, 3)
        truth = json.loads(png.with_suffix(".json").read_text())
        assert set(truth) >= {"frame", "settled", "dice"}
        assert png.stem == f"frame_{truth['frame']:06d}"
    lines = (out / "record.jsonl").read_text().splitlines()
    throws = [json.loads(line) for line in lines if '"throw"' in line]
    assert len(throws) == 2
    state = replay("\n".join(lines), keep_states=False).state.view()
    last_still = json.loads(pngs[-1].with_suffix(".json").read_text())
    assert last_still["settled"]
    seen = Counter(str(d["face"]) for d in last_still["dice"] if d["in_arena"])
    assert seen == Counter(map(str, throws[-1]["arena"]))
    assert state["phase"] in ("throw", "choose", "grand_throw")
    meta = json.loads((out / "meta.json").read_text())
    assert meta["game"] == "strike" and meta["throws"] == 2 and meta["arena"] is not None


def test_same_seed_same_dataset(tmp_path):
    for name in ("a", "b"):
        args = ["sim-frames", "--game", "knister", "--seed", "8", "--out", str(tmp_path / name)]
        assert main([*args, "--throws", "1", "--size", "96x72", "--every", "7"]) == 0
    a = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert a == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in a:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_every_zero_writes_only_the_still_frames(tmp_path):
    out = tmp_path / "still"
    args = ["sim-frames", "--game", "detrak", "--out", str(out), "--every", "0"]
    assert main([*args, "--throws", "3", "--size", "96x72"]) == 0
    truths = [json.loads(p.read_text()) for p in sorted(out.glob("frame_*.json"))]
    assert len(truths) == 3
    assert all(t["settled"] and len(t["dice"]) == 2 for t in truths)


@pytest.mark.parametrize(
    "bad", [["--throws", "0"], ["--every", "-1"], ["--size", "big"], ["--game", "chess"]]
)
def test_sim_frames_refuses_bad_arguments(tmp_path, bad, capsys):
    args = ["sim-frames", "--out", str(tmp_path / "x"), *bad]
    try:
        code = main(args)
    except SystemExit as exit_:  # argparse refuses before run()
        code = exit_.code
    assert code == 2
    assert capsys.readouterr().err


def _settled_frame(game: str, seed: int):
    cam = settled_throw(game, seed)
    frame = cam.read()
    return frame, cam.truth()


# Five settled frames, every die read right and found within a third of its side (the last two
# were known failures before the learned reader: a Détrak die missed on seed 6, Strike dice).


@pytest.mark.parametrize(
    "game, kind, seed",
    [
        ("knister", "pips", 3),
        ("detrak", "detrak", 3),
        ("knister", "pips", 5),
        pytest.param("detrak", "detrak", 6),
        pytest.param("strike", "strike", 3),
    ],
)
def test_vision_reads_settled_frames(game, kind, seed):
    read = pytest.importorskip("vision.read").read
    frame, truth = _settled_frame(game, seed)
    readings = read(frame, dice=kind)
    seen = Counter(str(d.face) for d in readings.dice if d.in_arena)
    assert seen == Counter(str(d["face"]) for d in truth["dice"] if d["in_arena"])
    for die in truth["dice"]:
        nearest = min(readings.dice, key=lambda r: (r.x - die["x"]) ** 2 + (r.y - die["y"]) ** 2)
        assert abs(nearest.x - die["x"]) < die["size"] / 3
        assert abs(nearest.y - die["y"]) < die["size"] / 3
