"""The event log alone: rows survive reopening, seq is unique, imports are one transaction."""

from __future__ import annotations

import sqlite3

import pytest

from kiosk.eventlog import EventLog


def test_rows_survive_reopening(tmp_path) -> None:
    path = tmp_path / "a.sqlite"
    log = EventLog(path)
    gid = log.new_game({"game": "kfake", "players": ["A", "B"]}, ["t0", "t1"])
    log.append(gid, 1, "action", {"act": "roll", "dice": [1, 2]}, "camera")
    log.append(gid, 2, "undo", None, "kiosk")
    log.close()
    again = EventLog(path).latest_game()
    assert again.id == gid and again.tokens == ["t0", "t1"]
    assert [(r.seq, r.kind, r.source) for r in again.rows] == [
        (1, "action", "camera"),
        (2, "undo", "kiosk"),
    ]
    assert again.rows[0].line == {"act": "roll", "dice": [1, 2]}


def test_wal_and_full_sync(tmp_path) -> None:
    log = EventLog(tmp_path / "b.sqlite")
    assert log._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert log._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_seq_cannot_be_written_twice(tmp_path) -> None:
    log = EventLog(tmp_path / "c.sqlite")
    gid = log.new_game({"game": "kfake", "players": ["A", "B"]}, ["x", "y"])
    log.append(gid, 1, "action", {"act": "roll", "dice": [1, 2]}, "camera")
    with pytest.raises(sqlite3.IntegrityError):
        log.append(gid, 1, "action", {"act": "roll", "dice": [3, 4]}, "camera")


def test_latest_game_and_meta(tmp_path) -> None:
    log = EventLog(tmp_path / "d.sqlite")
    assert log.latest_game() is None
    log.new_game({"game": "x", "players": []}, [])
    second = log.new_game({"game": "y", "players": []}, [], [{"act": "a"}, {"act": "b"}])
    latest = log.latest_game()
    assert latest.id == second and [r.line["act"] for r in latest.rows] == ["a", "b"]
    assert [r.source for r in latest.rows] == ["import", "import"]
    log.set_meta("pin", "0042")
    assert log.meta("pin") == "0042" and log.meta("nope", "d") == "d"
