"""Cocked dice: rendered trays of three flat dice and one die cocked at the tray wall (top,
bottom or left), each top face 1-6 in every style, at several leans, read with the count
known. The die leans against the wall (its top tilts towards it, and the camera sees the
face beside the top towards the tray's middle, where a flat die's side would be) or away
from it (propped on the wall's foot or on another die: the camera sees the face beside the
top towards the wall).

    .venv/bin/python bench/cocked.py

A leaning die must be flagged (cocked, or at least not read for sure): its value is no roll.
Prints, per top face of the leaning die, per lean, per way it leans and per wall, how many were
flagged cocked, flagged for a check, read for sure (the silent errors), or not seen; and
how many flat dice were read wrong.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np

from companion.dice import synth
from companion.dice.reader import default_profile, read
from companion.dice.reading import COCKED

STYLES = ("ivory", "white", "red", "black", "orange", "blue", "green", "purple")
LEANS = (35.0, 42.0, 50.0)  # degrees; a die against the wall leans 35-50
WAYS = ("against the wall", "away from the wall")
WALL = 22  # px
# Where the leaning die stands (x, y) and which way (degrees) it tilts against each wall.
WALLS = {
    "top": ((320, WALL + 28), 270.0),
    "bottom": ((320, 480 - WALL - 28), 90.0),
    "left": ((WALL + 28, 240), 180.0),
}


def main() -> None:
    profile = default_profile()
    outcome: Counter = Counter()
    flat_wrong = flat_dice = 0
    for face, style, lean, way, wall in itertools.product(range(1, 7), STYLES, LEANS, WAYS, WALLS):
        body, pips = synth.DIE_STYLES[style]
        rng = np.random.default_rng([face, STYLES.index(style), int(lean)])
        (x, y), against = WALLS[wall]
        leaning = synth.DieSpec(
            face,
            x,
            y,
            size=44,
            angle=float(rng.uniform(-8, 8)),
            body=body,
            pips=pips,
            tilt=lean,
            tilt_dir=against if way == WAYS[0] else against - 180.0,
            cocked=True,
        )
        flat = tuple(
            synth.DieSpec(f, 160 + 160 * i, 320, size=44, angle=25.0 * i, body=body, pips=pips)
            for i, f in enumerate((2, 5, 6))
        )
        surface, texture = synth.SURFACES["felt-green"]
        scene = synth.Scene(dice=(*flat, leaning), surface=surface, texture=texture, tray_wall=WALL)
        reading = read(synth.render(scene, rng), profile, expected=4)
        near = [d for d in reading.dice if math.dist(d.centre, (x, y)) < 60]
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
        outcome[wall, kind] += 1
        flat_values = sorted(d.face for d in reading.dice if all(d is not n for n in near))
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
    for wall in WALLS:
        print(f"  at the {wall} wall: " + ", ".join(str(outcome[wall, k]) for k in kinds))
    total = len(STYLES) * len(LEANS) * len(WAYS) * len(WALLS) * 6
    sure = sum(outcome[face, "sure"] for face in range(1, 7))
    print(f"leaning dice read for sure: {sure} of {total} ({sure / total:.1%})")
    print(f"flat dice beside them read wrong: {flat_wrong} of {flat_dice}")


if __name__ == "__main__":
    main()
