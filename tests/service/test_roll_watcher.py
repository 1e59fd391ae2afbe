"""The live roll watcher on the simulated camera's rendered frames: a roll is taken hands-free
only when two settled frames agree, never while the dice move, and bad frames are skipped with
one line in the log."""

from __future__ import annotations

import logging
import math
from dataclasses import replace

import numpy as np
import pytest
from servicekit import to_first_roll

from companion.dice import synth
from companion.dice.profile import Profile
from companion.rolls import STILL_HAND, RollWatcher, TrayState, tray_watcher
from companion.table import Table
from hardware.camera.base import Frame
from hardware.camera.sim import SimCamera

FPS = 12.0
FACES = [3, 5, 1, 6, 2]


@pytest.fixture
def table(tmp_path):
    table = Table.open(tmp_path / "events.sqlite")
    to_first_roll(table)  # "roll 5 dice"
    yield table
    table.close()


def watcher(table: Table) -> RollWatcher:
    return RollWatcher(table, tray_watcher(fps=FPS))


def feed(rolls: RollWatcher, images) -> int | None:
    """Hand `images` to the watcher as camera frames; the index of the frame after which the
    roll was entered or waits for the table, or None."""
    version = rolls.table.version
    for index, image in enumerate(images):
        rolls.on_frame(Frame(image, index / FPS, index))
        if rolls.table.version != version or rolls.pending is not None:
            return index
    return None


def test_a_still_throw_is_taken_hands_free_and_not_before_the_dice_rest(table):
    camera = SimCamera(fps=FPS, seed=7, hand_chance=0.0)
    camera.open()
    camera.throw(FACES)
    frames, rested = [], None
    for index in range(30):
        frames.append(camera.read())
        if rested is None and camera.rested_at is not None:
            rested = index  # the throw's first frame at rest
    rolls = watcher(table)
    taken = feed(rolls, [f.image for f in frames])
    assert taken is not None, "a still throw gave no reading"
    assert rolls.pending is None, rolls.pending
    assert rolls.last_submitted == tuple(sorted(FACES))
    assert taken >= rested


def test_a_tray_in_motion_is_never_read(table):
    camera = SimCamera(fps=FPS, seed=7, hand_chance=1.0)
    camera.open()
    camera.throw(FACES)
    moving = []
    while not camera.settled:
        moving.append(camera.read().image)
    rolls = watcher(table)
    assert feed(rolls, moving) is None
    assert rolls.pending is None and rolls.last_submitted is None


def _scene_pair():
    """One tray at rest, and the same tray with one die showing another face."""
    rng = np.random.default_rng(11)
    scene = synth.random_scene(FACES, rng, width=640, height=480, view_tilt=0.0)
    flipped = replace(scene, dice=(replace(scene.dice[0], face=4), *scene.dice[1:]))
    return scene, flipped, rng


def test_a_reading_that_flips_between_settled_frames_waits_for_the_table(table):
    """A roll whose settled frames read differently is flagged for the table to confirm."""
    scene, flipped, rng = _scene_pair()
    still, other = synth.render(scene, rng), synth.render(flipped, rng)
    moving = synth.render(replace(scene, dice=()), rng)  # the dice land: the tray changes
    version = table.version
    rolls = watcher(table)
    assert feed(rolls, [moving] + [still, other] * 4) is not None
    assert table.version == version  # nothing entered without a person
    assert rolls.pending is not None
    assert "disagree" in rolls.pending.note


def test_the_same_settled_tray_is_taken_hands_free(table):
    scene, _, rng = _scene_pair()
    still = synth.render(scene, rng)
    moving = synth.render(replace(scene, dice=()), rng)
    rolls = watcher(table)
    assert feed(rolls, [moving] + [still] * 6) is not None
    assert rolls.pending is None
    assert rolls.last_submitted == tuple(sorted(d.face for d in scene.dice))


@pytest.mark.parametrize(
    ("image", "said"),
    [
        (None, "NoneType, not an image"),
        (np.zeros((0, 0, 3), np.uint8), "0x0 pixels, too small"),
        (np.zeros((8, 8, 3), np.uint8), "8x8 pixels, too small"),
        (np.zeros((480, 640), np.uint8), "not height x width x 3"),
        (np.zeros((480, 640, 3), np.float32), "float32, not bytes"),
    ],
    ids=["none", "empty", "tiny", "one-channel", "float"],
)
def test_a_bad_frame_is_skipped_with_one_line_and_the_watch_goes_on(table, caplog, image, said):
    scene, _, rng = _scene_pair()
    still = synth.render(scene, rng)
    moving = synth.render(replace(scene, dice=()), rng)
    rolls = watcher(table)
    with caplog.at_level(logging.WARNING, logger="companion.rolls"):
        # The dice land, then the camera sends bad frames: no reading, no exception.
        assert feed(rolls, [moving, still] + [image] * 5) is None
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and said in lines[0], lines
    assert rolls.latest_image() is still  # nor shown as the camera's picture
    assert feed(rolls, [moving] + [still] * 6) is not None
    assert rolls.last_submitted == tuple(sorted(d.face for d in scene.dice))


def test_a_still_hand_holds_the_roll_for_a_while_then_the_table_checks_what_is_seen(table):
    """A hand lying still over one of the dice holds the roll (it may hide a die) until it
    has lain there for the profile's `hand_still_frames`; then the dice are proposed for the
    table to check, never entered. What looks like a hand may be a tray of a skin's colour."""
    from tests.dice import scenes

    dice = [scenes.die(f, 110 + 105 * i, 150, size=44) for i, f in enumerate(FACES)]
    hand = synth.HandSpec(x=320, y=230, angle=-90, width=120)
    rng = np.random.default_rng(4)
    still = synth.render(scenes.tray(dice, "felt-blue", hand=hand), rng)
    moving = synth.render(scenes.tray([], "felt-blue"), rng)  # the dice land
    patience = math.ceil(Profile().settle.hand_still_frames * FPS / 30)
    version = table.version
    rolls = watcher(table)
    assert feed(rolls, [moving] + [still] * (patience - 2)) is None
    assert feed(rolls, [still] * 8) is not None
    assert table.version == version  # nothing entered without a person
    assert rolls.pending.values == (2, 3, 5, 6)  # the 1 lies under the hand
    assert "Something like a hand is in the tray" in rolls.pending.note


def test_a_die_cut_by_the_frame_is_proposed_marked_as_the_one_to_check(table):
    """Half a die at the frame's edge may show a face cut short: the roll waits for the table,
    and the reading marks that die, so a person looks at it first."""
    from tests.dice import scenes

    dice = [
        scenes.die(f, 110 + 105 * i, 240, angle=9 * i, size=48) for i, f in enumerate((2, 3, 5, 6))
    ]
    dice.append(scenes.die(4, 330, 0, angle=5, size=48))  # half out of view
    rng = np.random.default_rng(6)
    still = synth.render(scenes.tray(dice, "felt-blue"), rng)
    moving = synth.render(scenes.tray([], "felt-blue"), rng)  # the dice land
    version = table.version
    rolls = watcher(table)
    assert feed(rolls, [moving] + [still] * 6) is not None
    assert table.version == version
    pending = rolls.pending
    assert pending.values == (2, 3, 4, 5, 6)
    assert pending.doubted == (2,)  # the 4
    assert pending.to_json()["doubted"] == [2]


def test_the_reasons_a_reading_waits_read_as_sentences(table):
    """The reader's problems, each a sentence of its own, whether it ends in a question."""
    problems = ("1 die not read for sure", STILL_HAND)
    seen = iter([TrayState(moving=True), TrayState(False, (1, 2, 3, 5, 6), False, problems)])
    rolls = RollWatcher(table, lambda image, expected: next(seen), auto_submit=False)
    assert feed(rolls, [np.zeros((16, 16, 3), np.uint8)] * 2) == 1
    assert rolls.pending.note == (
        "1 die not read for sure. Something like a hand is in the tray: is every die seen?"
        " Check and confirm."
    )
