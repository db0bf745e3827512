"""Soak `arbitre run --camera sim`: a Strike game set up through the API, in real time, watched
for stalls.

The real command runs in a subprocess (its own data folder and port); a Strike game is started
with POST /api/games, and the soak plays the players' part through the API only: when the table
asks («À vérifier») it confirms the proposed reading, or closes the check when the rules refuse it
(it cannot see the simulated dice, as a person at the kiosk would). A stall is a stretch of
`--stall` seconds in which the record does not move while no check is open: the simulated hand
waits for the table, which waits for dice. Each stall is printed with the table's last notices.

    .venv/bin/python bench/soak_run_sim.py [--minutes 4] [--players 3] [--stall 30]
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answer(client: httpx.Client, check: dict) -> None:
    """Confirm what the table proposes; if it cannot be recorded, close the check."""
    sent = client.post("/api/check/confirm", json={"check": check["id"]})
    if sent.status_code != 200:
        client.post("/api/check/reroll", json={"check": check["id"]}).raise_for_status()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4.0)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--stall", type=float, default=30.0, help="seconds without progress")
    args = parser.parse_args()
    port = _port()
    with tempfile.TemporaryDirectory(prefix="arbitre-soak-") as data:
        command = [sys.executable, "-m", "kiosk.cli", "run", "--camera", "sim"]
        command += ["--port", str(port), "--data", data]
        server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=sys.stderr)
        try:
            return _soak(port, args)
        finally:
            server.terminate()
            server.wait(timeout=10)


def _soak(port: int, args: argparse.Namespace) -> int:
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    for _ in range(200):
        try:
            if client.get("/api/health").status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.1)
    names = ["Ana", "Ben", "Cy", "Dom", "Eli"][: args.players]
    started = client.post("/api/games", json={"game": "strike", "players": names})
    started.raise_for_status()
    stalls, checks, games = [], 0, 1
    seq, since = -1, time.monotonic()
    end = time.monotonic() + args.minutes * 60
    while time.monotonic() < end:
        snap = client.get("/api/snapshot").json()
        check = client.get("/api/check").json()
        if check:
            _answer(client, check)
            checks += 1
        state = client.get("/api/state").json()
        if state.get("phase") == "over":
            client.post("/api/games", json={"game": "strike", "players": names})
            games += 1
        if state.get("seq") != seq or check:
            seq, since = state.get("seq"), time.monotonic()
        elif time.monotonic() - since > args.stall:
            notices = [n.get("text") for n in snap.get("notices", [])][-3:]
            stalls.append((round(time.monotonic() - end + args.minutes * 60), seq, notices))
            print(f"stall at seq {seq}: {state.get('phase')}, notices {notices}", flush=True)
            since = time.monotonic()
        time.sleep(0.5)
    print(
        f"{args.minutes:g} min real time, {games} game(s), record at seq {seq}, "
        f"checks answered {checks}, stalls {len(stalls)}"
    )
    return 1 if stalls else 0


if __name__ == "__main__":
    sys.exit(main())
