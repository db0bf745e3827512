"""The 5×5 sheet helpers and the clockwise rotation shared by Knister and Détrak."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import BadRecord
from engine.rollwrite import (
    DIAGONAL_UP,
    adjacent,
    cell_from_json,
    empty_cells,
    empty_pairs,
    empty_sheet,
    has_empty_pair,
    is_full,
    next_seat,
    write,
)


def test_write_returns_a_new_sheet():
    sheet = empty_sheet()
    after = write(sheet, (1, 3), 9)
    assert sheet[1][3] is None and after[1][3] == 9
    assert empty_cells(after) == [c for c in empty_cells(sheet) if c != (1, 3)]


def test_an_empty_sheet_has_forty_adjacent_pairs():
    pairs = empty_pairs(empty_sheet())
    assert len(pairs) == 40 and all(adjacent(a, b) for a, b in pairs)


def test_the_published_diagonal_goes_from_bottom_left_to_top_right():
    assert DIAGONAL_UP[0] == (4, 0) and DIAGONAL_UP[-1] == (0, 4)


@settings(max_examples=50, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 4), st.integers(0, 4))))
def test_has_empty_pair_agrees_with_the_list(filled):
    sheet = empty_sheet()
    for cell in filled:
        sheet = write(sheet, cell, "x")
    assert has_empty_pair(sheet) == bool(empty_pairs(sheet))
    assert is_full(sheet) == (len(filled) == 25)


@pytest.mark.parametrize(
    ("after", "seats", "n", "expected"),
    [
        (0, [0, 1, 2], 3, 1),
        (2, [0, 1, 2], 3, 0),
        (0, [0, 2], 3, 2),
        (1, [1], 3, 1),
        (0, [], 3, None),
    ],
)
def test_next_seat_clockwise(after, seats, n, expected):
    assert next_seat(after, seats, n) == expected


@pytest.mark.parametrize("value", [[0], [0, 5], [-1, 0], [True, 0], "a1", [1.0, 2]])
def test_bad_cells(value):
    with pytest.raises(BadRecord, match=r'"cell" must be \[row, col\] with each 0..4'):
        cell_from_json(value)
