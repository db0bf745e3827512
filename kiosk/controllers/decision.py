"""What a table controller decides about a settled reading: pure data, no I/O.

A controller never writes to the record on a doubt. It either submits an action it is sure of, asks
the players to check a proposed action (the «À vérifier» page), asks for a cocked die to be thrown
again, or ignores the reading and says why on the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Below this, a die's reading goes to the players instead of the record (docs/vision.md explains the
# benchmark behind it: readings at 0.9 or more were right at least 99 % of the time).
CONFIDENT = 0.9

# Reasons, as keys the kiosk translates (kiosk/i18n.py), with their French and English text here for
# the CLI and logs.
REASONS = {
    "low_confidence": ("lecture incertaine", "unsure reading"),
    "bad_count": ("plus de dés qu'il ne peut y en avoir", "more dice than there can be"),
    "many_left": (
        "plusieurs dés auraient quitté l'arène",
        "several dice would have left the arena",
    ),
    "vanished": (
        "un dé a disparu sans être vu dehors",
        "a die vanished without being seen outside",
    ),
    "leftover": (
        "un dé à retirer est peut-être encore dans l'arène",
        "a die to be taken away may still be in the arena",
    ),
    "wrong_dice_count": ("il faut exactement deux dés", "exactly two dice are needed"),
    "cocked": ("un dé est cassé : relancez-le", "a die is cocked: throw it again"),
    "unreadable": ("un dé est illisible", "a die cannot be read"),
    "not_expected": ("dés bougés hors tour : ignorés", "dice moved out of turn: ignored"),
    "no_change": ("rien de nouveau dans l'arène", "nothing new in the arena"),
    "check_open": ("une vérification est en cours", "a check is open"),
}


@dataclass(frozen=True)
class Decision:
    """kind: "submit" (line is sure), "check" (players confirm line), "reroll", "ignore"."""

    kind: str
    line: dict[str, Any] | None = None
    reasons: tuple[str, ...] = ()
    dice: list[dict[str, Any]] = field(default_factory=list)

    def text(self, language: str = "fr") -> str:
        index = 0 if language == "fr" else 1
        return "; ".join(REASONS[r][index] for r in self.reasons)


def submit(line: dict[str, Any], dice: list[dict[str, Any]]) -> Decision:
    return Decision("submit", line, (), dice)


def check(line: dict[str, Any] | None, reasons: list[str], dice: list[dict[str, Any]]) -> Decision:
    return Decision("check", line, tuple(dict.fromkeys(reasons)), dice)


def ignore(reason: str, dice: list[dict[str, Any]] | None = None) -> Decision:
    return Decision("ignore", None, (reason,), dice or [])


def reroll(dice: list[dict[str, Any]]) -> Decision:
    return Decision("reroll", None, ("cocked",), dice)


def asked(die: dict[str, Any]) -> bool:
    """Whether the table cannot take this die as read: cocked, unread, or under CONFIDENT. The
    pages mark such dice from this (a "doubt" key), so the die a question is about is the one
    shown red: a page keeping its own line (0.8 until session 63) left dice read at 0.8-0.9
    asked about and not marked."""
    return bool(die.get("cocked")) or die.get("face") is None or _unsure(die)


def _unsure(die: dict[str, Any]) -> bool:
    return float(die.get("confidence", 0.0)) < CONFIDENT


def doubts(dice: list[dict[str, Any]]) -> list[str]:
    """Why a set of read dice cannot go to the record unconfirmed (empty when sure)."""
    reasons = []
    if any(d.get("face") is None and not d.get("cocked") for d in dice):
        reasons.append("unreadable")
    if any(_unsure(d) for d in dice):
        reasons.append("low_confidence")
    return reasons
