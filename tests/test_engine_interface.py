"""The promises of the engine interface, checked on every registered game (OpenSpiel's generic test).

Games land one by one; each registered game is played at random by its own bots and dice and must
keep the interface's word: immutable states, turn() and dice() consistent, JSON round trips, a
replay that reaches the same state, errors that are IllegalAction with a reason.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine import registry
from engine.bots import bot, chance
from engine.core import Action, BadRecord, IllegalAction
from engine.record import dumps, replay

PLAYERS = {"strike": 3, "knister": 2, "detrak": 2, "joust": 2, "stratego": 2}


def _play(name: str, seed: int, limit: int = 3000):
    rng = random.Random(seed)
    game = registry.new_game({"game": name, "players": [f"p{i}" for i in range(PLAYERS[name])]})
    player = bot(name, "random")
    state, actions = game.initial_state(), []
    while not state.is_over() and len(actions) < limit:
        action = next((a for s in state.turn() if (a := player.act(state, s, rng))), None)
        if action is None:
            assert state.dice() is not None, f"{name}: nobody acts and no dice are expected"
            action = chance(state, rng)
        before = json.dumps(state.view(), sort_keys=True)
        nxt = state.apply(action)
        assert json.dumps(state.view(), sort_keys=True) == before, "apply must not mutate"
        assert game.parse_action(json.loads(json.dumps(action.to_json()))) == action
        state = nxt
        actions.append(action)
    return game, state, actions


@pytest.mark.parametrize("name", registry.names())
def test_random_games_keep_the_interface_promises(name):
    for seed in range(3):
        game, state, actions = _play(name, seed)
        assert state.is_over(), f"{name} did not end in {len(actions)} actions"
        assert state.winners(), "a finished game names its winners"
        assert replay(dumps(game, actions)).state.view() == state.view()
        for seat in range(game.num_players):
            json.dumps(state.view(seat))
        json.dumps(state.public_view())


@pytest.mark.parametrize("name", registry.names())
def test_foreign_actions_are_refused_with_a_reason(name):
    game = registry.new_game({"game": name, "players": [f"p{i}" for i in range(PLAYERS[name])]})
    with pytest.raises(BadRecord, match="unknown act"):
        game.parse_action({"act": "teleport"})
    with pytest.raises(BadRecord, match="JSON object"):
        game.parse_action(["act"])


def test_illegal_action_is_a_value_error_with_its_reason():
    game = registry.new_game({"game": "strike", "players": ["a", "b"]})
    stop = game.parse_action({"act": "stop", "seat": 0})
    with pytest.raises(IllegalAction, match="start die comes first") as info:
        game.initial_state().apply(stop)
    assert isinstance(info.value, ValueError)
    assert isinstance(stop, Action)


def test_replay_cli_exit_status_and_stderr(tmp_path):
    record = tmp_path / "game.jsonl"
    record.write_text(
        '{"game": "strike", "players": ["Ana", "Ben"]}\n'
        '{"act": "start", "arena": [4]}\n'
        '{"act": "stop", "seat": 0}\n',
        encoding="utf-8",
    )
    cmd = [sys.executable, "-m", "kiosk.cli", "replay", str(record)]
    bad = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert (
        bad.stderr
        == "line 3: seat 0 must throw a die first: the first throw of a turn is mandatory\n"
    )
    record.write_text("\n".join(record.read_text().splitlines()[:2]) + "\n", encoding="utf-8")
    good = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert good.returncode == 0
    assert json.loads(good.stdout)["arena"] == [4]
