"""Still dice in the simulator → the new state at a client of /api/events: p50 and p95.

The whole table runs as `arbitre run --camera sim` does, in real time: the simulated table shows
the scene as it is at the wall clock's time (frames the reader had no time for are dropped, as a
camera drops them), the camera loop paces itself to 30 fps, the watcher, the reader, the Strike
controller, the table and the kiosk served by a real uvicorn on a local port; one SSE client
listens to /api/events.

The clock: the simulator knows when everything on the table (dice, and the hand that threw them)
comes to rest — the end of the last move it scheduled. That instant, on the wall clock, starts the
clock; the SSE client's receipt of the first event carrying the seq of the action the camera
recorded stops it. Throws that went to the players («À vérifier»; the bench's players correct them
from the simulator's truth, as the demo's do) are counted apart, not timed: their delay is the
players'.

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
from pathlib import Path
from typing import Any

import httpx
import uvicorn

# the tree this script is in, not the one installed (a worktree measures its own models)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.app import create_app  # noqa: E402
from kiosk.camera_loop import CameraLoop  # noqa: E402
from kiosk.config import load_config  # noqa: E402
from kiosk.demo import DemoStats, resolve_check  # noqa: E402
from kiosk.sim_hand import SimTableSource  # noqa: E402
from kiosk.table import Table  # noqa: E402


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RestClock:
    """Wraps the sim source: notes each instant the table comes to rest (simulated time)."""

    def __init__(self, source: SimTableSource) -> None:
        self.source = source
        self.name = source.name
        self.rests: list[float] = []  # the ends of the scheduled moves, as they were scheduled

    def read(self) -> Any:
        frame = self.source.read()
        cam = self.source.cam
        if cam is not None:
            end = cam.scene.busy_until()
            if not self.rests or end != self.rests[-1]:
                self.rests.append(end)
        return frame

    def rest_before(self, sim_t: float) -> float | None:
        """The last instant of rest at or before sim_t: when the recorded dice became still."""
        past = [r for r in self.rests if r <= sim_t]
        return past[-1] if past else None

    def now(self) -> float:
        return self.source.now()

    def on_decision(self, decision: Any) -> None:
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


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=30, help="camera-recorded actions to time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="1280x960")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds at most")
    parser.add_argument("--settle", type=float, default=None, help="the watcher's still window, s")
    parser.add_argument(
        "--choose-wait", type=float, default=0.5, help="the hand waits this long before going on"
    )
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
        names = ["Ana", "Ben", "Cy", "Dom", "Eli"][: args.players]
        table.new_game({"game": "strike", "players": names})
        source = SimTableSource(
            table, size=(w, h), seed=args.seed, realtime=True, choose_wait_s=args.choose_wait
        )
        clock = RestClock(source)
        settle = {} if args.settle is None else {"settle_s": args.settle}
        loop = CameraLoop(
            table, clock, frame_time=clock.now, on_decision=clock.on_decision, **settle
        )
        received: dict[int, float] = {}
        stills: dict[int, float] = {}  # seq of a camera action -> wall time its dice became still
        recorded: dict[int, float] = {}  # seq -> wall time the table recorded it
        stop = threading.Event()
        threading.Thread(target=listen, args=(port, table.pin, received, stop), daemon=True).start()
        time.sleep(0.3)  # the client is subscribed before the first throw

        def note(event: Any) -> None:  # runs in the camera thread, as the table records
            last = event.moment.history[-1] if event.moment.history else None
            if event.kind == "action" and last and last["source"] == "camera":
                rest = clock.rest_before(source.now())
                if rest is not None:
                    stills[last["seq"]] = source.wall_time(rest)
                    recorded[last["seq"]] = time.monotonic()

        table.add_listener(note)
        threading.Thread(target=loop.run, daemon=True).start()
        checks = 0
        started = time.monotonic()
        while time.monotonic() - started < args.timeout and not table.state.is_over():
            if table.pending is not None and source.cam is not None:
                pending = table.pending.id  # the players correct it from what lies there
                resolve_check(table, source.cam, "strike", DemoStats(), source.hand)
                checks += table.pending is None or table.pending.id != pending
            if len(stills) >= args.throws:
                break
            time.sleep(0.02)
        time.sleep(0.5)
        stop.set()
        loop.stop()
        server.should_exit = True
        time.sleep(0.3)
    latencies = [(received[seq] - t) * 1000 for seq, t in stills.items() if seq in received]
    if not latencies:
        print(f"no action recorded by the camera alone ({checks} checks)", file=sys.stderr)
        return 1
    to_record = [(recorded[seq] - t) * 1000 for seq, t in stills.items()]
    print(
        f"{args.size}: still dice -> SSE client: n={len(latencies)} "
        f"p50={statistics.median(latencies):.0f} ms p95={percentile(latencies, 0.95):.0f} ms "
        f"max={max(latencies):.0f} ms (recorded after p50={statistics.median(to_record):.0f} ms); "
        f"went to the players (not timed): {checks}; "
        f"camera frames {loop.stats.frames} in {time.monotonic() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
