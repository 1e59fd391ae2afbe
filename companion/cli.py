"""The `companion` command. Each area adds its own subcommands; their modules load lazily."""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

# Modules with `register(subparsers)`; each parser sets `func(args) -> int` as its default.
SUBCOMMAND_MODULES = (
    "companion.game_cli",  # replay, verify, simulate
    "companion.dice.cli",  # dice read, dice bench
    "companion.run_cli",  # run
    "companion.log_cli",  # log check, log repair, log new
    "calibration.cli",  # calibrate
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Chac Companion: the table's helper for Temple of Chac."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
