"""The face classifier adapted to an owner's dice: each labelled photo set plays an owner.

    .venv/bin/python bench/adapt.py ../shared/data/dice/*/ [--reader detector] [--json]

For each set, the owner's table is the set's training portion (the images
`companion.dice.scoring.held_out` leaves to training), in a fixed shuffled order: 3
calibration rolls, then played rolls. Every roll goes through the companion's own record
(`companion.dice_record.DiceRecord`) as the table would enter it: calibration rolls are kept
whole; a played roll read hands-free and right keeps nothing, any other is confirmed or
corrected with the labelled faces and its dice kept as examples. After 20, 50 and 100 played
rolls the record's examples are adapted (`companion.dice.adapt`) by each method alone and by
the command's choice ("best"), and the set's held-out images (never in any example) are
scored as `companion dice bench --held-out` scores them: rolls hands-free, silent errors,
proposals right, per die. The played rolls are all read by the shipped model (an owner's
table re-adapts as it goes, so later rolls would keep fewer examples). Slow: each set is
read 1 + 3 x 3 times (a few minutes per reader on two cores). `--reader detector` plays the
owner with the learned detector, which keeps reading with the shipped classifier (see
companion/dice/detector.py): its figures stay the shipped ones.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

from companion.dice import adapt, faceclass
from companion.dice.profile import load as load_profile
from companion.dice.readers import READERS, read_function
from companion.dice.scoring import held_out, load_set, score
from companion.dice_record import CONFIRMED, CORRECTED, DiceRecord

CALIBRATION_ROLLS = 3
PLAYED = (20, 50, 100)
CHOICES = {"last-layer": ("last-layer",), "prototypes": ("prototypes",), "best": adapt.METHODS}
SHOWN = ("hands_free_rate", "silent_error_rate", "proposal_right_rate", "per_die_accuracy")


def owner_tables(folder: Path, read, profile, played: tuple[int, ...], root: Path) -> dict:
    """Data directories of an owner after each count of `played` rolls: {count: (dir, dice
    kept)}."""
    samples = [s for s in load_set(folder) if not held_out(s.name)]
    order = np.random.default_rng(0).permutation(len(samples))
    samples = [samples[i] for i in order][: CALIBRATION_ROLLS + max(played)]
    records = {n: DiceRecord(root / f"{folder.name}-{n}") for n in played}
    for i, sample in enumerate(samples):
        frame = sample.load()
        if i < CALIBRATION_ROLLS:
            for record in records.values():
                record.calibration_roll(frame, sample.faces, profile)
            continue
        reading = read(frame, profile, expected=len(sample.faces))
        right = Counter(reading.values) == Counter(sample.faces)
        right = right and len(reading.dice) == len(sample.faces)
        if reading.ok and right:
            continue  # hands-free: the table keeps nothing
        how = CONFIRMED if right else CORRECTED
        for n, record in records.items():
            if i - CALIBRATION_ROLLS < n:
                record.rolled(how, reading, sample.faces, view=frame)
    tables = {}
    for n, record in records.items():
        record.flush()
        tables[n] = (record.data_dir, len(record.example_files()))
        record.close()
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", metavar="DIR")
    parser.add_argument("--reader", choices=READERS, default="pip-search")
    parser.add_argument("--played", type=int, nargs="+", default=list(PLAYED), metavar="N")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args()
    read = read_function(args.reader)
    profile = load_profile()
    model = faceclass.model()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for folder in map(Path, args.sets):
            held = [replace(s, frame=s.load()) for s in load_set(folder, only_held_out=True)]
            model.adaptation = None
            row = {"set": folder.name, "reader": args.reader, "held_out": len(held)}
            row["shipped"] = _figures(score(folder.name, held, profile, True, read))
            _say(row["set"], "shipped", row["shipped"])
            tables = owner_tables(folder, read, profile, tuple(args.played), Path(tmp))
            for n, (data_dir, kept) in tables.items():
                for choice, methods in CHOICES.items():
                    report = adapt.adapt(data_dir, model, methods)
                    adapt.install(data_dir, model)
                    figures = _figures(score(folder.name, held, profile, True, read))
                    model.adaptation = None
                    key = f"{n} rolls, {choice}"
                    row[key] = {
                        **figures,
                        "examples": kept,
                        "adapted": report.chosen,
                        "cv_before": report.before and report.before.__dict__,
                        "cv_after": {m: f.__dict__ for m, f in report.after.items()},
                    }
                    _say(row["set"], f"{key} ({kept} dice, {report.chosen})", figures)
            results.append(row)
    if args.json:
        print(json.dumps(results, indent=2))


def _figures(result) -> dict:
    summary = result.summary()
    return {k: summary[k] for k in SHOWN}


def _say(name: str, what: str, figures: dict) -> None:
    print(
        f"{name[:26]:<26} {what:<42} hands-free {figures['hands_free_rate']:6.1%}"
        f"  silent {figures['silent_error_rate']:5.1%}"
        f"  1-tap {figures['proposal_right_rate']:6.1%}"
        f"  per die {figures['per_die_accuracy']:6.1%}",
        file=sys.stderr,
        flush=True,
    )


if __name__ == "__main__":
    main()
