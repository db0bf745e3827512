"""The Stratego board: square names, lakes, setup zones and the straight lines pieces move along.

A square is an index 0..99: file (a..j, left to right as red sees the board) + 10 * (rank - 1).
Everything here is computed once at import: move generation only looks tables up.
"""

from __future__ import annotations

FILES = "abcdefghij"
SIZE = 10
LAKE_NAMES = ("c5", "d5", "g5", "h5", "c6", "d6", "g6", "h6")
SETUP_RANKS = {0: (1, 4), 1: (7, 10)}  # red (seat 0) on ranks 1-4, blue (seat 1) on 7-10
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))  # forward for red, back, right, left
SEAT_NAMES = {0: "red", 1: "blue"}


def square_name(index: int) -> str:
    return f"{FILES[index % SIZE]}{index // SIZE + 1}"


def parse_square(name: object) -> int | None:
    """The index of a square name such as "e4", or None when it is not a square of the board."""
    if not isinstance(name, str) or len(name) not in (2, 3) or name[0] not in FILES:
        return None
    digits = name[1:]
    if not digits.isdigit() or digits.startswith("0") or not 1 <= int(digits) <= SIZE:
        return None
    return FILES.index(name[0]) + SIZE * (int(digits) - 1)


LAKES = frozenset(parse_square(n) for n in LAKE_NAMES)


def setup_squares(seat: int) -> frozenset[int]:
    """The 40 squares a seat fills before play: its four ranks."""
    low, high = SETUP_RANKS[seat]
    return frozenset(range((low - 1) * SIZE, high * SIZE))


def _ray(index: int, step: tuple[int, int]) -> tuple[int, ...]:
    """The squares from `index` (excluded) in one direction, up to the edge or a lake."""
    x, y = index % SIZE, index // SIZE
    out = []
    while True:
        x, y = x + step[0], y + step[1]
        if not (0 <= x < SIZE and 0 <= y < SIZE) or x + SIZE * y in LAKES:
            return tuple(out)
        out.append(x + SIZE * y)


# RAYS[square] = the four rays out of it; a piece never moves along anything else.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray for ray in (_ray(i, d) for d in DIRECTIONS) if ray) for i in range(SIZE * SIZE)
)


def line_between(start: int, end: int) -> tuple[int, ...] | None:
    """The squares strictly between two squares of one file or rank, or None if not in line."""
    sx, sy, ex, ey = start % SIZE, start // SIZE, end % SIZE, end // SIZE
    if (sx != ex and sy != ey) or start == end:
        return None
    step = (ex > sx) - (ex < sx) + SIZE * ((ey > sy) - (ey < sy))
    return tuple(range(start + step, end, step))


def distance(start: int, end: int) -> int:
    """Squares between two squares along a file or rank (Manhattan distance)."""
    return abs(start % SIZE - end % SIZE) + abs(start // SIZE - end // SIZE)
