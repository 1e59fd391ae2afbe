"""What every dice reader reads alike (companion.dice.readers): rendered trays to readings."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.dice import synth
from companion.dice.readers import READERS, read_function
from companion.dice.reading import EMPTY, HAND

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


@pytest.mark.parametrize("reader", READERS)
def test_oblique_view_reads_top_faces_not_side_faces(reader):
    rng = np.random.default_rng(8)
    dice = [
        scenes.die(f, 120 + 100 * i, 240, size=46, angle=10 * i)
        for i, f in enumerate((1, 2, 3, 4, 5))
    ]
    frame = synth.render(scenes.tray(dice, "wood-light", view_tilt=0.45), rng)
    reading = read_function(reader)(frame, expected=5)
    assert reading.values == [1, 2, 3, 4, 5], reading.problems


@pytest.mark.parametrize("reader", READERS)
def test_empty_tray_gives_no_reading(reader):
    rng = np.random.default_rng(3)
    for surface in synth.SURFACES:
        reading = read_function(reader)(synth.render(scenes.tray([], surface, tray_wall=24), rng))
        assert reading.status == EMPTY
        assert not reading.is_reading
        assert reading.dice == ()


@pytest.mark.parametrize("reader", READERS)
def test_hand_in_view_gives_no_reading(reader):
    """A hand over one of the dice asked for, or over a tray whose dice the table did not
    count, stops the roll until it leaves. One that hides none of the dice asked for
    changes nothing."""
    read = read_function(reader)
    rng = np.random.default_rng(4)
    hand = synth.HandSpec(x=320, y=330, angle=-90, width=190)
    dice = [scenes.die(3, 120, 120), scenes.die(4, 520, 110), scenes.die(6, 320, 330)]
    scene = scenes.tray(dice, "felt-blue", hand=hand)
    frame = synth.render(scene, rng)
    for expected in (3, None):
        reading = read(frame, expected=expected)
        assert reading.status == HAND
        assert not reading.is_reading
    assert read(frame, expected=2).values == [3, 4]
    assert read(synth.render(replace(scene, hand=None), rng), expected=3).values == [3, 4, 6]


@pytest.mark.parametrize("reader", READERS)
def test_touching_dice_are_read_as_separate_dice(reader):
    rng = np.random.default_rng(21)
    s = 44
    dice = [
        scenes.die(6, 200, 200, size=s, angle=0),
        scenes.die(3, 200 + s + 1, 200, size=s, angle=2),
        scenes.die(5, 200, 200 + s + 1, size=s, angle=-2),
        scenes.die(2, 420, 300, "blue", size=s, angle=30),
        scenes.die(4, 420 + s * 0.72 * 1.41, 300, "blue", size=s, angle=30),
    ]
    frame = synth.render(scenes.tray(dice, "felt-green"), rng)
    reading = read_function(reader)(frame, expected=5)
    assert reading.values == [2, 3, 4, 5, 6], reading.problems
    assert reading.ok
