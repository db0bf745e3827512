"""The kiosk's HTTP API through TestClient: every route, every refusal."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from test_kiosk_fake import HEADER, play_round

from engine.registry import game_class, names
from kiosk.app import create_app
from kiosk.config import Config
from kiosk.table import Table


@pytest.fixture
def table(tmp_path):
    return Table(Config(data_dir=str(tmp_path)))


@pytest.fixture
def client(table):
    with TestClient(create_app(table, trust_local=False)) as c:
        yield c


@pytest.fixture
def admin(table):
    return {"X-Table-Pin": table.pin}


@pytest.fixture
def started(client, admin, table):
    assert client.post("/api/games", json=HEADER, headers=admin).status_code == 200
    return table


def seat_headers(table, seat):
    return {"X-Seat-Token": table.tokens[seat]}


def test_no_game_yet(client, admin) -> None:
    r = client.get("/api/state")
    assert r.status_code == 409 and "/setup" in r.json()["detail"]
    r = client.post("/api/actions", json={"act": "roll", "dice": [1, 2]}, headers=admin)
    assert r.status_code == 409
    assert client.get("/api/snapshot").json()["game"] is None


def test_start_needs_the_pin(client, table) -> None:
    assert client.post("/api/games", json=HEADER).status_code == 403
    r = client.post("/api/games", json=HEADER, headers={"X-Table-Pin": "nope"})
    assert r.status_code == 403 and "PIN" in r.json()["detail"]
    r = client.post(
        "/api/games", json={**HEADER, "players": ["solo"]}, headers={"X-Table-Pin": table.pin}
    )
    assert r.status_code == 422 and "2 players" in r.json()["detail"]
    r = client.post(
        "/api/games",
        json={"game": "nope", "players": ["a", "b"]},
        headers={"X-Table-Pin": table.pin},
    )
    assert r.status_code == 422 and "unknown game" in r.json()["detail"]


def test_state_is_public_view_plus_seq(client, started, admin) -> None:
    r = client.get("/api/state")
    assert r.status_code == 200
    assert r.json() == {**started.state.public_view(), "seq": 0}
    full = client.get("/api/state", headers=admin).json()
    assert full == {**started.state.view(None), "seq": 0}


def test_actions_change_the_state_and_seq(client, started, admin) -> None:
    r = client.post("/api/actions", json={"act": "roll", "dice": [2, 3], "seq": 0}, headers=admin)
    assert r.status_code == 200
    assert r.json()["seq"] == 1 and r.json()["sum"] == 5 and r.json()["waiting"] == [0, 1]
    r = client.post(
        "/api/actions",
        json={"line": {"act": "place", "seat": 0, "cell": 4}, "seq": 1},
        headers=admin,
    )
    assert r.json()["sheets"][0][4] == 5 and r.json()["seq"] == 2


def test_illegal_and_malformed_actions_get_422_with_the_reason(client, started, admin) -> None:
    client.post("/api/actions", json={"act": "roll", "dice": [2, 3]}, headers=admin)
    r = client.post("/api/actions", json={"act": "roll", "dice": [1, 1]}, headers=admin)
    assert r.status_code == 422 and "must write 5 first" in r.json()["detail"]
    r = client.post("/api/actions", json={"act": "fly"}, headers=admin)
    assert r.status_code == 422 and "unknown act" in r.json()["detail"]
    r = client.post("/api/actions", json=[1, 2], headers=admin)
    assert r.status_code == 422 and "JSON object" in r.json()["detail"]
    r = client.post(
        "/api/actions", json={"act": "place", "seat": 0, "cell": 1, "seq": "x"}, headers=admin
    )
    assert r.status_code == 422
    assert client.get("/api/state").json()["seq"] == 1  # nothing was recorded


def test_two_seats_on_one_seq_both_land_a_seats_second_line_is_stale(client, started) -> None:
    """Knister: every seat writes the roll at once (kiosk/late_lines.py)."""
    client.post(
        "/api/actions", json={"act": "roll", "dice": [4, 4]}, headers={"X-Table-Pin": started.pin}
    )
    a = client.post(
        "/api/seats/0/actions",
        json={"act": "place", "seat": 0, "cell": 0, "seq": 1},
        headers=seat_headers(started, 0),
    )
    b = client.post(
        "/api/seats/1/actions",
        json={"act": "place", "seat": 1, "cell": 0, "seq": 1},
        headers=seat_headers(started, 1),
    )
    assert [a.status_code, b.status_code] == [200, 200]
    again = client.post(
        "/api/seats/0/actions",
        json={"act": "place", "seat": 0, "cell": 1, "seq": 1},
        headers=seat_headers(started, 0),
    )
    assert again.status_code == 409 and "stale seq 1" in again.json()["detail"]


def test_anonymous_phones_cannot_act(client, started) -> None:
    r = client.post("/api/actions", json={"act": "roll", "dice": [1, 2]})
    assert r.status_code == 403 and "QR code" in r.json()["detail"]
    assert client.post("/api/undo").status_code == 403


def test_a_seat_acts_only_for_itself(client, started) -> None:
    client.post(
        "/api/actions", json={"act": "roll", "dice": [1, 2]}, headers={"X-Table-Pin": started.pin}
    )
    r = client.post(
        "/api/actions",
        json={"act": "place", "seat": 1, "cell": 0},
        headers=seat_headers(started, 0),
    )
    assert r.status_code == 403 and "seat 0" in r.json()["detail"]
    r = client.post(
        "/api/seats/1/actions",
        json={"act": "place", "seat": 1, "cell": 0},
        headers=seat_headers(started, 0),
    )
    assert r.status_code == 403
    r = client.post(
        "/api/actions",
        json={"act": "place", "seat": 0, "cell": 0},
        headers=seat_headers(started, 0),
    )
    assert r.status_code == 200 and r.json()["sheets"][0][0] == 3


def test_wrong_token_403_everywhere(client, started) -> None:
    bad = {"X-Seat-Token": "not-a-token"}
    for method, url in [
        ("get", "/api/state"),
        ("get", "/api/snapshot"),
        ("get", "/api/events?limit=1"),
        ("get", "/api/seats/0/state"),
        ("get", "/api/seats/0/snapshot"),
        ("post", "/api/seats/0/actions"),
        ("post", "/api/actions"),
    ]:
        kwargs = {"json": {"act": "roll", "dice": [1, 1]}} if method == "post" else {}
        assert getattr(client, method)(url, headers=bad, **kwargs).status_code == 403, url
    assert client.get(f"/api/state?token={started.tokens[0]}x").status_code == 403
    assert client.get("/api/seats/0/state").status_code == 403  # no token at all


def test_secrets_never_leak_to_another_seat(client, started) -> None:
    t0, t1 = seat_headers(started, 0), seat_headers(started, 1)
    secret = [6, 2, 5, 1, 4, 3]
    assert (
        client.post(
            "/api/seats/0/actions", json={"act": "stack", "seat": 0, "cards": secret}, headers=t0
        ).status_code
        == 200
    )
    assert client.get("/api/seats/0/state", headers=t0).json()["stacks"][0] == secret
    readings = [
        client.get("/api/seats/1/state", headers=t1).text,
        client.get("/api/state", headers=t1).text,
        client.get("/api/seats/1/snapshot", headers=t1).text,
        client.get("/api/snapshot", headers=t1).text,
        client.get("/api/state").text,
        client.get("/api/snapshot").text,
        client.get("/api/events?limit=1", headers=t1).text,
        client.get("/api/events?limit=1").text,
    ]
    pattern = json.dumps(secret)[1:-1]  # "6, 2, 5, 1, 4, 3"
    for text in readings:
        assert pattern not in text and pattern.replace(" ", "") not in text, text[:300]
    assert client.get("/api/seats/0/state", headers=t1).status_code == 403
    assert client.get("/api/record", headers=t1).status_code == 403
    assert client.get("/api/record").status_code == 403
    history = client.get("/api/snapshot", headers=t0).json()["history"]
    assert history[-1]["line"]["cards"] == secret  # its own seat sees its line


def test_undo_last_placement_but_never_dice(client, started, admin) -> None:
    client.post("/api/actions", json={"act": "roll", "dice": [1, 2]}, headers=admin)
    r = client.post("/api/undo", headers=admin)
    assert r.status_code == 422 and "dice outcome" in r.json()["detail"]
    client.post("/api/actions", json={"act": "place", "seat": 0, "cell": 3}, headers=admin)
    r = client.post("/api/undo", json={"seq": 2}, headers=admin)
    assert r.status_code == 200 and r.json()["sheets"][0][3] is None and r.json()["seq"] == 3
    assert client.post("/api/undo", json={"seq": 2}, headers=admin).status_code == 409


def test_a_seat_undoes_only_its_own_placement(client, started, admin) -> None:
    client.post("/api/actions", json={"act": "roll", "dice": [1, 2]}, headers=admin)
    client.post("/api/actions", json={"act": "place", "seat": 1, "cell": 3}, headers=admin)
    r = client.post("/api/undo", headers=seat_headers(started, 0))
    assert r.status_code == 403 and "its own" in r.json()["detail"]
    r = client.post("/api/undo", headers=seat_headers(started, 1))
    assert r.status_code == 200 and r.json()["sheets"][1][3] is None


def test_record_download_and_import(client, started, admin) -> None:
    play_round(lambda line: client.post("/api/actions", json=line, headers=admin), 1, 2, (0, 1))
    r = client.get("/api/record", headers=admin)
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    lines = [json.loads(x) for x in r.text.splitlines()]
    assert lines[0]["game"] == "kfake" and [x["act"] for x in lines[1:]] == [
        "roll",
        "place",
        "place",
    ]
    r = client.post("/api/games/import", content=r.text, headers=admin)
    assert r.status_code == 200 and r.json()["seq"] == 3 and r.json()["sheets"][1][1] == 3
    assert started.tokens and started.game_id == 2
    bad = '{"game": "kfake", "players": ["A", "B"]}\n{"act": "place", "seat": 0, "cell": 0}\n'
    r = client.post("/api/games/import", content=bad, headers=admin)
    assert r.status_code == 422 and r.json()["detail"].startswith("line 2: seat 0 has nothing")
    assert client.post("/api/games/import", content=bad).status_code == 403
    assert started.game_id == 2  # the bad import changed nothing


def test_catalog_lists_installed_games_and_options(client) -> None:
    cat = client.get("/api/catalog").json()
    assert list(cat) == names() and cat, "no game engine installed"
    for name, entry in cat.items():
        cls = game_class(name)
        assert entry["min_players"] == cls.min_players and entry["max_players"] == cls.max_players
        assert {k: v["default"] for k, v in entry["options"].items()} == {
            k: spec.default for k, spec in cls.options_spec.items()
        }


def test_events_snapshot_then_replay_after_last_event_id(client, started, admin) -> None:
    first = _sse(client.get("/api/events?limit=1"))
    assert len(first) == 1 and first[0]["data"]["kind"] == "snapshot"
    last_id = first[0]["id"]
    play_round(lambda line: client.post("/api/actions", json=line, headers=admin), 3, 3, (2, 2))
    missed = _sse(client.get("/api/events?limit=3", headers={"Last-Event-ID": last_id}))
    assert [m["data"]["seq"] for m in missed] == [1, 2, 3]
    assert [m["data"]["kind"] for m in missed] == ["action"] * 3
    assert (
        _sse(client.get("/api/events?limit=1", headers={"Last-Event-ID": "old.5"}))[0]["data"][
            "seq"
        ]
        == 3
    )


def test_qr_code_only_for_the_table_screen(client, started, admin) -> None:
    assert client.get("/api/seats/0/qr.svg").status_code == 403
    r = client.get("/api/seats/1/qr.svg", headers=admin)
    assert r.status_code == 200 and r.text.startswith("<svg")
    assert r.headers["x-seat-url"].endswith(f"/seat/1?t={started.tokens[1]}")
    assert client.get("/api/seats/5/qr.svg", headers=admin).status_code == 404


def test_pages_and_openapi(client) -> None:
    for url, marker in [("/", "table.js"), ("/seat/0", "seat.js"), ("/setup", "setup.js")]:
        r = client.get(url)
        assert r.status_code == 200 and marker in r.text, url
    for name in ("table.js", "seat.js", "setup.js", "common.js", "games.js", "kiosk.css"):
        assert client.get(f"/static/{name}").status_code == 200, name
    spec = client.get("/openapi.json").json()
    for path in ("/api/games", "/api/state", "/api/actions", "/api/events", "/api/record"):
        assert path in spec["paths"], path
    strings = client.get("/api/i18n").json()["strings"]
    assert strings["check_title"]["fr"] == "À vérifier"


def test_go_on_tells_the_table(client, started) -> None:
    assert client.post("/api/seats/1/go-on", headers=seat_headers(started, 1)).status_code == 200
    assert client.get("/api/snapshot").json()["notices"][-1]["text"] == "go_on:1"


def _sse(response) -> list[dict]:
    assert response.status_code == 200, response.text
    out = []
    for block in response.text.split("\n\n"):
        fields = dict(
            line.split(": ", 1)
            for line in block.splitlines()
            if ": " in line and not line.startswith(":")
        )
        if "data" in fields:
            out.append({"id": fields["id"], "data": json.loads(fields["data"])})
    return out


def test_a_joust_track_where_the_knights_never_meet_is_refused(client, admin) -> None:
    long = {"game": "joust", "players": ["A", "B"], "options": {"track": 43}}
    r = client.post("/api/games", json=long, headers=admin)
    assert r.status_code == 422
    assert "au plus 42" in r.json()["detail"] and "42 at most" in r.json()["detail"]
    ok = {"game": "joust", "players": ["A", "B"], "options": {"track": 42}}
    assert client.post("/api/games", json=ok, headers=admin).status_code == 200
