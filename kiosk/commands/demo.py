"""`arbitre demo`: bots play a whole game through the simulated camera, reader, table and LEDs."""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
import webbrowser
from pathlib import Path

HELP = "bots play a whole game through the simulated table (camera, reader, kiosk, LEDs)"
GAMES = ("strike", "knister", "detrak", "joust", "stratego")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", choices=GAMES, default="strike")
    p.add_argument("--players", type=int, default=None, help="2..5 (Strike), 2 for Joust/Stratego")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--headless", action="store_true", help="no browser, as fast as possible")
    p.add_argument("--record", type=Path, default=None, help="write the game record (JSONL) here")
    p.add_argument(
        "--misread-rate", type=float, default=0.0, help="share of frames misread on purpose"
    )
    p.add_argument("--size", default="1280x960", help="camera frame size, WxH")
    p.add_argument("--port", type=int, default=8000, help="kiosk port when not headless")
    p.add_argument("--bots", choices=("greedy", "random", "mixed"), default="greedy")


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    if not (w.isdigit() and h.isdigit()):
        raise SystemExit(f"--size must be WxH, e.g. 1280x960, not {text!r}")
    return int(w), int(h)


def run(args: argparse.Namespace) -> int:
    from firmware_bridge import make_signals
    from kiosk.config import load_config
    from kiosk.demo import DemoOptions, DemoStalled, run_demo, winner_names
    from kiosk.signals_link import follow_table
    from kiosk.table import Table

    if not 0.0 <= args.misread_rate <= 1.0:
        print("--misread-rate must be between 0 and 1", file=sys.stderr)
        return 2
    players = args.players or (3 if args.game == "strike" else 2)
    with tempfile.TemporaryDirectory(prefix="arbitre-demo-") as data:
        config = load_config(None, data_dir=data, port=args.port, serial_port="none")
        table = Table(config)
        signals = make_signals(config)
        follow_table(table, signals)
        pace = None
        if not args.headless:
            pace = _serve_and_open(table, config)
        opts = DemoOptions(
            game=args.game,
            players=players,
            seed=args.seed,
            misread_rate=args.misread_rate,
            size=_size(args.size),
            bots=args.bots,
        )
        try:
            stats = run_demo(opts, table, pace)
        except DemoStalled as err:
            print(f"demo stalled: {err}", file=sys.stderr)
            return 1
        finally:
            signals.close()
        if args.record:
            args.record.write_text(table.record_text(), encoding="utf-8")
        print(stats.line(winner_names(table)))
        if stats.slipped:
            print(f"misreads that reached the record: {stats.slipped}", file=sys.stderr)
            for slip in stats.wrong_actions:
                print(f"  slipped: {slip}", file=sys.stderr)
    return 0


def _serve_and_open(table, config):
    """Serve the kiosk in a thread, open it in the browser, and pace the sim to real time."""
    import uvicorn

    from kiosk.app import create_app

    server = uvicorn.Server(
        uvicorn.Config(
            create_app(table, config), host="127.0.0.1", port=config.port, log_level="warning"
        )
    )
    threading.Thread(target=server.run, daemon=True).start()
    webbrowser.open(f"http://127.0.0.1:{config.port}/")
    started = time.monotonic()

    def pace(cam) -> None:
        ahead = cam.now - (time.monotonic() - started)
        if ahead > 0:
            time.sleep(ahead)

    return pace
