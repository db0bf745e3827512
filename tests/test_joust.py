"""Joust rules: meetings on a cross and on a level finish, scoring, ties at 6, void jousts, errors."""

from __future__ import annotations

import random

import pytest

from engine.core import BadRecord, IllegalAction
from engine.joust import JoustGame, Reveal, Stack, joust_points
from engine.joust_bots import BOTS, joust_margin, ranked_stacks
from engine.record import dumps, replay


def game(track: int = 24) -> JoustGame:
    return JoustGame(["Ana", "Ben"], {"track": track})


def stacked(g: JoustGame, a, b):
    return g.initial_state().apply(Stack(0, tuple(a))).apply(Stack(1, tuple(b)))


def reveal(state, times: int = 1):
    for _ in range(times):
        state = state.apply(Reveal())
    return state


def joust(state, a, b, reveals: int = 1):
    """Stack both seats and reveal: one whole joust on a short track."""
    return reveal(state.apply(Stack(0, tuple(a))).apply(Stack(1, tuple(b))), reveals)


HIGH0 = (6, 5, 4, 3, 2, 1)


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ((1, 6), (6, 0)),
        ((6, 1), (0, 6)),
        ((3, 3), (1, 1)),
        ((1, 1), (1, 1)),
        ((6, 6), (1, 1)),
        ((5, 2), (2, 0)),
        ((2, 5), (0, 2)),
        ((1, 2), (0, 2)),
        ((6, 5), (2, 0)),
    ],
)
def test_joust_points(cards, points) -> None:
    assert joust_points(*cards) == points


def test_meeting_on_a_cross() -> None:
    g = game(24)
    s = reveal(stacked(g, (6, 5, 4, 1, 2, 3), (6, 5, 3, 1, 2, 4)), 2)
    assert s.phase == "reveal" and s.positions == (11, 11)  # 22 < 24: not met yet
    s = reveal(s)  # 15 + 14 = 29: the knights cross
    assert s.view()["last_joust"] == {"cards": [4, 3], "points": [2, 0], "void": False}
    assert s.phase == "stack" and s.positions == (0, 0) and s.points == (2, 0)
    assert s.jousts == 1 and s.view()["played"] == [[], []]


def test_meeting_on_a_level_finish() -> None:
    g = game(24)
    s = reveal(stacked(g, (6, 5, 2, 1, 3, 4), (6, 4, 1, 2, 3, 5)), 2)
    assert s.positions == (11, 10)
    s = reveal(s)  # 13 + 11 = 24 exactly: level
    assert s.last_joust.cards == (2, 1) and s.points == (2, 0)


def test_no_meeting_before_the_track_is_covered() -> None:
    s = reveal(stacked(game(24), (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)), 3)
    assert s.phase == "reveal" and s.positions == (6, 6) and s.played == ((1, 2, 3), (1, 2, 3))


def test_one_unhorses_six_and_wins_at_once() -> None:
    s = joust(game(2).initial_state(), (1, 2, 3, 4, 5, 6), (6, 5, 4, 3, 2, 1))
    assert s.is_over() and s.winner == 0 and s.points == (6, 0) and s.winners() == (0,)


def test_six_against_one_gives_six_to_the_one_either_seat() -> None:
    s = joust(game(2).initial_state(), HIGH0, (1, 2, 3, 4, 5, 6))
    assert s.points == (0, 6) and s.winner == 1


def test_level_at_six_jousts_again_until_one_leads() -> None:
    s = game(2).initial_state()
    for _ in range(6):
        s = joust(s, HIGH0, HIGH0)  # equal cards: 1 each
    assert s.points == (6, 6) and not s.is_over() and s.phase == "stack"
    s = joust(s, HIGH0, (5, 6, 4, 3, 2, 1))
    assert s.points == (8, 6) and s.is_over() and s.winner == 0


def test_six_reached_with_a_lead_ends_the_game() -> None:
    s = game(2).initial_state()
    for _ in range(3):
        s = joust(s, HIGH0, (5, 6, 4, 3, 2, 1))
    assert s.points == (6, 0) and s.winner == 0 and s.turn() == ()
    with pytest.raises(IllegalAction, match="game is over"):
        s.apply(Stack(0, HIGH0))


def test_void_joust_on_a_long_track() -> None:
    s = reveal(stacked(game(43), HIGH0, HIGH0), 5)
    assert s.phase == "reveal" and s.positions == (20, 20)
    s = reveal(s)  # 42 < 43 after six cards each
    assert s.phase == "stack" and s.points == (0, 0) and s.jousts == 1 and s.voids == 1
    assert s.view()["last_joust"] == {"cards": None, "points": [0, 0], "void": True}


def test_sixth_reveal_always_meets_on_a_track_of_42() -> None:
    s = reveal(stacked(game(42), HIGH0, (1, 2, 3, 4, 5, 6)), 6)
    assert s.voids == 0 and s.last_joust.cards == (1, 6) and s.points == (6, 0)


def test_turn_and_legal_actions_per_phase() -> None:
    s = game().initial_state()
    assert s.turn() == (0, 1) and len(s.legal_actions()) == 1440
    s = s.apply(Stack(1, HIGH0))
    assert s.turn() == (0,) and len(s.legal_actions()) == 720
    assert {a.seat for a in s.legal_actions()} == {0}
    s = s.apply(Stack(0, HIGH0))
    assert s.turn() == (0, 1) and s.legal_actions() == [Reveal()]


def test_reveal_before_both_stacks_names_the_missing_seat() -> None:
    s = game().initial_state().apply(Stack(0, HIGH0))
    with pytest.raises(IllegalAction, match="waiting for seat 1"):
        s.apply(Reveal())


def test_stacking_twice_is_refused() -> None:
    s = game().initial_state().apply(Stack(0, HIGH0))
    with pytest.raises(IllegalAction, match="seat 0 has already stacked"):
        s.apply(Stack(0, HIGH0))
    with pytest.raises(IllegalAction, match="expected a reveal"):
        s.apply(Stack(1, HIGH0)).apply(Stack(1, HIGH0))


@pytest.mark.parametrize(
    "cards", [[1, 2, 3, 4, 5], [1, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], ["1", 2, 3, 4, 5, 6], 7]
)
def test_stack_must_be_the_six_cards(cards) -> None:
    with pytest.raises(BadRecord, match="cards"):
        game().parse_action({"act": "stack", "seat": 0, "cards": cards})


def test_track_option_bounds() -> None:
    with pytest.raises(BadRecord, match="at least 1"):
        game(0)
    with pytest.raises(BadRecord, match="at most 60"):
        game(61)
    assert JoustGame(["A", "B"]).options == {"track": 24}


def test_seat_view_shows_own_stack_only() -> None:
    s = reveal(stacked(game(), HIGH0, (1, 2, 3, 4, 5, 6)))
    assert s.view(0)["stack"] == [5, 4, 3, 2, 1] and "stacks" not in s.view(0)
    assert s.view(1)["stack"] == [2, 3, 4, 5, 6] and "stacks" not in s.view(1)
    assert s.view()["stacks"] == [[5, 4, 3, 2, 1], [2, 3, 4, 5, 6]]
    public = s.public_view()
    assert "stack" not in public and "stacks" not in public
    assert public["played"] == [[6], [1]] and public["positions"] == [6, 1]


def test_record_round_trip_and_error_line() -> None:
    g = game()
    actions = [Stack(0, HIGH0), Stack(1, (2, 1, 3, 4, 5, 6)), Reveal()]
    text = dumps(g, actions)
    assert replay(text).state.played == ((6,), (2,))
    assert [g.parse_action(a.to_json()) for a in actions] == actions


def test_greedy_stack_ranking_beats_its_own_worst() -> None:
    ranked = ranked_stacks(24)
    assert len(ranked) == 720 and len(set(ranked)) == 720
    rng = random.Random(5)
    others = [tuple(rng.sample(range(1, 7), 6)) for _ in range(300)]
    best = sum(joust_margin(ranked[0], o, 24) for o in others)
    worst = sum(joust_margin(ranked[-1], o, 24) for o in others)
    assert best > worst


def _play(kinds, seed: int, track: int = 24):
    g = game(track)
    rng, bots, s = random.Random(seed), [BOTS[k]() for k in kinds], g.initial_state()
    while not s.is_over():
        seat = s.turn()[0]
        s = s.apply(bots[seat].act(s, seat, rng))
    return s


def test_greedy_beats_random_more_often_than_not() -> None:
    # about 66% measured over 600 games; 55% leaves room for any seed
    wins = sum(_play(("greedy", "random"), seed).winner == 0 for seed in range(300))
    assert wins > 165


def test_bots_only_act_when_their_seat_may() -> None:
    s = game().initial_state().apply(Stack(0, HIGH0))
    for kind in BOTS:
        assert BOTS[kind]().act(s, 0, random.Random(1)) is None
        assert isinstance(BOTS[kind]().act(s, 1, random.Random(1)), Stack)
        assert BOTS[kind]().act(s.apply(Stack(1, HIGH0)), 0, random.Random(1)) == Reveal()


def test_a_stack_built_in_python_is_checked_too() -> None:
    with pytest.raises(IllegalAction, match="six cards 1..6"):
        game().initial_state().apply(Stack(0, (1, 1, 2, 3, 4, 5)))
