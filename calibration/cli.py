"""`companion calibrate KIND ...`: one sub-subcommand per thing the companion calibrates.

Each kind is a function `add(kinds)` that adds its parser to the `calibrate` subparsers and
sets `func(args) -> int`; list new kinds in KINDS as "module:function" (loaded on use of
`companion`, with heavy imports kept inside the command functions).
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module
from pathlib import Path

KINDS = (
    "calibration.cli:add_dice_command",  # dice: tune the dice reader on labelled photos
    "calibration.commands:add_frame_command",  # frame: find the tray, lock exposure
    "calibration.commands:add_game_step_commands",  # each registered game's own steps
)


def register(subparsers) -> None:
    calibrate = subparsers.add_parser("calibrate", help="tune the companion to this table")
    kinds = calibrate.add_subparsers(dest="kind", metavar="KIND")
    calibrate.set_defaults(func=lambda args: _usage(calibrate))
    for spec in KINDS:
        module, name = spec.split(":")
        getattr(import_module(module), name)(kinds)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def add_dice_command(kinds) -> None:
    p = kinds.add_parser(
        "dice",
        help="tune the dice reader's profile on labelled photos",
        description=(
            "Tune a dice profile on labelled sets (each DIR holds images/ and labels.jsonl) "
            "and report accuracy before and after."
        ),
    )
    p.add_argument("sets", nargs="+", metavar="DIR")
    p.add_argument(
        "--profile",
        metavar="FILE",
        help="profile to start from, e.g. DATA_DIR/profile.toml (default: the shipped one)",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write the tuned profile here (camera and tray sections kept as they were)",
    )
    p.add_argument("--rounds", type=int, default=2, help="passes over the numbers (default 2)")
    p.add_argument(
        "--limit", type=int, default=80, metavar="N", help="use at most N images per set"
    )
    p.set_defaults(func=run_dice)


def run_dice(args) -> int:
    from dataclasses import replace

    from companion.dice.cli import format_table
    from companion.dice.scoring import LabelError, load_set
    from companion.dice.tune import tune
    from companion.profile import ProfileError, load, save

    try:
        calibrated = load(args.profile)
        sets = {}
        for folder in args.sets:
            samples = load_set(folder)
            step = max(1, len(samples) // max(1, args.limit))
            chosen = samples[::step][: args.limit]
            sets[Path(folder).name] = [replace(s, frame=s.load()) for s in chosen]
    except (ProfileError, LabelError) as exc:
        print(f"companion calibrate dice: {exc}", file=sys.stderr)
        return 2
    n = sum(len(s) for s in sets.values())
    print(f"tuning on {n} images from {len(sets)} set(s)...", flush=True)
    profile = calibrated.dice
    result = tune(sets, profile, rounds=args.rounds, progress=lambda m: print(" ", m, flush=True))
    print("before:")
    print(format_table([s.summary() for s in result.before]))
    print("after:")
    print(format_table([s.summary() for s in result.after]))
    tuned = replace(calibrated, dice=replace(result.profile, name=f"{profile.name}, tuned"))
    if args.out:
        save(tuned, args.out)
        print(f"wrote {args.out} ({result.tried} settings tried)")
    else:
        print("tuned profile (use --out FILE to save it):")
        print(tuned.to_toml())
    return 0
