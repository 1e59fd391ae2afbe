"""Dice seen at a slant: rendered trays of four flat dice in a row, the camera looking at the
tray obliquely (view tilt 0.3-0.5), so that each die shows a side below its top face. Random
faces, style, surface and turn, with glints on the pips in half the trays; the count known.

    .venv/bin/python bench/oblique.py            # dice turned square to the camera (+-12 deg)
    .venv/bin/python bench/oblique.py --any-turn # dice turned any way

Square-on, a die's side shows its pips in full just below its top's, and the two can fit one
face (a 4 and the 2 of its side fit a 6). Prints how many dice were read right, flagged for
a check, and read wrong for sure (the silent errors), each die matched to the one read
nearest it.
"""

from __future__ import annotations

import argparse

import numpy as np

from companion.dice import synth
from companion.dice.reader import default_profile, read

TRAYS = 600


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--any-turn", action="store_true", help="dice turned any way")
    args = parser.parse_args()
    profile = default_profile()
    styles, surfaces = sorted(synth.DIE_STYLES), sorted(synth.SURFACES)
    dice = right = flagged = wrong = 0
    for k in range(TRAYS):
        rng = np.random.default_rng(1000 + k)
        body, pips = synth.DIE_STYLES[styles[k % len(styles)]]
        surface, texture = synth.SURFACES[surfaces[(k // len(styles)) % len(surfaces)]]
        faces = rng.integers(1, 7, 4)
        tilt, glare = float(rng.uniform(0.3, 0.5)), bool(rng.random() < 0.5)
        row = tuple(
            synth.DieSpec(
                int(face),
                120 + 130 * i,
                240 + rng.uniform(-20, 20),
                size=float(rng.uniform(32, 44)),
                angle=float(rng.uniform(0, 360) if args.any_turn else rng.uniform(-12, 12)) % 360,
                body=body,
                pips=pips,
                pip_glare=glare,
            )
            for i, face in enumerate(faces)
        )
        scene = synth.Scene(dice=row, surface=surface, texture=texture, view_tilt=tilt)
        reading = read(synth.render(scene, rng), profile, expected=4)
        for die in row:
            dice += 1
            seen = min(reading.dice, key=lambda d: abs(d.centre[0] - die.x), default=None)
            if seen is None or abs(seen.centre[0] - die.x) > 20:
                continue
            right += seen.face == die.face
            flagged += seen.flagged
            wrong += not seen.flagged and seen.face != die.face
    turn = "turned any way" if args.any_turn else "turned square to the camera"
    print(
        f"oblique, {turn}: {dice} dice, read right {right} ({right / dice:.2%}), "
        f"flagged {flagged}, read wrong for sure {wrong}"
    )


if __name__ == "__main__":
    main()
