"""Benchmark: 20 clients on the event stream, one action posted -> how long until every client
has the new state. Not a test: run it and report the figures.

    .venv/bin/python bench/bench_kiosk.py [--clients 20] [--actions 60]

Starts the real server (`python -m kiosk.app`) in a subprocess with a fresh data folder, opens
the clients (2 seat phones with their tokens, the rest as table screens), then posts the lines of
a Knister game one at a time. Latency of one (action, client) pair: from just before the POST
to the moment that client has parsed the snapshot carrying the new seq. Prints p50 / p95 / max.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from test_kiosk_fake import KioskServer  # noqa: E402

from engine import bots  # noqa: E402
from engine.registry import new_game  # noqa: E402

HEADER = {"game": "knister", "players": ["Ana", "Ben"]}


def game_lines(count: int) -> list[dict]:
    state, rng, out = new_game(HEADER).initial_state(), random.Random(3), []
    while len(out) < count and not state.is_over():
        if state.dice():
            action = bots.chance(state, rng)
        else:
            action = bots.bot("knister", "random").act(state, state.turn()[0], rng)
        out.append(action.to_json())
        state = state.apply(action)
    return out


async def client(url: str, query: str, seen: dict[int, float], ready: asyncio.Event) -> None:
    """Follow the stream; note when each seq first arrives."""
    async with (
        httpx.AsyncClient(timeout=None) as http,
        http.stream("GET", url + "/api/events" + query) as response,
    ):
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                seq = json.loads(line[6:])["seq"]
                seen.setdefault(seq, time.perf_counter())
                ready.set()


async def run(url: str, clients: int, lines: list[dict], tokens: list[str]) -> list[float]:
    seen: list[dict[int, float]] = [{} for _ in range(clients)]
    readies = [asyncio.Event() for _ in range(clients)]
    queries = [f"?token={t}" for t in tokens] + [""] * (clients - len(tokens))
    tasks = [
        asyncio.create_task(client(url, queries[i], seen[i], readies[i])) for i in range(clients)
    ]
    await asyncio.gather(*(r.wait() for r in readies))
    latencies = []
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        for seq, line in enumerate(lines, start=1):
            t0 = time.perf_counter()
            response = await http.post("/api/actions", json={**line, "seq": seq - 1})
            assert response.status_code == 200, response.text
            while not all(seq in s for s in seen):
                await asyncio.sleep(0.001)
            latencies += [s[seq] - t0 for s in seen]
            await asyncio.sleep(0.02)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return latencies


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=20)
    p.add_argument("--actions", type=int, default=60)
    args = p.parse_args()
    lines = game_lines(args.actions)
    with tempfile.TemporaryDirectory() as data, KioskServer(data) as server:
        httpx.post(server.url + "/api/games", json=HEADER).raise_for_status()
        tokens = [
            httpx.get(f"{server.url}/api/seats/{i}/qr.svg").headers["x-seat-url"].split("?t=")[1]
            for i in range(2)
        ]
        latencies = asyncio.run(run(server.url, args.clients, lines, tokens))
    ms = [x * 1000 for x in latencies]
    print(
        f"{args.clients} clients x {len(lines)} actions ({len(ms)} deliveries): "
        f"p50 {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
        f"max {max(ms):.1f} ms (target p95 <= 100 ms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
