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

from companion.dice.readers import DEFAULT as DEFAULT_READER
from companion.dice.readers import READERS

KINDS = (
    "calibration.cli:add_dice_command",  # dice: calibrate the dice reader on labelled photos
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
        help="calibrate the dice reader's profile on labelled photos",
        description=(
            "Calibrate a dice profile for a reader on labelled sets (each DIR holds images/ "
            "and labels.jsonl): the dice's size, measured on the pictures as they are, and "
            "for the pip search its thresholds; report accuracy before and after."
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
    p.add_argument(
        "--reader",
        choices=READERS,
        default=DEFAULT_READER,
        help=f"the reader the table uses (the settings' dice.reader; default {DEFAULT_READER})",
    )
    p.add_argument("--rounds", type=int, default=2, help="passes over the numbers (default 2)")
    p.add_argument(
        "--limit", type=int, default=80, metavar="N", help="use at most N images per set"
    )
    p.set_defaults(func=run_dice)


def run_dice(args) -> int:
    from dataclasses import replace

    from companion.dice.cli import format_table
    from companion.dice.scoring import LabelError, load_set, score
    from companion.dice.tune import die_share, tune, with_die_share
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
    profile = calibrated.dice
    samples = [s for group in sets.values() for s in group]
    if args.reader == "detector":
        from companion.dice.learned import read

        # The detector has no thresholds: its calibration is the dice's size alone.
        print(f"measuring the dice's size on {n} images from {len(sets)} set(s)...", flush=True)
        result = with_die_share(profile, die_share(samples, profile, read, again=2))
        before = [score(name, group, profile, read=read) for name, group in sets.items()]
        after = [score(name, group, result, read=read) for name, group in sets.items()]
    else:
        from companion.dice.reader import read

        print(f"tuning on {n} images from {len(sets)} set(s)...", flush=True)
        tuned = tune(
            sets, profile, rounds=args.rounds, progress=lambda m: print(" ", m, flush=True)
        )
        result = with_die_share(tuned.profile, die_share(samples, tuned.profile, read))
        before, after = tuned.before, tuned.after
    share = result.scale.calibrated_die
    print(
        f"dice size: {share:.4f} of the pictures' longest side"
        if share
        else "dice size: not told (in no picture did the reader find as many dice as labelled)"
    )
    print("before:")
    print(format_table([s.summary() for s in before]))
    print("after:")
    print(format_table([s.summary() for s in after]))
    tuned = replace(calibrated, dice=replace(result, name=f"{profile.name}, tuned"))
    if args.out:
        save(tuned, args.out)
        print(f"wrote {args.out}")
    else:
        print("tuned profile (use --out FILE to save it):")
        print(tuned.to_toml())
    return 0
