"""Every record file under tests/records/<game>/ replayed through the CLI and the Python API.

A record `name.jsonl` comes with `name.expect.json`, one of:
  {"state": {field: value, ...}, "seat": N or absent}   the listed fields of the state reached
  {"error_line": N, "error_contains": "text"}            replay fails at line N with that reason
Like python-chess's perft files: the rules are pinned by data, and a new case is a new file.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from engine.record import RecordError, replay
from kiosk.cli import main

RECORDS = sorted(Path(__file__).parent.joinpath("records").glob("*/*.jsonl"))


def _expect(path: Path) -> dict:
    return json.loads(path.with_suffix(".expect.json").read_text(encoding="utf-8"))


def _cli(path: Path, seat: int | None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    argv = ["replay", str(path)] + ([] if seat is None else ["--seat", str(seat)])
    with redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def _check_state(actual: dict, expected: dict) -> None:
    for key, value in expected.items():
        assert key in actual, f"state has no field {key!r}"
        assert actual[key] == value, f"{key}: {actual[key]!r} != {value!r}"


@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}/{p.stem}" for p in RECORDS])
def test_record_through_cli(path: Path) -> None:
    expect = _expect(path)
    status, out, err = _cli(path, expect.get("seat"))
    if "error_line" in expect:
        assert status == 2 and out == ""
        assert err.startswith(f"line {expect['error_line']}: "), err
        assert expect["error_contains"] in err, err
        assert err.count("\n") == 1
    else:
        assert status == 0, err
        _check_state(json.loads(out), expect["state"])


@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}/{p.stem}" for p in RECORDS])
def test_record_through_api(path: Path) -> None:
    expect = _expect(path)
    text = path.read_text(encoding="utf-8")
    if "error_line" in expect:
        with pytest.raises(RecordError) as info:
            replay(text)
        assert info.value.line == expect["error_line"]
        assert expect["error_contains"] in info.value.reason
    else:
        state = replay(text).state
        _check_state(state.view(expect.get("seat")), expect["state"])


def test_every_record_has_its_expectation() -> None:
    assert RECORDS, "no record files found"
    for path in RECORDS:
        assert path.with_suffix(".expect.json").exists(), f"{path} has no .expect.json"
