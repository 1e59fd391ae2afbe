"""`companion run`: the companion (real hardware on a Pi, a simulated table elsewhere).

Settings come from `--config FILE` (TOML; see systemd/companion.example.toml), then these
options; `companion.runtime.service` assembles and runs everything until SIGINT or SIGTERM.
"""

from __future__ import annotations

import argparse

DEFAULT_PORT = 8080
DEFAULT_DATA_DIR = "./var, or $STATE_DIRECTORY under systemd"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="run the companion", description="Run the companion and serve its pages."
    )
    parser.add_argument("--config", help="settings file (TOML); defaults apply without one")
    parser.add_argument(
        "--simulate", action="store_true", help="no hardware: a simulated table on this machine"
    )
    parser.add_argument("--port", type=int, help=f"TCP port (default {DEFAULT_PORT})")
    parser.add_argument("--host", help="address to listen on (default all)")
    parser.add_argument(
        "--data-dir", help=f"where the event log and secrets live (default {DEFAULT_DATA_DIR})"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.runtime.service import main

    return main(
        args.config,
        simulate=args.simulate,
        port=args.port,
        host=args.host,
        data_dir=args.data_dir,
    )
