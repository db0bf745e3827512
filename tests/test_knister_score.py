"""Knister scoring: every combination, the best-only rule and the seed's list of common mistakes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.knister_score import COMBOS, LINES, breakdown, combination, score
from engine.rollwrite import empty_sheet, write

CASES = [
    ([7, 7, 7, 7, 7], "five", 10),
    ([5, 5, 5, 5, 11], "four", 6),
    ([4, 4, 9, 9, 9], "full_house", 8),  # not three (3) nor pair: the best only
    ([5, 5, 5, 6, 8], "three", 3),
    ([2, 2, 12, 12, 3], "two_pairs", 3),
    ([2, 2, 3, 4, 12], "pair", 1),
    ([9, 5, 7, 6, 8], "straight_with_7", 8),  # in any order
    ([6, 2, 4, 3, 5], "straight_without_7", 10),
    ([12, 8, 10, 9, 11], "straight_without_7", 10),
    ([3, 4, 5, 6, 6], "pair", 1),  # a duplicate breaks the straight
    ([2, 3, 4, 5, 7], None, 0),  # five distinct, not consecutive
    ([2, 4, 6, 8, 10], None, 0),
]


@pytest.mark.parametrize(("values", "combo", "points"), CASES)
def test_combination(values, combo, points):
    assert combination(values) == (combo, points)


def test_every_combination_has_french_and_english_labels():
    assert {c for _, c, _ in CASES if c} == set(COMBOS)
    assert all(set(labels) == {"fr", "en"} for labels in COMBOS.values())


def test_published_straight_without_7_is_an_option():
    assert combination([2, 3, 4, 5, 6], straight_without_7=12) == ("straight_without_7", 12)
    assert combination([3, 4, 5, 6, 7], straight_without_7=12) == ("straight_with_7", 8)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(2, 12), min_size=5, max_size=5), st.randoms(use_true_random=False))
def test_order_never_matters(values, rnd):
    shuffled = values[:]
    rnd.shuffle(shuffled)
    assert combination(shuffled) == combination(values)


def _sheet(rows):
    sheet = empty_sheet()
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if v is not None:
                sheet = write(sheet, (r, c), v)
    return sheet


def test_only_the_two_main_diagonals_count_and_they_are_doubled():
    # Rows, columns and the up diagonal hold nothing (checked by hand); the down one is five 7s.
    sheet = _sheet(
        [
            [7, 2, 9, 11, 5],
            [10, 7, 3, 12, 6],
            [11, 8, 7, 9, 3],
            [2, 11, 8, 7, 10],
            [9, 3, 4, 8, 7],
        ]
    )
    lines = {(d["kind"], d["index"]): d for d in breakdown(sheet)}
    assert lines[("diagonal", 0)]["combo"] == "five" and lines[("diagonal", 0)]["points"] == 20
    assert lines[("diagonal", 1)]["points"] == 0
    assert len(LINES) == 12 and sum(line.factor for line in LINES) == 14
    assert score(sheet) == 20


def test_incomplete_line_scores_nothing_yet():
    sheet = _sheet([[7, 7, 7, 7, None]] + [[None] * 5] * 4)
    row = breakdown(sheet)[0]
    assert row["complete"] is False and row["combo"] is None and row["points"] == 0
    assert score(sheet) == 0
    assert score(write(sheet, (0, 4), 7)) == 10


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(2, 12), min_size=25, max_size=25))
def test_score_is_the_sum_of_the_breakdown(values):
    sheet = _sheet([values[r * 5 : r * 5 + 5] for r in range(5)])
    lines = breakdown(sheet, 12)
    assert score(sheet, 12) == sum(d["points"] for d in lines)
    assert all(d["complete"] for d in lines)
    assert all(
        d["points"] == combination([sheet[r][c] for r, c in d["cells"]], 12)[1] * d["factor"]
        for d in lines
    )
