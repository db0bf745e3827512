"""The faces the learned classifier knows, and which of them each kind of die can show.

One network scores every class; a kind keeps only its own faces plus "cocked" and "none" (a
softmax over that subset), so pips, Strike and Détrak share what they have in common (pip layouts
2..6, die edges, background, cocked dice) and never confuse a Strike "X" with a pip 1 or a Détrak
"cross". "cocked" (a die on an edge: its top face tilted, a side face showing) has its own class
apart from "none" (no die: the table, a print, half a die): the reader flags the first for a
re-roll and drops the second, and the two look nothing alike.
"""

from __future__ import annotations

NONE = "none"
COCKED = "cocked"
CLASSES: tuple = (
    1,
    2,
    3,
    4,
    5,
    6,
    "X",
    "hash",
    "slash",
    "bars",
    "triangle",
    "circle",
    "cross",
    COCKED,
    NONE,
)
KIND_FACES: dict[str, tuple] = {
    "pips": (1, 2, 3, 4, 5, 6),
    "strike": ("X", 2, 3, 4, 5, 6),
    "detrak": ("hash", "slash", "bars", "triangle", "circle", "cross"),
}
KINDS = tuple(KIND_FACES)


def check_kind(kind: str) -> str:
    if kind not in KIND_FACES:
        raise ValueError(f"kind {kind!r}: expected one of {', '.join(KINDS)}")
    return kind


def kind_classes(kind: str) -> tuple:
    """The classes a die of this kind can be given, "cocked" and "none" last."""
    return KIND_FACES[check_kind(kind)] + (COCKED, NONE)


def kind_indices(kind: str) -> list[int]:
    """Their positions in CLASSES (the network's output order)."""
    return [CLASSES.index(c) for c in kind_classes(kind)]


def class_index(face) -> int:
    """Index in CLASSES of a truth face: None is "none" (no die), "cocked" a die on an edge."""
    if face is None:
        return CLASSES.index(NONE)
    if face not in CLASSES:
        raise ValueError(f"face {face!r}: expected one of {CLASSES[:-2]}, {COCKED!r} or None")
    return CLASSES.index(face)
