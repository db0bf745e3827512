"""The faces the learned classifier knows, and which of them each kind of die can show.

One network scores every class; a kind keeps only its own faces plus "none" (a softmax over that
subset), so pips, Strike and Détrak share what they have in common (pip layouts 2..6, die edges,
background, cocked dice) and never confuse a Strike "X" with a pip 1 or a Détrak "cross".
"""

from __future__ import annotations

NONE = "none"
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
    """The classes a die of this kind can be given, "none" last."""
    return KIND_FACES[check_kind(kind)] + (NONE,)


def kind_indices(kind: str) -> list[int]:
    """Their positions in CLASSES (the network's output order)."""
    return [CLASSES.index(c) for c in kind_classes(kind)]


def class_index(face) -> int:
    """Index in CLASSES of a truth face (None, a cocked die or no die, is "none")."""
    if face is None:
        return CLASSES.index(NONE)
    if face not in CLASSES:
        raise ValueError(f"face {face!r}: expected one of {CLASSES[:-1]} or None")
    return CLASSES.index(face)
