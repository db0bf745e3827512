"""Knister scoring: the best poker-like combination of each of the 12 lines of a sheet.

Kept apart from the state machine so the hints and the kiosk's breakdown use the very same rules.
Honours the seed's list of common mistakes: only the two corner-to-corner diagonals count and they
are doubled; a straight is five distinct consecutive sums in any order; a duplicate breaks it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.rollwrite import DIAGONAL_DOWN, DIAGONAL_UP, Line, Sheet, rows_and_columns

LINES: tuple[Line, ...] = (
    *rows_and_columns(),
    Line("diagonal", 0, DIAGONAL_DOWN, factor=2),
    Line("diagonal", 1, DIAGONAL_UP, factor=2),
)

# Combination names with their French and English labels, for the kiosk.
COMBOS: dict[str, dict[str, str]] = {
    "pair": {"fr": "paire", "en": "pair"},
    "two_pairs": {"fr": "deux paires", "en": "two pairs"},
    "three": {"fr": "brelan", "en": "three of a kind"},
    "four": {"fr": "carré", "en": "four of a kind"},
    "full_house": {"fr": "full", "en": "full house"},
    "five": {"fr": "quintuple", "en": "five of a kind"},
    "straight_with_7": {"fr": "suite avec un 7", "en": "straight with a 7"},
    "straight_without_7": {"fr": "suite sans 7", "en": "straight without a 7"},
}

# Points by the sorted counts of equal values (a straight has counts 1,1,1,1,1 and is apart).
_BY_COUNTS = {
    (5,): ("five", 10),
    (4, 1): ("four", 6),
    (3, 2): ("full_house", 8),
    (3, 1, 1): ("three", 3),
    (2, 2, 1): ("two_pairs", 3),
    (2, 1, 1, 1): ("pair", 1),
}


def combination(values: Sequence[int], straight_without_7: int = 10) -> tuple[str | None, int]:
    """The best combination of five sums and its points (before doubling); (None, 0) if none.

    Each count pattern allows one combination at most except that a full house also holds a three
    and a pair, a four a three: the table is written with the best of them only.
    """
    counts = tuple(sorted(Counter(values).values(), reverse=True))
    if counts in _BY_COUNTS:
        return _BY_COUNTS[counts]
    if len(values) == 5 and max(values) - min(values) == 4:
        if 7 in values:
            return "straight_with_7", 8
        return "straight_without_7", straight_without_7
    return None, 0


def line_breakdown(line: Line, sheet: Sheet, straight_without_7: int = 10) -> dict[str, Any]:
    """One line for the kiosk: complete or not, and once complete its combination and points."""
    values = line.values(sheet)
    complete = None not in values
    combo, points = combination(values, straight_without_7) if complete else (None, 0)
    return {
        "kind": line.kind,
        "index": line.index,
        "cells": [list(cell) for cell in line.cells],
        "factor": line.factor,
        "complete": complete,
        "combo": combo,
        "points": points * line.factor,
    }


def breakdown(sheet: Sheet, straight_without_7: int = 10) -> list[dict[str, Any]]:
    return [line_breakdown(line, sheet, straight_without_7) for line in LINES]


def score(sheet: Sheet, straight_without_7: int = 10) -> int:
    """Points of the lines complete so far (the final score once the sheet is full)."""
    total = 0
    for line in LINES:
        values = line.values(sheet)
        if None not in values:
            total += combination(values, straight_without_7)[1] * line.factor
    return total
