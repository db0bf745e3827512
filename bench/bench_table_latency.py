"""Still dice in the simulator → the new state at a client of /api/events: p50 and p95.

The whole table runs as `arbitre run --camera sim` does — the simulated table paced to real time
at 30 fps, the watcher, the reader, the Strike controller, the table, the kiosk served by uvicorn
— and one SSE client listens. For every throw the camera records, the clock starts at the first
frame in which the simulator's truth has every die still, and stops when the client receives an
event whose seq includes the throw. Throws that went to the players («À vérifier») are corrected from
the simulator's truth, as the demo's players do, left out of the figures (their delay is the
players'), and counted.

    .venv/bin/python bench/bench_table_latency.py [--throws 30] [--seed 1] [--size 1280x960]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import tempfile
import threading
import time

import httpx
import uvicorn

from kiosk.app import create_app
from kiosk.camera_loop import CameraLoop
from kiosk.config import load_config
from kiosk.demo import DemoStats, resolve_check
from kiosk.sim_hand import SimTableSource
from kiosk.table import Table


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StillClock:
    """Wraps the sim source: notes when the dice become still after moving (wall time, seq)."""

    def __init__(self, source: SimTableSource, table: Table) -> None:
        self.source, self.table = source, table
        self.moving = False
        self.still_at: dict[int, float] = {}  # seq at the moment dice became still -> wall time
        self.name = source.name

    def read(self):
        frame = self.source.read()
        truth = self.source.cam.truth() if self.source.cam is not None else None
        if truth is not None:
            moving = any(d["moving"] for d in truth["dice"]) or truth.get("hand", False)
            if self.moving and not moving:
                self.still_at[self.table.seq] = (
                    time.monotonic()
                )  # the last rest before the record moves
            self.moving = moving
        return frame

    def now(self) -> float:
        return self.source.now()

    def on_decision(self, decision) -> None:
        self.source.on_decision(decision)

    def close(self) -> None:
        self.source.close()


def listen(port: int, pin: str, received: dict[int, float], stop: threading.Event) -> None:
    with (
        httpx.Client(timeout=None) as client,
        client.stream(
            "GET", f"http://127.0.0.1:{port}/api/events", headers={"x-table-pin": pin}
        ) as response,
    ):
        for line in response.iter_lines():
            if stop.is_set():
                return
            if line.startswith("data:"):
                seq = json.loads(line[5:]).get("seq")
                if isinstance(seq, int):
                    received.setdefault(seq, time.monotonic())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="1280x960")
    parser.add_argument("--timeout", type=float, default=900.0)
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))

    with tempfile.TemporaryDirectory() as data:
        config = load_config(None, data_dir=data)
        table = Table(config)
        port = _port()
        server = uvicorn.Server(
            uvicorn.Config(create_app(table, config), port=port, log_level="warning")
        )
        threading.Thread(target=server.run, daemon=True).start()
        while not server.started:
            time.sleep(0.05)
        table.new_game({"game": "strike", "players": ["Ana", "Ben", "Cy"]})
        source = SimTableSource(table, size=(w, h), seed=args.seed)
        clock = StillClock(source, table)
        loop = CameraLoop(table, clock, frame_time=clock.now, on_decision=clock.on_decision)
        received: dict[int, float] = {}
        stop = threading.Event()
        threading.Thread(target=listen, args=(port, table.pin, received, stop), daemon=True).start()
        threading.Thread(target=loop.run, daemon=True).start()
        camera: set[int] = set()

        def note(event) -> None:
            last = event.moment.history[-1] if event.moment.history else None
            if event.kind == "action" and last and last["source"] == "camera":
                camera.add(last["seq"])

        table.add_listener(note)
        checks = 0
        started = time.monotonic()
        while time.monotonic() - started < args.timeout and not table.state.is_over():
            if table.pending is not None and source.cam is not None:
                pending = table.pending.id  # the players correct it from what lies there
                resolve_check(table, source.cam, "strike", DemoStats(), source.hand)
                checks += table.pending is None or table.pending.id != pending
            if len(camera) >= args.throws:
                break
            time.sleep(0.02)
        time.sleep(0.5)
        stop.set()
        loop.stop()
        server.should_exit = True
    latencies = []
    for seq_before, still in clock.still_at.items():
        if seq_before + 1 in camera and seq_before + 1 in received:
            latencies.append((received[seq_before + 1] - still) * 1000)
    if not latencies:
        print(
            f"no throw was recorded by the camera alone ({checks} went to the players)",
            file=sys.stderr,
        )
        return 1
    latencies.sort()
    p95 = latencies[min(len(latencies) - 1, round(0.95 * (len(latencies) - 1)))]
    print(
        f"still dice -> SSE client: n={len(latencies)} p50={statistics.median(latencies):.0f} ms "
        f"p95={p95:.0f} ms max={latencies[-1]:.0f} ms; checks confirmed: {checks}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
