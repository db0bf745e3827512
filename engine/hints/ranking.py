"""The ranking of the placement helper, the same for both games: each estimator values a placement
through the game's model, so the order, the methods' names and which placements get re-valued are
decided here once. A model gives `default_lookahead` and `actions`, `expected`, `lookahead`,
`monte_carlo`; that is all the ranking knows of a game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.core import Action, IllegalAction
from engine.hints.detrak import _Detrak
from engine.hints.knister import _Knister


@dataclass(frozen=True)
class Hint:
    """A placement and the seat's expected final score after it; `method` names the estimator."""

    action: Action
    expected: float
    method: str

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "expected": round(self.expected, 2),
            "method": self.method,
        }


def rank(
    state: Any,
    seat: int,
    lookahead: int | None = None,
    rollouts: int = 0,
    top: int = 4,
    rng: random.Random | None = None,
) -> list[Hint]:
    """Every placement of the current roll for `seat`, best first.

    Every placement gets the exact baseline. The `lookahead` best of them (default: all for
    Knister, `DETRAK_LOOKAHEAD` for Détrak) are re-valued as if the next roll were then written at
    its best and the rest at random (method "one-roll-lookahead"); with `rollouts` > 0 the `top`
    best are re-valued by that many greedy Monte Carlo games instead ("monte-carlo"). Re-valued
    placements are listed first, among themselves by their new value.
    """
    if state.phase != "place" or seat not in state.waiting:
        raise IllegalAction(f"seat {seat} has nothing to write now")
    game = _GAMES[state.game.name]
    ranked = [
        Hint(a, game.expected(state, a), "exact-random-fill") for a in game.actions(state, seat)
    ]
    ranked.sort(key=lambda h: -h.expected)
    if lookahead is None:
        lookahead = game.default_lookahead
    if lookahead > 0 and len(ranked) > 1:
        best = [
            Hint(h.action, game.lookahead(state, h.action), "one-roll-lookahead")
            for h in ranked[:lookahead]
        ]
        ranked = sorted(best, key=lambda h: -h.expected) + ranked[lookahead:]
    if rollouts > 0 and len(ranked) > 1:
        rng = rng or random.Random(0)
        refined = game.monte_carlo(state, [h.action for h in ranked[:top]], rollouts, rng)
        best = [
            Hint(h.action, v, "monte-carlo") for h, v in zip(ranked[:top], refined, strict=True)
        ]
        ranked = sorted(best, key=lambda h: -h.expected) + ranked[top:]
    return ranked


_GAMES: dict[str, Any] = {"knister": _Knister, "detrak": _Detrak}
