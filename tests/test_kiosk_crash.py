"""The real server in a subprocess: kill -9 mid-game, restart, same state and seq; two phones
posting on the same seq at the same moment get one 200 and one 409."""

from __future__ import annotations

import json
import random
import threading

import httpx
from test_kiosk_fake import KioskServer

from engine import bots
from engine.record import replay
from engine.registry import new_game

HEADER = {"game": "knister", "players": ["Ana", "Ben", "Cy"]}


def _lines(count: int) -> list[dict]:
    """A legal Knister game's first lines, from the engine's own bots."""
    state, rng, out = new_game(HEADER).initial_state(), random.Random(11), []
    while len(out) < count:
        if state.dice():
            action = bots.chance(state, rng)
        else:
            action = bots.bot("knister", "random").act(state, state.turn()[0], rng)
        out.append(action.to_json())
        state = state.apply(action)
    return out


def test_kill_9_mid_game_loses_nothing_that_got_a_200(tmp_path) -> None:
    lines = _lines(80)
    server = KioskServer(tmp_path).start()
    try:
        c = httpx.Client(base_url=server.url, timeout=10)
        assert c.post("/api/games", json=HEADER).status_code == 200
        qr_urls = [c.get(f"/api/seats/{i}/qr.svg").headers["x-seat-url"] for i in range(3)]
        for line in lines[:20]:
            assert c.post("/api/actions", json=line).status_code == 200
        before = c.get("/api/state").json()
        ok = _post_while_killed(server, lines[20:])
    finally:
        server.stop()
    assert before["seq"] == 20 and ok >= 1
    restarted = KioskServer(tmp_path, port=server.port).start()
    try:
        c = httpx.Client(base_url=restarted.url, timeout=10)
        after = c.get("/api/state").json()
        # every action that got a 200 is there; at most one more (committed, answer lost)
        assert after["seq"] in (20 + ok, 20 + ok + 1)
        record = c.get("/api/record").text.splitlines()
        assert [json.loads(x) for x in record[1:]] == lines[: after["seq"]]
        expected = replay([json.dumps(HEADER), *map(json.dumps, lines[: after["seq"]])]).state
        assert {k: v for k, v in after.items() if k != "seq"} == expected.public_view()
        # the phones' QR codes still work, and the game goes on from there
        assert [c.get(f"/api/seats/{i}/qr.svg").headers["x-seat-url"] for i in range(3)] == qr_urls
        nxt = lines[after["seq"]]
        r = c.post("/api/actions", json={**nxt, "seq": after["seq"]})
        assert r.status_code == 200 and r.json()["seq"] == after["seq"] + 1
    finally:
        restarted.stop()


def _post_while_killed(server: KioskServer, lines: list[dict]) -> int:
    """Post lines one after another from a thread; SIGKILL the server once 10 got their 200,
    while the next ones are in flight. Returns how many got a 200."""
    done = {"ok": 0}
    tenth = threading.Event()

    def post_all() -> None:
        with httpx.Client(base_url=server.url, timeout=5) as c:
            for line in lines:
                try:
                    response = c.post("/api/actions", json=line)
                except httpx.HTTPError:
                    return
                assert response.status_code == 200
                done["ok"] += 1
                if done["ok"] == 10:
                    tenth.set()

    poster = threading.Thread(target=post_all)
    poster.start()
    assert tenth.wait(20)
    server.kill()
    poster.join(10)
    assert done["ok"] < len(lines), "the kill came after the last post"
    return done["ok"]


def test_two_phones_on_the_same_seq_both_land(tmp_path) -> None:
    """Two seats tapping one Knister roll at the same moment, through the real server: both
    lines are recorded, one after the other (kiosk/late_lines.py)."""
    with KioskServer(tmp_path) as server:
        c = httpx.Client(base_url=server.url, timeout=10)
        c.post("/api/games", json={"game": "knister", "players": ["Ana", "Ben"]})
        c.post("/api/actions", json={"act": "roll", "dice": [2, 2]})
        urls = [c.get(f"/api/seats/{i}/qr.svg").headers["x-seat-url"] for i in range(2)]
        tokens = [u.split("?t=")[1] for u in urls]
        barrier, results = threading.Barrier(2), [None, None]

        def tap(seat: int) -> None:
            with httpx.Client(base_url=server.url, timeout=10) as phone:
                barrier.wait()
                results[seat] = phone.post(
                    f"/api/seats/{seat}/actions",
                    json={"act": "place", "seat": seat, "cell": [0, 0], "seq": 1},
                    headers={"X-Seat-Token": tokens[seat]},
                ).status_code

        threads = [threading.Thread(target=tap, args=(s,)) for s in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == [200, 200]
        assert c.get("/api/state").json()["seq"] == 3
