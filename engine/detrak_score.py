"""Détrak scoring: runs of identical adjacent symbols in each scored line.

A run is a maximal stretch of the same symbol; an empty cell (a hole left by a blocked seat) cuts
it. Runs of 2, 3, 4, 5 score 2, 3, 8, 10, and several runs in one line add up. With the options, a
line without any run loses `empty_line_penalty`, and the published diagonal (bottom-left to
top-right) is scored too, doubled, penalty included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.rollwrite import DIAGONAL_UP, Line, Sheet, rows_and_columns

RUN_POINTS = {2: 2, 3: 3, 4: 8, 5: 10}

_PLAIN: tuple[Line, ...] = tuple(rows_and_columns())
_WITH_DIAGONAL: tuple[Line, ...] = (*_PLAIN, Line("diagonal", 0, DIAGONAL_UP, factor=2))


def lines(options: Mapping[str, Any]) -> tuple[Line, ...]:
    return _WITH_DIAGONAL if options.get("diagonal") else _PLAIN


def runs(values: Sequence[Any]) -> list[tuple[int, int]]:
    """(start, length) of every run of two or more equal symbols; None never forms a run."""
    found = []
    start = 0
    for i in range(1, len(values) + 1):
        if i == len(values) or values[i] != values[start] or values[i] is None:
            if values[start] is not None and i - start >= 2:
                found.append((start, i - start))
            start = i
    return found


def line_points(values: Sequence[Any], penalty: int = 0) -> int:
    """Points of one line before its factor: its runs, or minus the penalty without any."""
    found = runs(values)
    if not found:
        return -penalty
    return sum(RUN_POINTS[length] for _, length in found)


def line_breakdown(
    line: Line, sheet: Sheet, penalty: int = 0, final: bool = False
) -> dict[str, Any]:
    """One line for the kiosk. `counted`: complete, or the seat's game is over (holes and all)."""
    values = line.values(sheet)
    complete = None not in values
    counted = complete or final
    return {
        "kind": line.kind,
        "index": line.index,
        "cells": [list(cell) for cell in line.cells],
        "factor": line.factor,
        "complete": complete,
        "counted": counted,
        "runs": [[start, length] for start, length in runs(values)],
        "points": line_points(values, penalty) * line.factor if counted else 0,
    }


def breakdown(sheet: Sheet, options: Mapping[str, Any], final: bool = False) -> list[dict]:
    penalty = options.get("empty_line_penalty", 0)
    return [line_breakdown(line, sheet, penalty, final) for line in lines(options)]


def score(sheet: Sheet, options: Mapping[str, Any], final: bool = False) -> int:
    """Complete lines so far; every line once the seat's game is over (`final`)."""
    penalty = options.get("empty_line_penalty", 0)
    total = 0
    for line in lines(options):
        values = line.values(sheet)
        if final or None not in values:
            total += line_points(values, penalty) * line.factor
    return total
