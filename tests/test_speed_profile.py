"""bench/speed_profile.py: a timed network reads as the network does, and its passes are counted
under its name and batch."""

import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from speed_profile import _Timed, report  # noqa: E402

from vision.learned import detector  # noqa: E402
from vision.learned.onnx_net import read_onnx  # noqa: E402


def test_a_timed_network_gives_the_same_outputs_and_counts_each_pass(capsys):
    blob = np.random.default_rng(3).random((1, 3, 96, 128), dtype=np.float32)
    plain = read_onnx(detector.ONNX_PATH)
    plain.setInput(blob)
    expected = plain.forward()
    spent = defaultdict(list)
    timed = _Timed(read_onnx(detector.ONNX_PATH), "dice", spent)
    for _ in range(3):
        timed.setInput(blob)
        got = timed.forward()
    assert np.array_equal(got, expected)
    assert list(spent) == [("dice", (1, 3, 96, 128))]
    assert len(spent[("dice", (1, 3, 96, 128))]) == 3
    report("pips", 1000.0, spent, frames=3)
    line = capsys.readouterr().out.splitlines()[1]
    assert "1.00 a frame" in line and "dice" in line


def test_the_tables_reads_know_their_dice_size():
    """--table reads each speed frame with the calibration its first reading gives (the table's
    reads): the die size is the found dice's median, and a frame with no die gets none."""
    from bench_vision import speed_frames, table_calibration

    from vision import read

    image = speed_frames("pips", 1)[0]
    cal = table_calibration(image, read(image, "pips"))
    assert cal is not None and 30 < cal.die_size < 50  # the speed scenes' dice are 40 px
    assert cal.frame_size == (1280, 960)
    empty = np.full((960, 1280, 3), 128, np.uint8)
    assert table_calibration(empty, read(empty, "pips")) is None
