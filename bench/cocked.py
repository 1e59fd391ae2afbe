"""Cocked dice: rendered trays of three flat dice and one die cocked at the tray wall, each
top face 1-6 in every style, at several leans, read with the count known. The die leans
against the wall (its top tilts towards it, and the camera sees the face below the top,
towards the tray's middle) or away from it (propped on the wall's foot or on another die:
the camera sees the face above the top, towards the wall).

    .venv/bin/python bench/cocked.py

A leaning die must be flagged (cocked, or at least not read for sure): its value is no roll.
Prints, per top face of the leaning die, per lean and per way it leans, how many were
flagged cocked, flagged for a check, read for sure (the silent errors), or not seen; and
how many flat dice were read wrong.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np

from companion.dice import synth
from companion.dice.reader import default_profile, read
from companion.dice.reading import COCKED

STYLES = ("ivory", "white", "red", "black", "orange", "blue", "green", "purple")
LEANS = (35.0, 42.0, 50.0)  # degrees; a die against the wall leans 35-50
WAYS = {"against the wall": 270.0, "away from the wall": 90.0}  # the top tilts towards (deg)
WALL = 22  # px


def main() -> None:
    profile = default_profile()
    outcome: Counter = Counter()
    flat_wrong = flat_dice = 0
    for face, style, lean, way in itertools.product(range(1, 7), STYLES, LEANS, WAYS):
        body, pips = synth.DIE_STYLES[style]
        rng = np.random.default_rng([face, STYLES.index(style), int(lean)])
        leaning = synth.DieSpec(
            face,
            320,
            WALL + 28,
            size=44,
            angle=float(rng.uniform(-8, 8)),
            body=body,
            pips=pips,
            tilt=lean,
            tilt_dir=WAYS[way],
            cocked=True,
        )
        flat = tuple(
            synth.DieSpec(f, 160 + 160 * i, 320, size=44, angle=25.0 * i, body=body, pips=pips)
            for i, f in enumerate((2, 5, 6))
        )
        surface, texture = synth.SURFACES["felt-green"]
        scene = synth.Scene(dice=(*flat, leaning), surface=surface, texture=texture, tray_wall=WALL)
        reading = read(synth.render(scene, rng), profile, expected=4)
        near = [d for d in reading.dice if d.centre[1] < 150]
        if any(COCKED in d.flags for d in near):
            kind = "cocked"
        elif near and all(d.flagged for d in near):
            kind = "checked"
        elif near:
            kind = "sure"
        else:
            kind = "unseen"
        outcome[face, kind] += 1
        outcome[lean, kind] += 1
        outcome[way, kind] += 1
        flat_values = sorted(d.face for d in reading.dice if d.centre[1] >= 150)
        flat_dice += 3
        flat_wrong += 3 - sum((Counter(flat_values) & Counter((2, 5, 6))).values())
    kinds = ("cocked", "checked", "sure", "unseen")
    print("top face of the leaning die: " + ", ".join(kinds))
    for face in range(1, 7):
        print(f"  {face}: " + ", ".join(str(outcome[face, kind]) for kind in kinds))
    for lean in LEANS:
        print(f"  leaning {lean:.0f} degrees: " + ", ".join(str(outcome[lean, k]) for k in kinds))
    for way in WAYS:
        print(f"  leaning {way}: " + ", ".join(str(outcome[way, k]) for k in kinds))
    total = len(STYLES) * len(LEANS) * len(WAYS) * 6
    sure = sum(outcome[face, "sure"] for face in range(1, 7))
    print(f"leaning dice read for sure: {sure} of {total} ({sure / total:.1%})")
    print(f"flat dice beside them read wrong: {flat_wrong} of {flat_dice}")


if __name__ == "__main__":
    main()
