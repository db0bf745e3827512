"""Whether a look's small finds are dice, or the pips of big dice that another look sees.

The detector looks at a frame at several scales (vision/learned/detector.py). A look that sees
dice small may see the pips of big dice as dice of their own: a die of a fifth of the frame holds
six small dark spots that the network takes for dice. Which look's finds are the dice is judged
here, from the looks alone (no network): the finds of the look with the most sure dice, unless
most of them lie inside the finds of a look at bigger dice as pips lie in a die.
"""

from __future__ import annotations

from typing import Protocol

from .finds import SURE, Found

SURE_BIG = 0.7  # heat of a big die whose pips, seen as small dice, are taken for its own
PIPS_RATIO = 3.5  # ...or of a SURE one, when the small finds are this many times smaller
ARENA_RATIO = 8.0  # ...but no more: pips are a fifth of their die (bigger: the arena, a tray)


class Look(Protocol):
    """What is judged of a look (detector._Look): its scale, its finds, the median side of its
    sure finds at the network's input (None without any), how many are sure."""

    scale: float
    found: list[Found]
    px: float | None
    sure: int


def likeliest(looks: list[Look], bigger_looks: list[Look] = ()) -> Look:
    """Of looks at dice of a good size, the one with the most sure finds, unless a look at
    bigger dice holds its finds inside its own (the pips of big dice, seen as small dice).
    That look may be one of `bigger_looks` too, which saw its dice larger than GOOD_PX: a die
    of a fifth of the frame fills a good share of even the first look."""
    looks = sorted(looks, key=lambda lk: -lk.sure)
    best = looks[0]
    for other in looks[1:] + list(bigger_looks):
        if not (other.px and best.px):
            continue
        ratio = (other.px / other.scale) / (best.px / best.scale)
        if ratio > ARENA_RATIO:
            continue  # pips are a fifth of their die: a find this big is the arena, or a tray
        if ratio > 2.5 and _inside(best.found, other.found, SURE_BIG, 2.5) > 0.6:
            return other
        if ratio > PIPS_RATIO and _inside(best.found, other.found, SURE, PIPS_RATIO) > 0.6:
            return other  # finds this much smaller are pips, even inside less sure dice
    return best


def _inside(small: list[Found], big: list[Found], least: float, ratio: float) -> float:
    """The share of `small` finds lying within one of the `big` finds (heat `least` or more) as
    pips lie in a die (`_pip_or_same`). A tight cluster of dice, seen from far as one unsure
    die, is no die with pips; nor is the Strike arena, seen from far as one die holding them
    all: a die holds six pips at most, so a big find holding more is no die (each big find is
    judged alone: the arena and a die seen at the same look are not a die with pips between
    them). Sizes are judged find by find, not only look by look: a far look seeing the arena
    (500 px) and one die (60 px) has a median size of 280 px, seven times the near look's dice,
    and four of the five dice lie in the arena (session 10: a Strike photo read as one die)."""
    sure = [f for f in small if f.score >= SURE]
    if not sure:
        return 0.0
    held: set[int] = set()
    for b in big:
        if b.score < least:
            continue
        within = {
            i
            for i, f in enumerate(sure)
            if abs(f.x - b.x) < b.size / 2
            and abs(f.y - b.y) < b.size / 2
            and _pip_or_same(b.size / f.size, ratio)
        }
        if len(within) <= 6:
            held |= within
    return len(held) / len(sure)


def _pip_or_same(times: float, ratio: float) -> bool:
    """Whether a find `times` smaller than the big one it lies in is a pip of it (`ratio` to
    ARENA_RATIO times smaller), or the big die itself seen again (under twice smaller)."""
    return times < 2.0 or ratio <= times <= ARENA_RATIO
