"""The `companion` command. Each area adds its own subcommands; their modules load lazily."""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module

from companion import product

# Modules with `register(subparsers)`, by the commands each adds; each parser sets
# `func(args) -> int` as its default.
SUBCOMMAND_MODULES = {
    "companion.game_cli": ("replay", "verify", "simulate"),
    "companion.dice.cli": ("dice",),
    "companion.runtime.run_cli": ("run",),
    "companion.log_cli": ("log",),
    "calibration.cli": ("calibrate",),  # lists every game's calibration steps: loads the games
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser for `command` alone when it is a known one (registering the others would
    load what they need for nothing), else the parser of every command."""
    parser = argparse.ArgumentParser(
        prog="companion", description=f"{product.NAME}: the table's helper for board games."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    owners = [m for m, commands in SUBCOMMAND_MODULES.items() if command in commands]
    for name in owners or SUBCOMMAND_MODULES:
        import_module(name).register(sub)
    _remember_parsers(parser)
    return parser


def _remember_parsers(parser: argparse.ArgumentParser) -> None:
    """Each (sub)command's parser becomes its own `args.parser`: the innermost one given wins,
    so a stray argument is reported with the usage of the command it was given to."""
    parser.set_defaults(parser=parser)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                _remember_parsers(subparser)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0] if argv else None)
    args, stray = parser.parse_known_args(argv)
    if stray:
        args.parser.error(f"unrecognized arguments: {' '.join(stray)}")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except BrokenPipeError:
        # The reader went away (`companion simulate | head -1`): say so once, as GNU tools do,
        # and send what is still buffered nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"{parser.prog} {args.command}: write error: Broken pipe", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
