"""The kiosk web app: `create_app(table=None, config=None)`, and `python -m kiosk.app` to serve it.

`python -m kiosk.app --port P --data DIR` runs the app alone (no camera, no pins): the tests and
the benchmark start it this way in a subprocess they can kill -9.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fastapi import FastAPI

from kiosk.config import Config, load_config
from kiosk.routes import checks, events, game, pages, seats
from kiosk.table import Table

STATIC = Path(__file__).parent / "static"


def create_app(
    table: Table | None = None, config: Config | None = None, trust_local: bool = True
) -> FastAPI:
    """The FastAPI app around a table (made from config when not given). trust_local lets the
    table's own screen (a loopback client) act without a token and see the PIN."""
    config = config or (table.config if table else Config())
    table = table or Table(config)
    app = FastAPI(
        title="Arbitre kiosk",
        version="0.1.0",
        description="The game table's web app: the table screen, the seats' phones, the API.",
    )
    app.state.table = table
    app.state.config = config
    app.state.trust_local = trust_local
    for module in (game, events, seats, checks, pages):
        app.include_router(module.router)
    pages.mount_static(app, STATIC)
    return app


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    p = argparse.ArgumentParser(prog="python -m kiosk.app", description=__doc__)
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--data", help="folder of arbitre.sqlite (default: the config's data_dir)")
    p.add_argument("--config", help="a TOML config file")
    p.add_argument("--camera-name", default="", help="what the page says about the camera")
    args = p.parse_args(argv)
    config = load_config(args.config, data_dir=args.data, port=args.port)
    table = Table(config)
    table.camera_name = args.camera_name
    print(f"arbitre kiosk on http://{args.host}:{args.port}  table PIN {table.pin}", flush=True)
    uvicorn.run(create_app(table, config), host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
