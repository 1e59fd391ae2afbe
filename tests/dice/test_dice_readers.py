"""What every dice reader reads alike (companion.dice.readers): rendered trays to readings."""

from __future__ import annotations

import numpy as np
import pytest

from companion.dice import synth
from companion.dice.readers import READERS, read_function

from . import scenes


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("angle", [0, 15, 30, 45, 60, 75])
def test_rotated_dice_are_read_at_any_angle(reader, angle):
    rng = np.random.default_rng(angle)
    dice = [
        scenes.die(f, 100 + 90 * i, 240, "red", angle=angle + 7 * i, size=40)
        for i, f in enumerate((6, 5, 4, 3, 2, 1))
    ]
    reading = read_function(reader)(synth.render(scenes.tray(dice, "white-sheet"), rng), expected=6)
    assert reading.values == [1, 2, 3, 4, 5, 6], reading.problems
    assert reading.ok
