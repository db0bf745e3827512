"""Stratego's pieces: names, counts per army, who moves, and who wins a fight."""

from __future__ import annotations

from typing import NamedTuple

FLAG, BOMB, SPY, SCOUT, MINER, MARSHAL = "F", "B", "S", "2", "3", "10"
# Each army, in the order of RECORDS.md: flag, bombs, spy, then ranks 2..10.
COUNTS = {
    "F": 1,
    "B": 6,
    "S": 1,
    "2": 8,
    "3": 5,
    "4": 4,
    "5": 4,
    "6": 4,
    "7": 3,
    "8": 2,
    "9": 1,
    "10": 1,
}
PIECES = tuple(COUNTS)
ARMY_SIZE = sum(COUNTS.values())  # 40
IMMOBILE = frozenset({FLAG, BOMB})

NAMES = {
    "fr": {
        "F": "drapeau",
        "B": "bombe",
        "S": "espion",
        "2": "éclaireur",
        "3": "démineur",
        "4": "sergent",
        "5": "lieutenant",
        "6": "capitaine",
        "7": "commandant",
        "8": "colonel",
        "9": "général",
        "10": "maréchal",
    },
    "en": {
        "F": "flag",
        "B": "bomb",
        "S": "spy",
        "2": "scout",
        "3": "miner",
        "4": "sergeant",
        "5": "lieutenant",
        "6": "captain",
        "7": "major",
        "8": "colonel",
        "9": "general",
        "10": "marshal",
    },
}


class Piece(NamedTuple):
    """A piece on the board. `revealed`: both seats have seen its rank (a fight, a long move)."""

    seat: int
    rank: str
    revealed: bool = False


def strength(rank: str) -> int:
    """Rank as a number for ordinary fights: the spy is the weakest (1), the marshal 10."""
    return 1 if rank == SPY else int(rank)


def fight(attacker: str, defender: str) -> str:
    """Who survives: "attacker", "defender" or "none" (equal ranks both fall)."""
    if defender == FLAG:
        return "attacker"
    if defender == BOMB:
        return "attacker" if attacker == MINER else "defender"
    if attacker == SPY and defender == MARSHAL:
        return "attacker"  # only when the spy strikes first
    if attacker == defender:
        return "none"
    return "attacker" if strength(attacker) > strength(defender) else "defender"
