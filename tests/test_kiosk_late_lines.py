"""Every seat writes the same roll at once (Knister, Détrak): a seat's line decided on an older
seq stands when only other seats have written since (kiosk/late_lines.py); anything else is
still a stale seq."""

from __future__ import annotations

import pytest

from kiosk.config import Config
from kiosk.table import StaleSeq, Table


def knister(tmp_path, players: int = 3) -> Table:
    table = Table(Config(data_dir=str(tmp_path)))
    table.new_game({"game": "knister", "players": ["Ana", "Ben", "Chloé"][:players]})
    table.submit({"act": "roll", "dice": [3, 4]}, source="camera")
    return table


def test_every_seat_writing_one_roll_on_its_seq_is_recorded(tmp_path) -> None:
    table = knister(tmp_path)
    for seat, cell in ((0, [0, 0]), (2, [4, 4]), (1, [2, 3])):  # all three saw seq 1
        table.submit({"act": "place", "seat": seat, "cell": cell}, seq=1, source="phone")
    sheets = table.state.view()["sheets"]
    assert table.seq == 4
    assert sheets[0][0][0] == sheets[1][2][3] == sheets[2][4][4] == 7


def test_a_seats_second_line_on_the_view_its_first_changed_is_stale(tmp_path) -> None:
    table = knister(tmp_path)
    table.submit({"act": "place", "seat": 0, "cell": [0, 0]}, seq=1)
    table.submit({"act": "place", "seat": 1, "cell": [0, 0]}, seq=1)
    with pytest.raises(StaleSeq, match="stale seq 1"):
        table.submit({"act": "place", "seat": 0, "cell": [1, 1]}, seq=1)
    assert table.seq == 3


def test_a_line_decided_before_a_new_roll_or_an_undo_is_stale(tmp_path) -> None:
    table = knister(tmp_path, players=2)
    table.submit({"act": "place", "seat": 0, "cell": [0, 0]}, seq=1)
    table.submit({"act": "place", "seat": 1, "cell": [0, 0]}, seq=1)
    table.submit({"act": "roll", "dice": [1, 1]}, source="camera")  # seq 4
    with pytest.raises(StaleSeq):  # (decided on seq 3, before the roll)
        table.submit({"act": "place", "seat": 1, "cell": [3, 3]}, seq=3)
    table.submit({"act": "place", "seat": 0, "cell": [1, 1]}, seq=4)
    table.undo()  # seq 6 takes seq 5's line away
    with pytest.raises(StaleSeq):
        table.submit({"act": "place", "seat": 1, "cell": [1, 1]}, seq=5)
    assert table.seq == 6


def test_a_late_line_that_was_illegal_on_its_seq_is_stale(tmp_path) -> None:
    """Turn-based: seat 1's throw decided on seq 1, when it was seat 0's turn, is stale although
    seat 1 may throw now that seat 0 has."""
    table = Table(Config(data_dir=str(tmp_path)))
    table.new_game({"game": "strike", "players": ["Ana", "Ben"]})
    table.submit({"act": "start", "arena": [4]})
    table.submit({"act": "throw", "seat": 0, "arena": [4, 4]}, seq=1)
    with pytest.raises(StaleSeq):
        table.submit({"act": "throw", "seat": 1, "arena": [2, 3, 4, 5, 6]}, seq=1)
    table.submit({"act": "throw", "seat": 1, "arena": [2, 3, 4, 5, 6]}, seq=2)
    assert table.seq == 3


def test_detrak_seats_place_the_same_roll_at_once(tmp_path) -> None:
    table = Table(Config(data_dir=str(tmp_path)))
    table.new_game({"game": "detrak", "players": ["Ana", "Ben"]})
    table.submit({"act": "choose", "seat": 0, "symbol": "hash"})
    table.submit({"act": "choose", "seat": 1, "symbol": "slash"})
    table.submit({"act": "roll", "dice": ["hash", "hash"]}, source="camera")  # seq 3
    table.submit({"act": "place", "seat": 1, "cells": [[0, 2], [0, 3]]}, seq=3)
    table.submit({"act": "place", "seat": 0, "cells": [[0, 1], [0, 2]]}, seq=3)
    assert table.seq == 5
