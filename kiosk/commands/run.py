"""`arbitre run`: the table — camera → watcher → reader → controller → engine → log → kiosk, LEDs."""

from __future__ import annotations

import argparse
import logging
import sys
import threading

HELP = "start the table: camera, reader, rules, kiosk (http://localhost:8000) and LEDs"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--camera", default=None, help="auto (default), picamera2, v4l2:N, file:PATH or sim"
    )
    p.add_argument("--port", type=int, default=None, help="kiosk port (default 8000)")
    p.add_argument("--host", default=None, help="address to listen on (default all)")
    p.add_argument("--config", default=None, help="the table's TOML configuration file")
    p.add_argument("--data", default=None, help="folder of the event log (default from config)")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from kiosk.app import create_app
    from kiosk.config import find_config_file, load_config
    from kiosk.table import Table

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(
            args.config or find_config_file(),
            camera=args.camera,
            port=args.port,
            host=args.host,
            data_dir=args.data,
        )
    except (OSError, ValueError) as err:
        print(f"arbitre run: {err}", file=sys.stderr)
        return 2
    config.data_path.mkdir(parents=True, exist_ok=True)
    table = Table(config)
    try:
        camera, loop = _start_camera(table, config)
    except ValueError as err:  # a camera spec that names nothing usable
        print(f"arbitre run: {err}", file=sys.stderr)
        return 2
    signals = _start_signals(table, config)
    print(f"Arbitre: http://localhost:{config.port}/  (camera: {table.camera_name})", flush=True)
    try:
        uvicorn.run(
            create_app(table, config), host=config.host, port=config.port, log_level="warning"
        )
    finally:
        loop.stop()
        signals.close()
        camera.close()
    return 0


def _start_camera(table, config):
    from kiosk.camera_loop import CameraLoop
    from kiosk.sim_hand import SimTableSource
    from vision import load_calibration
    from vision.camera import open_camera

    spec = config.camera or "auto"
    camera = None if spec.startswith("sim") else open_camera(spec)
    if camera is None or camera.name.startswith("sim"):
        if camera is not None:
            camera.close()
        camera = SimTableSource(table, realtime=True)
        table.camera_name = "simulated_camera"  # translated on the page
        loop = CameraLoop(table, camera, frame_time=camera.now, on_decision=camera.on_decision)
    else:
        table.camera_name = camera.name
        loop = CameraLoop(table, camera, calibration=_calibration(config, load_calibration))
    threading.Thread(target=loop.run, name="camera", daemon=True).start()
    return camera, loop


def _calibration(config, load):
    try:
        return load(config.calibration_path)
    except FileNotFoundError:
        return None  # not calibrated: --arena auto works without it
    except (OSError, ValueError) as err:  # said in the log and by `arbitre doctor`
        logging.getLogger("arbitre.run").warning("calibration not read, reading without: %s", err)
        return None


def _start_signals(table, config):
    from firmware_bridge import make_signals
    from kiosk.signals_link import follow_table, press_to_table

    signals = make_signals(config, on_press=lambda press: press_to_table(table, press))
    follow_table(table, signals)
    return signals
