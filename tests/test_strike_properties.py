"""Property tests: random legal Strike games from the throw model keep every die and always end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import bot, chance
from engine.record import dumps, replay
from engine.strike import FACES, Start, Stop, StrikeGame, Throw

OPTIONS = st.fixed_dictionaries(
    {
        "edition": st.sampled_from(["2012", "2022"]),
        "scoring": st.sampled_from(["last-standing", "points"]),
    }
)


def _conserved(game: StrikeGame, state) -> bool:
    unplaced_start = 1 if state.phase == "start" else 0
    total = sum(state.reserves) + len(state.arena) + state.out_of_game + unplaced_start
    return total == game.dice_in_play


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 5),
    options=OPTIONS,
    kind=st.sampled_from(["random", "greedy"]),
)
def test_random_games_keep_every_die_end_and_replay(seed, players, options, kind):
    rng = random.Random(seed)
    game = StrikeGame([f"p{i}" for i in range(players)], options)
    state, actions = game.initial_state(), []
    player = bot("strike", kind)
    while not state.is_over():
        action = next((a for s in state.turn() if (a := player.act(state, s, rng))), None)
        action = action or chance(state, rng)
        state = state.apply(action)
        actions.append(action)
        assert _conserved(game, state)
        assert all(r >= 0 for r in state.reserves)
        assert len(set(state.arena)) == len(state.arena), "a pair never stays in the arena"
        assert state.phase == "over" or state.turn_seat not in state.eliminated
        assert len(actions) < 20_000, "a game must end"
    assert len(state.winners()) >= 1
    again = replay(dumps(game, actions)).state
    assert again == state
    assert again.view() == state.view()


@given(
    seat=st.integers(0, 4),
    faces=st.lists(st.sampled_from(FACES), min_size=0, max_size=30),
)
def test_every_action_round_trips_through_json(seat, faces):
    game = StrikeGame(["a", "b", "c", "d", "e"])
    for action in (Throw(seat, tuple(faces)), Stop(seat), Start(tuple(faces))):
        assert game.parse_action(action.to_json()) == action
