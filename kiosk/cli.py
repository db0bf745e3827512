"""The `arbitre` command: one subcommand per module of kiosk/commands/.

Each module defines HELP, add_arguments(parser) and run(args) -> exit status. Modules are imported
only for the subcommand that runs, so `arbitre replay` never loads OpenCV or FastAPI.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = {
    "run": "kiosk.commands.run",
    "demo": "kiosk.commands.demo",
    "replay": "kiosk.commands.replay",
    "read": "kiosk.commands.read",
    "calibrate": "kiosk.commands.calibrate",
    "sim-frames": "kiosk.commands.sim_frames",
    "doctor": "kiosk.commands.doctor",
}


def _module(name: str):
    try:
        return importlib.import_module(COMMANDS[name])
    except ModuleNotFoundError as err:
        if err.name == COMMANDS[name]:
            return None
        raise


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="arbitre", description="Arbitre, the game-table referee.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = next((a for a in argv if not a.startswith("-")), None)
    for name in COMMANDS:
        module = _module(name) if name == chosen else None
        help_text = getattr(module, "HELP", None) if module else None
        p = sub.add_parser(name, help=help_text or f"arbitre {name}")
        if module:
            module.add_arguments(p)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    module = _module(args.command)
    if module is None:
        print(f"arbitre {args.command}: not available in this installation", file=sys.stderr)
        return 2
    return int(module.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
