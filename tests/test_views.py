"""No view leaks a secret: whole games walked, every state's seat and public views checked.

Two checks for each view. Invariance: change what the viewer may not know (the order of the other
stack, the ranks of unrevealed pieces) and the view must not change. Knowledge: what a Stratego view
shows of the enemy must be exactly what a tracker following the public events (fights, scouts'
long moves) knows, so the engine's own `revealed` mark is checked too, not trusted.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine.joust import JoustGame, JoustState
from engine.joust_bots import BOTS as JOUST_BOTS
from engine.stratego import StrategoGame, StrategoState
from engine.stratego_board import distance, parse_square
from engine.stratego_bots import BOTS as STRATEGO_BOTS

MATCHES = [("random", "random"), ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy")]


def walk(game, bots, seed: int, cap: int):
    """Every state of one bot game, up to `cap` actions."""
    rng = random.Random(seed)
    state = game.initial_state()
    yield state
    for _ in range(cap):
        if state.is_over():
            return
        seat = rng.choice(state.turn())  # simultaneous turns in either order
        action = bots[seat].act(state, seat, rng)
        if action is None:  # this seat has nothing to do: the other one has
            seat = 1 - seat
            action = bots[seat].act(state, seat, rng)
        state = state.apply(action)
        yield state


# --- Joust -------------------------------------------------------------------------------------
def reorder(stack, how: int):
    if stack is None or len(stack) < 2:
        return stack
    return tuple(reversed(stack)) if how == 0 else stack[1:] + stack[:1]


def joust_hide(state: JoustState, seats, how: int) -> JoustState:
    stacks = [reorder(s, how) if i in seats else s for i, s in enumerate(state.stacks)]
    return replace(state, stacks=tuple(stacks))


def check_joust(state: JoustState) -> None:
    full = state.view()
    for seat in (0, 1):
        view = state.view(seat)
        assert "stacks" not in view and view["stack"] == full["stacks"][seat]
        for how in (0, 1):
            assert joust_hide(state, {1 - seat}, how).view(seat) == view
        json.dumps(view)
    public = state.public_view()
    assert "stack" not in public and "stacks" not in public
    for how in (0, 1):
        assert joust_hide(state, {0, 1}, how).public_view() == public


@pytest.mark.parametrize("kinds", MATCHES)
def test_joust_views_never_show_the_other_stack(kinds) -> None:
    hidden_seen = 0
    for seed in range(8):
        game = JoustGame(["A", "B"], {"track": [24, 12, 43][seed % 3]})
        bots = [JOUST_BOTS[k]() for k in kinds]
        for state in walk(game, bots, seed, cap=400):
            check_joust(state)
            hidden_seen += any(s and len(s) > 1 for s in state.stacks)
    assert hidden_seen > 50  # the walk did reach states with secrets to keep


# --- Stratego ----------------------------------------------------------------------------------
def stratego_hide(state: StrategoState, seats) -> StrategoState:
    """The same board with the unrevealed ranks of `seats` rotated among their pieces."""
    cells = list(state.cells)
    for seat in seats:
        spots = [i for i, p in enumerate(cells) if p and p.seat == seat and not p.revealed]
        ranks = [cells[i].rank for i in spots]
        for i, rank in zip(spots, ranks[1:] + ranks[:1], strict=True):
            cells[i] = cells[i]._replace(rank=rank)
    return replace(state, cells=tuple(cells))


class Tracker:
    """What both seats have seen, from the public events alone: square -> rank."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}

    def follow(self, state: StrategoState) -> None:
        public, full = state.public_view(), state.view()
        move, fight = public["last_move"], public["last_fight"]
        if move is None or state.moves == getattr(self, "moves", 0):
            return
        self.moves = state.moves
        src, dst = move["from"], move["to"]
        seen = self.known.pop(src, None)
        self.known.pop(dst, None)
        if fight is not None:
            survivor = {"attacker": fight["attacker"], "defender": fight["defender"]}
            if fight["result"] in survivor:
                self.known[dst] = survivor[fight["result"]][1]
        elif seen is not None:
            self.known[dst] = seen
        elif distance(parse_square(src), parse_square(dst)) > 1:
            self.known[dst] = full["board"][dst][1]  # a scout's long move shows it


def check_stratego(state: StrategoState, tracker: Tracker) -> None:
    full = state.view()
    for seat in (0, 1):
        view = state.view(seat)
        enemy_shown = {
            sq: rank for sq, (owner, rank) in view["board"].items() if owner != seat and rank
        }
        enemy_known = {sq: r for sq, r in tracker.known.items() if full["board"][sq][0] != seat}
        assert enemy_shown == enemy_known
        own = {sq: v for sq, v in view["board"].items() if v[0] == seat}
        assert own == {sq: v for sq, v in full["board"].items() if v[0] == seat}
        assert stratego_hide(state, {1 - seat}).view(seat) == view
        json.dumps(view)
    public = state.public_view()
    assert {sq: v[1] for sq, v in public["board"].items() if v[1]} == tracker.known
    assert stratego_hide(state, {0, 1}).public_view() == public


@pytest.mark.parametrize("kinds", MATCHES)
def test_stratego_views_never_show_an_unrevealed_rank(kinds) -> None:
    fights = ended = 0
    for seed in range(3):
        game = StrategoGame(["R", "B"], {"scout_strike": seed == 2})
        bots = [STRATEGO_BOTS[k]() for k in kinds]
        tracker = Tracker()
        for state in walk(game, bots, seed, cap=2500):
            tracker.follow(state)
            check_stratego(state, tracker)
            fights += state.last_fight is not None
        ended += state.is_over()
    assert fights > 10 and ended >= 2  # fights happened and at least one game ran to its end


# --- bots see only their view ------------------------------------------------------------------
def test_joust_bots_act_the_same_whatever_the_other_stack() -> None:
    game = JoustGame(["A", "B"])
    state = game.initial_state()
    for kind, bot in JOUST_BOTS.items():
        for seat in (0, 1):
            a = bot().act(state, seat, random.Random(3))
            b = bot().act(joust_hide(state, {1 - seat}, 0), seat, random.Random(3))
            assert a == b, kind


@pytest.mark.parametrize("kind", sorted(STRATEGO_BOTS))
def test_stratego_bots_act_the_same_whatever_the_hidden_ranks(kind) -> None:
    game = StrategoGame(["R", "B"])
    bots = [STRATEGO_BOTS["greedy"](), STRATEGO_BOTS["random"]()]
    checked = 0
    for n, state in enumerate(walk(game, bots, 11, cap=300)):
        if n % 10 or state.is_over() or state.phase != "play":
            continue
        seat = state.turn()[0]
        mine = STRATEGO_BOTS[kind]().act(state, seat, random.Random(n))
        hidden = STRATEGO_BOTS[kind]().act(stratego_hide(state, {1 - seat}), seat, random.Random(n))
        assert mine == hidden
        checked += 1
    assert checked >= 20
