"""Whole games end to end: simulated camera → watcher → reader → controller → table → record.

The dice games are played by bots on the simulated table (frames rendered, dice read by the real
reader, doubts resolved by the bots as players would); Joust and Stratego through the HTTP API with
each seat's token, as the phones play them. Every record is replayed and must reach the table's
state; no misread may reach the record.
"""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from engine.bots import bot
from engine.record import replay
from kiosk.app import create_app
from kiosk.config import load_config
from kiosk.demo import DemoOptions, run_demo
from kiosk.table import Table

# A whole game renders and reads a few thousand frames: minutes on a loaded machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


@pytest.fixture
def table(tmp_path):
    t = Table(load_config(None, data_dir=str(tmp_path)))
    yield t
    t.log.close()


def _play(table, game, players, seed, **kw):
    stats = run_demo(
        DemoOptions(game=game, players=players, seed=seed, size=(640, 480), **kw), table
    )
    assert table.state.is_over()
    assert table.state.winners()
    assert stats.readings > 0 and stats.frames > stats.readings
    again = replay(table.record_text()).state
    assert again.view() == table.state.view()
    return stats


@pytest.fixture(scope="module")
def strike_game(tmp_path_factory):
    """One whole Strike game, shared by the test that no misread reaches the record and the
    test that the players are seldom asked (its dice lie gathered in a row at the arena's
    centre, the reader's hardest scene of the demo games)."""
    t = Table(load_config(None, data_dir=str(tmp_path_factory.mktemp("strike"))))
    stats = _play(t, "strike", 2, 4)
    dice_actions = sum(1 for line in t.record_text().splitlines()[1:] if '"arena"' in line)
    yield stats, dice_actions
    t.log.close()


def test_strike_no_misread_reaches_the_record_whatever_the_reader(strike_game):
    stats, _ = strike_game
    assert stats.slipped == 0, f"misreads reached the record: {stats.wrong_actions}"


def test_strike_reader_records_most_throws_without_asking(strike_game):
    stats, dice_actions = strike_game
    assert stats.confirmations <= dice_actions // 4


@pytest.mark.parametrize("game, players, seed", [("knister", 2, 3), ("detrak", 2, 6)])
def test_dice_game_through_the_simulated_camera(table, game, players, seed):
    stats = _play(table, game, players, seed)
    assert stats.slipped == 0, f"misreads reached the record: {stats.wrong_actions}"


def test_injected_misreads_are_caught(table):
    opts = DemoOptions(game="knister", players=2, seed=8, size=(640, 480), misread_rate=0.3)
    stats = run_demo(opts, table)
    assert stats.misreads > 0, "the injection must produce misreads to catch"
    assert stats.slipped == 0 and stats.caught == stats.misreads


@pytest.mark.parametrize("game", ["joust", "stratego"])
def test_hidden_information_game_through_the_api(table, game):
    client = TestClient(create_app(table))
    pin = {"x-table-pin": table.pin}
    response = client.post(
        "/api/games", json={"game": game, "players": ["Ana", "Ben"]}, headers=pin
    )
    assert response.status_code == 200, response.text
    tokens = list(table.tokens)
    rng = random.Random(1)
    bots = [bot(game, "greedy"), bot(game, "random")]
    for _ in range(3000):
        state = table.state
        if state.is_over():
            break
        seat = state.turn()[0]
        mine = client.get("/api/state", headers={"x-seat-token": tokens[seat]}).json()
        assert "seq" in mine
        action = bots[seat].act(state, seat, rng)
        sent = client.post(
            "/api/actions",
            json={"line": action.to_json(), "seq": mine["seq"]},
            headers={"x-seat-token": tokens[seat]},
        )
        assert sent.status_code == 200, sent.text
    assert table.state.is_over()
    record = client.get("/api/record", headers=pin).text
    assert replay(record).state.view() == table.state.view()
