"""The table session without HTTP (as the camera controllers use it), the «À vérifier» routes,
and the real games' secrets through every endpoint."""

from __future__ import annotations

import asyncio
import json
import random
import threading

import pytest
from fastapi.testclient import TestClient
from test_kiosk_fake import HEADER, play_round

from engine import bots
from engine.core import IllegalAction
from engine.registry import new_game
from kiosk.app import create_app
from kiosk.config import Config
from kiosk.eventlog import EventLog
from kiosk.table import NoGame, StaleSeq, Table

DICE = [
    {"face": 4, "x": 10, "y": 10, "size": 30, "in_arena": True, "cocked": False, "confidence": 0.9},
    {
        "face": None,
        "x": 60,
        "y": 10,
        "size": 30,
        "in_arena": True,
        "cocked": True,
        "confidence": 0.1,
    },
    {
        "face": 6,
        "x": 300,
        "y": 10,
        "size": 30,
        "in_arena": False,
        "cocked": False,
        "confidence": 0.9,
    },
]


@pytest.fixture
def table(tmp_path):
    t = Table(Config(data_dir=str(tmp_path)))
    t.new_game(HEADER)
    return t


def test_resume_rebuilds_actions_and_undos_exactly(tmp_path, table) -> None:
    table.submit({"act": "stack", "seat": 1, "cards": [1, 2, 3]})
    play_round(table.submit, 2, 5, (0, 8))
    table.submit({"act": "roll", "dice": [1, 1]})
    table.submit({"act": "place", "seat": 1, "cell": 4})
    table.undo()
    pin, tokens, view, seq = table.pin, table.tokens, table.state.view(), table.seq
    again = Table(Config(data_dir=str(tmp_path)))
    assert (again.pin, again.tokens, again.state.view(), again.seq) == (pin, tokens, view, seq)
    assert seq == 7 and again.record_text() == table.record_text()


def test_a_log_row_that_no_longer_applies_stops_resume_and_says_so(tmp_path, table) -> None:
    table.submit({"act": "roll", "dice": [1, 2]})
    log = EventLog(tmp_path / "arbitre.sqlite")
    log.append(table.game_id, 2, "action", {"act": "roll", "dice": [3, 3]}, "camera")
    again = Table(Config(data_dir=str(tmp_path)))
    assert again.seq == 1 and "no longer applies" in again.snapshot()["notices"][-1]["text"]


def test_submit_errors(tmp_path, table) -> None:
    with pytest.raises(StaleSeq):
        table.submit({"act": "roll", "dice": [1, 2]}, seq=3)
    with pytest.raises(IllegalAction, match="nothing to write"):
        table.submit({"act": "place", "seat": 0, "cell": 0})
    with pytest.raises(NoGame):
        Table(Config(data_dir=str(tmp_path / "empty"))).submit({"act": "roll", "dice": [1, 2]})
    assert table.seq == 0


def test_listeners_hear_every_change_from_any_thread(table) -> None:
    heard = []
    table.add_listener(lambda event: heard.append((event.kind, event.moment.seq)))
    worker = threading.Thread(target=table.submit, args=({"act": "roll", "dice": [1, 2]},))
    worker.start()
    worker.join()
    table.notice("dice_moved_off_turn")
    table.set_frame(b"\xff\xd8jpeg", DICE)
    assert heard == [("action", 1), ("notice", 1), ("frame", 1)]


def test_async_subscribers_get_events_made_in_other_threads_in_order(table) -> None:
    async def follow() -> list[int]:
        queue, first = table.subscribe(asyncio.get_running_loop())
        assert first[0].kind == "snapshot"
        thread = threading.Thread(target=play_round, args=(table.submit, 1, 2, (0, 1)))
        thread.start()
        got = [(await asyncio.wait_for(queue.get(), 5)).moment.seq for _ in range(3)]
        thread.join()
        table.unsubscribe(queue)
        return got

    assert asyncio.run(follow()) == [1, 2, 3]


def test_propose_fix_confirm_records_only_the_checked_reading(table) -> None:
    check = table.propose({"act": "roll", "dice": [4, None]}, ["cocked"], b"jpg", DICE)
    assert table.pending is check and table.seq == 0 and check.kind == "pips"
    with pytest.raises(IllegalAction, match="die 1 is unread"):
        table.confirm(check.id)
    with pytest.raises(IllegalAction, match="face must be one of"):
        table.fix_die(check.id, 1, 9)
    table.fix_die(check.id, 1, 3)
    assert check.line == {"act": "roll", "dice": [4, 3]}  # the die outside the arena is not counted
    with pytest.raises(StaleSeq):
        table.confirm(check.id + 1)
    table.confirm(check.id)
    assert table.pending is None and table.state.view()["sum"] == 7 and table.seq == 1


def test_the_dice_asked_about_are_marked_for_the_pages(table) -> None:
    """The pages draw red the dice the table asks about: cocked, unread, or under CONFIDENT
    (0.9), as the server decides, so a die read at 0.85 is marked too; a die fixed by a tap is
    no longer marked. The live frame's dice are marked the same way."""
    unsure = {**DICE[0], "x": 120, "confidence": 0.85}
    check = table.propose({"act": "roll", "dice": [4, None, 4]}, ["cocked"], None, DICE + [unsure])
    shown = table.snapshot()["check"]["dice"]
    assert [d["doubt"] for d in shown] == [False, True, False, True]
    assert "doubt" not in check.dice[0]  # the reading itself is kept as read
    table.fix_die(check.id, 3, 5)
    assert [d["doubt"] for d in table.snapshot()["check"]["dice"]] == [False, True, False, False]
    table.set_frame(b"\xff\xd8jpeg", [unsure, DICE[0]])
    assert [d["doubt"] for d in table.snapshot()["frame"]["dice"]] == [True, False]


def test_reroll_closes_the_check_without_recording(table) -> None:
    check = table.propose({"act": "roll", "dice": [4, None]}, ["cocked"], None, DICE)
    table.reroll(check.id)
    assert table.pending is None and table.seq == 0
    assert table.snapshot()["notices"][-1]["text"] == "reroll_notice"
    with pytest.raises(IllegalAction, match="no reading"):
        table.reroll(check.id)


def test_check_routes(table) -> None:
    with TestClient(create_app(table, trust_local=False)) as client:
        assert client.get("/api/check").json() is None
        assert client.get("/api/check/frame.jpg").status_code == 404
        assert client.get("/api/frame.jpg").status_code == 404
        check = table.propose({"act": "roll", "dice": [4, None]}, ["x"], b"\xff\xd8pic", DICE)
        assert client.get("/api/check").json()["faces"] == [1, 2, 3, 4, 5, 6]
        assert client.get("/api/check/frame.jpg").content == b"\xff\xd8pic"
        body = {"check": check.id, "index": 1, "face": 2}
        assert client.post("/api/check/die", json=body).status_code == 403  # anonymous phone
        pin = {"X-Table-Pin": table.pin}
        token = {"X-Seat-Token": table.tokens[1]}
        r = client.post("/api/check/confirm", json={"check": check.id}, headers=pin)
        assert r.status_code == 422 and "unread" in r.json()["detail"]
        r = client.post("/api/check/die", json=body, headers=token)
        assert r.status_code == 200 and r.json()["line"]["dice"] == [4, 2]
        r = client.post("/api/check/confirm", json={"check": check.id}, headers=token)
        assert r.status_code == 200 and r.json()["sum"] == 6
        assert (
            client.post("/api/check/reroll", json={"check": check.id}, headers=pin).status_code
            == 422
        )
        table.set_frame(b"\xff\xd8frame", DICE)
        assert client.get("/api/frame.jpg").content == b"\xff\xd8frame"
        assert client.get("/api/snapshot").json()["frame"]["dice"][1]["cocked"] is True


def _secret_game(table: Table, name: str) -> None:
    """Both seats set their secrets through the engine's bots, then play a few turns."""
    rng = random.Random(2)
    table.new_game({"game": name, "players": ["Ana", "Ben"]})
    for _ in range(2 if name == "stratego" else 3):
        state = table.state
        action = bots.chance(state, rng) if state.dice() else None
        action = action or bots.bot(name, "random").act(state, state.turn()[0], rng)
        table.submit(action.to_json())


@pytest.mark.parametrize("name", ["joust", "stratego"])
def test_real_secrets_never_reach_the_other_seat(table, name) -> None:
    new_game({"game": name, "players": ["a", "b"]})  # the engine is installed
    _secret_game(table, name)
    secret = {"joust": "cards", "stratego": "squares"}[name]
    lines = [json.loads(x) for x in table.record_text().splitlines()[1:]]
    seat0 = next(x for x in lines if x.get("seat") == 0 and secret in x)
    hidden = table.state.view(0)
    with TestClient(create_app(table, trust_local=False)) as client:
        t1 = {"X-Seat-Token": table.tokens[1]}
        texts = [
            client.get(url, headers=h).text
            for url in ("/api/state", "/api/snapshot", "/api/events?limit=1")
            for h in (t1, {})
        ] + [client.get("/api/seats/1/state", headers=t1).text]
        texts.append(client.get("/api/seats/1/snapshot", headers=t1).text)
        assert client.get("/api/seats/0/state", headers=t1).status_code == 403
        assert client.get("/api/record", headers=t1).status_code == 403
    if name == "joust":
        mine = json.dumps(hidden["stack"])
        assert all(f'"stack": {mine}' not in t for t in texts)
    else:
        ranks = {sq: p[1] for sq, p in table.state.view(None)["board"].items() if p[0] == 0}
        assert len(ranks) == 40
        for text in texts:
            board = _board_of(text)
            assert all(board[sq] == [0, None] for sq in ranks), "a rank of seat 0 leaked"
    for text in texts:
        assert json.dumps(seat0[secret], ensure_ascii=False) not in text


def _board_of(text: str) -> dict:
    data = json.loads(text.split("data: ", 1)[1]) if text.startswith("retry") else json.loads(text)
    state = data.get("state", data)
    return state.get("board", {})


def test_a_seat_stream_ends_when_another_game_starts(table) -> None:
    from kiosk.routes.events import GONE, _stream

    async def follow() -> list[str]:
        queue, first = table.subscribe(asyncio.get_running_loop())
        stream = _stream(table, 1, queue, first, None, table.game_id)
        got = [await anext(stream), await anext(stream)]  # retry, snapshot
        threading.Thread(target=table.new_game, args=(HEADER,)).start()
        got += [msg async for msg in stream]
        return got

    messages = asyncio.run(asyncio.wait_for(follow(), 5))
    assert messages[1].startswith("id: ") and '"seat": 1' in messages[1]
    assert messages[2:] == [GONE]
