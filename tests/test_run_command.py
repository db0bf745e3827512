"""`arbitre run` (the README's main command) starts, answers on its port, and survives kill -9."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from engine.bots import bot
from engine.registry import new_game


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(port: int, path: str, body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        headers={"content-type": "application/json"},
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


def _start(port: int, data: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "kiosk.cli", "run", "--camera", "sim"]
    cmd += ["--port", str(port), "--data", data]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"arbitre run exited: {proc.stderr.read().decode()}")
        try:
            _call(port, "/api/catalog")
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("arbitre run did not answer within 60 s")


@pytest.fixture
def server(tmp_path):
    port = _free_port()
    procs: list[subprocess.Popen] = []

    def start() -> int:
        procs.append(_start(port, str(tmp_path)))
        return port

    yield start, procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def test_run_answers_and_resumes_after_kill_9(server):
    start, procs = server
    port = start()
    status, body = _call(port, "/api/state")
    assert status == 409 and "no game" in body["detail"]
    header = {"game": "stratego", "players": ["Ana", "Ben"]}
    assert _call(port, "/api/games", header)[0] == 200
    game, rng = new_game(header), random.Random(4)
    state, bots = game.initial_state(), [bot("stratego", "greedy"), bot("stratego", "random")]
    for _ in range(30):  # both setups, then moves, each through the API as the phones send them
        seat = state.turn()[0]
        action = bots[seat].act(state, seat, rng)
        status, body = _call(port, "/api/actions", {"line": action.to_json()})
        assert status == 200, body
        state = state.apply(action)
    before = _call(port, "/api/state")[1]
    assert before["seq"] == 30
    procs[-1].send_signal(signal.SIGKILL)
    procs[-1].wait()
    start()
    after = _call(port, "/api/state")[1]
    assert after == before


def test_health_answers_for_the_kiosk_start_script(server):
    start, _ = server
    port = start()
    status, body = _call(port, "/api/health")
    assert status == 200 and body == {"ok": True, "game": None, "seq": 0}
