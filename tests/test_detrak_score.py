"""Détrak scoring: runs, holes that cut them, the penalty and the doubled diagonal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.detrak_score import breakdown, line_points, lines, runs, score
from engine.rollwrite import empty_sheet, write

H, S, B, T, C, X = "hash", "slash", "bars", "triangle", "circle", "cross"


@pytest.mark.parametrize(
    ("values", "found", "points"),
    [
        ([H, H, S, B, T], [(0, 2)], 2),
        ([S, H, H, H, T], [(1, 3)], 3),
        ([C, C, C, C, T], [(0, 4)], 8),
        ([X, X, X, X, X], [(0, 5)], 10),
        ([H, H, S, S, S], [(0, 2), (2, 3)], 5),  # several runs add up
        ([H, H, T, H, H], [(0, 2), (3, 2)], 4),  # not adjacent: two runs, not four
        ([H, S, H, S, H], [], 0),
        ([H, H, None, H, H], [(0, 2), (3, 2)], 4),  # an empty cell cuts the run
        ([H, None, H, None, H], [], 0),
        ([None, None, None, None, None], [], 0),  # empty cells never form a run
    ],
)
def test_runs(values, found, points):
    assert runs(values) == found
    assert line_points(values) == points


def test_penalty_for_a_line_without_a_run():
    assert line_points([H, S, H, S, H], penalty=5) == -5
    assert line_points([H, H, S, B, T], penalty=5) == 2


def _sheet(rows):
    sheet = empty_sheet()
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if v is not None:
                sheet = write(sheet, (r, c), v)
    return sheet


# Hand-checked: rows 10+5+5+0+4, columns 2+2+0+0+2; the up diagonal X T C B H has no run.
FULL = _sheet(
    [
        [H, H, H, H, H],
        [S, S, S, B, B],
        [T, T, C, C, C],
        [X, T, B, S, C],
        [X, X, H, H, S],
    ]
)


def test_seed_scores_rows_and_columns_only():
    options = {"diagonal": False, "empty_line_penalty": 0}
    assert len(lines(options)) == 10
    assert score(FULL, options) == 30


def test_penalty_on_the_doubled_diagonal_is_doubled_too():
    assert score(FULL, {"diagonal": True, "empty_line_penalty": 0}) == 30
    lines_ = breakdown(FULL, {"diagonal": True, "empty_line_penalty": 5})
    diagonal = lines_[-1]
    assert diagonal["kind"] == "diagonal" and diagonal["factor"] == 2
    assert [tuple(c) for c in diagonal["cells"]] == [(4, 0), (3, 1), (2, 2), (1, 3), (0, 4)]
    assert diagonal["points"] == -10
    assert score(FULL, {"diagonal": True, "empty_line_penalty": 5}) == 30 - 15 - 10


def test_a_run_on_the_diagonal_is_doubled():
    sheet = _sheet(
        [[None] * 4 + [C], [None] * 3 + [C, None], [None, None, C, None, None]] + [[None] * 5] * 2
    )
    sheet = write(write(sheet, (3, 1), C), (4, 0), C)
    options = {"diagonal": True, "empty_line_penalty": 0}
    assert breakdown(sheet, options)[-1]["points"] == 20
    assert score(sheet, options) == 20


def test_incomplete_lines_count_only_once_the_game_is_over():
    sheet = _sheet([[H, H, None, S, S]] + [[None] * 5] * 4)
    options = {"diagonal": False, "empty_line_penalty": 5}
    assert score(sheet, options) == 0
    row = breakdown(sheet, options, final=True)[0]
    assert row["counted"] and not row["complete"] and row["points"] == 4
    # final: row 0 scores 4; the other 4 rows and 5 columns have no run: 9 × −5
    assert score(sheet, options, final=True) == 4 - 45


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([H, S, B, T, C, X, None]), min_size=5, max_size=5))
def test_runs_partition_equal_neighbours(values):
    found = runs(values)
    covered = {i for start, length in found for i in range(start, start + length)}
    for i in range(4):
        same = values[i] is not None and values[i] == values[i + 1]
        assert same == (
            i in covered and i + 1 in covered and any(s <= i < i + 1 < s + n for s, n in found)
        )
    assert line_points(values) == sum({2: 2, 3: 3, 4: 8, 5: 10}[n] for _, n in found)
