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


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize(
    ("frame", "why"),
    [
        (np.zeros((8, 8, 3), np.uint8), "8x8 pixels, too small"),
        (np.zeros((480, 640), np.uint8), "not height x width x 3"),
        (np.zeros((480, 640, 4), np.uint8), "not height x width x 3"),
        (np.zeros((48, 64, 3)), "float64, not bytes"),
        (None, "NoneType, not an image"),
    ],
    ids=["too small", "one channel", "four channels", "not bytes", "none"],
)
def test_a_frame_that_cannot_be_read_is_refused_saying_why(reader, frame, why):
    with pytest.raises(ValueError, match=f"a frame is an H x W x 3 BGR image of bytes.*{why}"):
        read_function(reader)(frame)


@pytest.mark.parametrize("reader", READERS)
def test_a_view_of_a_frame_is_read_like_the_frame(reader):
    frame = synth.render(scenes.tray([scenes.die(3, 320, 240)]), np.random.default_rng(2))
    view = frame[::-1, ::-1]  # no array of its own: strides that go backwards
    assert read_function(reader)(view).values == [3]
