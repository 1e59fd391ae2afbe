"""Marbled and glossy dice: a row of faces 1-6 per rendered tray, in every coloured style,
at several sizes, turns and strengths of swirl (or of sheen), read with the count known.

    .venv/bin/python bench/marbled.py            # swirls (DieSpec.marble)
    .venv/bin/python bench/marbled.py --sheen    # one face brighter at a corner

Prints per-die accuracy and confident errors (dice wrong in a reading not flagged), scored
as `companion dice bench` scores them.
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter

import numpy as np

from companion.dice import synth
from companion.dice.reader import default_profile, read

STYLES = ("red", "blue", "green", "teal-gold", "purple", "black")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheen", action="store_true", help="sheen instead of swirls")
    args = parser.parse_args()
    profile = default_profile()
    truth = Counter(range(1, 7))
    dice = correct = confident_errors = 0
    for style, size, turn, strength, seed in itertools.product(
        STYLES, (26, 32, 40), (10, 30), (1.8, 2.4), (0, 1)
    ):
        body, pips = synth.DIE_STYLES[style]
        shade = {"sheen" if args.sheen else "marble": strength}
        row = tuple(
            synth.DieSpec(
                face,
                100 * face - 40,
                240,
                size=size,
                angle=turn + 9 * face,
                body=body,
                pips=pips,
                **shade,
            )
            for face in range(1, 7)
        )
        scene = synth.Scene(dice=row, surface=synth.SURFACES["white-sheet"][0], texture="plain")
        reading = read(synth.render(scene, np.random.default_rng(seed)), profile, expected=6)
        dice += 6
        correct += sum((Counter(reading.values) & truth).values())
        if reading.ok:
            unflagged = Counter(d.face for d in reading.dice if not d.flagged)
            confident_errors += sum((unflagged - truth).values())
    kind = "sheen" if args.sheen else "marbled"
    print(
        f"{kind}: {dice} dice, per-die {correct / dice:.1%}, "
        f"confident errors {confident_errors} ({confident_errors / dice:.2%})"
    )


if __name__ == "__main__":
    main()
