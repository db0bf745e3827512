"""Stratego bots: random and greedy, each able to set up and to move.

They read only their seat's view. `state.legal_actions()` is used as the list of moves: it depends
on where pieces stand and on the seat's own ranks, never on an enemy rank.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.core import Action
from engine.stratego import Move, Setup, StrategoState
from engine.stratego_board import RAYS, SIZE, setup_squares, square_name
from engine.stratego_pieces import BOMB, COUNTS, FLAG, fight

# What a piece is worth to its army, for the greedy bot's sums (the flag is the game).
VALUES = {"F": 1000, "B": 1, "S": 5, "2": 1, "3": 3, "4": 2, "5": 3, "6": 4}
VALUES |= {"7": 5, "8": 7, "9": 9, "10": 10}
FORWARD = 0.2  # a small pull towards the enemy, so that games end
GUESSED_FLAG = 20  # an unseen piece is rarely the flag: worth a try, not every risk
JITTER = 0.5  # enough randomness to leave a shuffle between two squares


def army() -> list[str]:
    """The 40 pieces of one army."""
    return [p for p, n in COUNTS.items() for _ in range(n)]


def random_setup(seat: int, rng: random.Random) -> Setup:
    squares = sorted(setup_squares(seat))
    pieces = army()
    rng.shuffle(pieces)
    return Setup(seat, tuple(zip(squares, pieces, strict=True)))


def guarded_setup(seat: int, rng: random.Random) -> Setup:
    """The rules' advice: the flag on the back rank, bombs beside it, the rest anywhere."""
    zone = setup_squares(seat)
    back = [i for i in zone if (i // SIZE) == (0 if seat == 0 else SIZE - 1)]
    flag = rng.choice(back)
    placed = {flag: FLAG}
    for ray in RAYS[flag]:
        if ray[0] in zone:
            placed[ray[0]] = BOMB
    rest = [p for p, n in COUNTS.items() for _ in range(n - Counter(placed.values())[p])]
    free = [i for i in sorted(zone) if i not in placed]
    rng.shuffle(rest)
    placed.update(zip(free, rest, strict=True))
    return Setup(seat, tuple(sorted(placed.items())))


class RandomBot:
    """A random setup, then any legal move: reaches every corner of the rules in tests."""

    def act(self, state: StrategoState, seat: int, rng: random.Random) -> Action | None:
        if seat not in state.turn():
            return None
        if state.phase == "setup":
            return random_setup(seat, rng)
        moves = state.legal_actions()
        return rng.choice(moves) if moves else None


def unknown_enemies(view: dict, seat: int) -> Counter:
    """The ranks the enemy still has that this seat has not seen: all it may guess from."""
    left = Counter(COUNTS)
    left.subtract(view["captured"][1 - seat])
    for owner, rank in view["board"].values():
        if owner != seat and rank is not None:
            left[rank] -= 1
    return +left


def attack_value(mine: str, theirs: str, flag: float = VALUES[FLAG]) -> float:
    result = fight(mine, theirs)
    if result == "attacker":
        return flag if theirs == FLAG else VALUES[theirs]
    if result == "defender":
        return -VALUES[mine]
    return VALUES[theirs] - VALUES[mine]


class GreedyBot:
    """Takes the move worth most right now: known wins, good odds on unknown pieces, a step forward.

    An unknown enemy piece is weighed by the ranks the seat has not seen yet (its view only).
    """

    def act(self, state: StrategoState, seat: int, rng: random.Random) -> Action | None:
        if seat not in state.turn():
            return None
        if state.phase == "setup":
            return guarded_setup(seat, rng)
        view = state.view(seat)
        moves = state.legal_actions()
        if not moves:
            return None
        unknown = unknown_enemies(view, seat)
        scored = [(self.score(view, seat, m, unknown) + rng.random() * JITTER, m) for m in moves]
        return max(scored, key=lambda pair: pair[0])[1]

    def score(self, view: dict, seat: int, move: Move, unknown: Counter) -> float:
        board = view["board"]
        mine = board[square_name(move.frm)][1]
        target = board.get(square_name(move.to))
        ahead = (move.to // SIZE - move.frm // SIZE) * (1 if seat == 0 else -1)
        if target is None:
            return FORWARD * ahead
        if target[1] is not None:
            return attack_value(mine, target[1])
        total = sum(unknown.values())
        guess = sum(n * attack_value(mine, r, GUESSED_FLAG) for r, n in unknown.items())
        return guess / max(total, 1)


BOTS = {"random": RandomBot, "greedy": GreedyBot}
