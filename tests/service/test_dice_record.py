"""What the camera learns at the table: rolls the table confirms or corrects are kept as
labelled pictures of the owner's dice, bounded in number; the record of how the camera did
survives a restart and the host page shows it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from servicekit import signed_in_host, to_first_roll, wait_for

from companion import dice_record
from companion.dice import synth
from companion.dice.reading import CHECK, Die, Reading
from companion.dice_record import CONFIRMED, CORRECTED, HANDS_FREE, DiceRecord
from companion.rolls import RollWatcher, tray_watcher
from companion.table import Table
from hardware.camera.base import Frame

FACES = [3, 5, 1, 6, 2]


@pytest.fixture
def table(tmp_path):
    table = Table.open(tmp_path / "events.sqlite")
    to_first_roll(table)  # "roll 5 dice"
    yield table
    table.close()


def read_a_throw(rolls: RollWatcher, seed: int = 11) -> list[int]:
    """A rendered throw comes to rest in front of the watcher; the faces thrown."""
    rng = np.random.default_rng(seed)
    scene = synth.random_scene(FACES, rng, width=640, height=480, view_tilt=0.0)
    still = synth.render(scene, rng)
    frames = [synth.render(replace(scene, dice=()), rng)] + [still] * 4
    for index, image in enumerate(frames):
        rolls.on_frame(Frame(image, index / 12, index))
    assert rolls.pending is not None
    return sorted(d.face for d in scene.dice)


def examples(record: DiceRecord) -> list[dict]:
    record.flush()
    out = []
    for path in record.example_files():
        with np.load(path) as data:
            out.append({key: data[key] for key in data.files})
    return out


def test_a_corrected_roll_keeps_its_dice_labelled_as_the_table_said(table, tmp_path):
    record = DiceRecord(tmp_path)
    rolls = RollWatcher(table, tray_watcher(fps=12), auto_submit=False, record=record)
    thrown = read_a_throw(rolls)
    assert list(rolls.pending.values) == thrown  # the camera read them right...
    said = sorted([4 if v == 3 else v for v in thrown])  # ...but the table says a 3 was a 4
    assert rolls.confirm(said).ok
    kept = examples(record)
    assert sorted(int(e["face"]) for e in kept) == said
    changed = [e for e in kept if int(e["face"]) != int(e["read"])]
    assert [(int(e["read"]), int(e["face"])) for e in changed] == [(3, 4)]
    for e in kept:
        assert e["picture"].shape == (dice_record.CROP_SIDE, dice_record.CROP_SIDE, 3)
        assert e["picture"].dtype == np.uint8 and e["picture"].std() > 10  # a die, not a blank
        assert 0.0 < float(e["confidence"]) <= 1.0
    summary = record.summary()
    assert summary["wrong"] == [{"read": thrown, "table": said}]
    assert summary["recent"] == {"rolls": 1, "hands_free": 0, "rate": 0.0}


def test_a_confirmed_roll_is_kept_and_the_record_survives_a_restart(table, tmp_path):
    record = DiceRecord(tmp_path)
    rolls = RollWatcher(table, tray_watcher(fps=12), auto_submit=False, record=record)
    thrown = read_a_throw(rolls)
    assert rolls.confirm().ok
    assert sorted(int(e["face"]) for e in examples(record)) == thrown
    record.close()
    again = DiceRecord(tmp_path).summary()
    assert again["recent"] == {"rolls": 1, "hands_free": 0, "rate": 0.0}
    assert again["wrong"] == []
    assert again["games"] == [{"game": table.game_id, "rolls": 1, "hands_free": 0, "rate": 0.0}]


def test_a_hands_free_roll_is_counted_but_not_kept_as_an_example(table, tmp_path):
    record = DiceRecord(tmp_path)
    rolls = RollWatcher(table, tray_watcher(fps=12), record=record)
    rng = np.random.default_rng(11)
    scene = synth.random_scene(FACES, rng, width=640, height=480, view_tilt=0.0)
    still = synth.render(scene, rng)
    for index, image in enumerate([synth.render(replace(scene, dice=()), rng)] + [still] * 4):
        rolls.on_frame(Frame(image, index / 12, index))
    assert rolls.last_submitted is not None
    assert record.summary()["recent"] == {"rolls": 1, "hands_free": 1, "rate": 1.0}
    assert examples(record) == []


def _reading(values: list[int]) -> Reading:
    dice = tuple(
        Die(v, (40 * i, 10, 40 * i + 30, 40), (40 * i + 15.0, 25.0), 0.9)
        for i, v in enumerate(values)
    )
    return Reading(dice, CHECK, expected=len(values))


def test_only_the_newest_examples_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(dice_record, "MAX_EXAMPLES", 7)
    record = DiceRecord(tmp_path)
    view = np.random.default_rng(0).integers(0, 255, (60, 240, 3), dtype=np.uint8)
    for _ in range(3):
        record.rolled(CONFIRMED, _reading([1, 2, 3, 4, 5]), [1, 2, 3, 4, 5], view, game=1)
    record.flush()
    kept = record.example_files()
    assert len(kept) == 7
    record.rolled(CONFIRMED, _reading([6]), [6], view, game=1)
    newest = examples(record)
    assert len(newest) == 7 and int(newest[-1]["face"]) == 6


def test_dice_whose_label_a_correction_leaves_open_are_not_kept(tmp_path):
    """Two dice read wrong in one roll: which is which is unknown, so neither is kept."""
    record = DiceRecord(tmp_path)
    view = np.zeros((60, 240, 3), np.uint8)
    record.rolled(CORRECTED, _reading([1, 2, 3, 4, 5]), [1, 2, 3, 6, 6], view, game=1)
    assert sorted(int(e["face"]) for e in examples(record)) == [1, 2, 3]


def test_hands_free_rates_per_game_and_of_the_last_rolls(tmp_path):
    record = DiceRecord(tmp_path)
    for game, how in [(1, HANDS_FREE), (1, CORRECTED), (2, HANDS_FREE), (2, HANDS_FREE)]:
        values = [1, 2] if how == HANDS_FREE else [1, 3]
        record.rolled(how, _reading([1, 2]), values, None, game=game)
    summary = record.summary()
    assert summary["recent"] == {"rolls": 4, "hands_free": 3, "rate": 0.75}
    assert summary["games"] == [
        {"game": 2, "rolls": 2, "hands_free": 2, "rate": 1.0},
        {"game": 1, "rolls": 2, "hands_free": 1, "rate": 0.5},
    ]
    assert summary["wrong"] == [{"read": [1, 2], "table": [1, 3]}]


@pytest.mark.browser
def test_the_host_page_shows_how_the_camera_does_at_this_table(start_service, browser):
    running = start_service()
    service = running.service
    to_first_roll(service.table)
    record = service.dice_record
    game = service.table.game_id
    for _ in range(3):
        record.rolled(HANDS_FREE, _reading([1, 2, 3, 4, 5]), [1, 2, 3, 4, 5], None, game)
    record.rolled(CORRECTED, _reading([1, 2, 3, 4, 5]), [1, 2, 3, 4, 6], None, game)
    page, errors = signed_in_host(browser, running, {"viewport": {"width": 1280, "height": 900}})
    page.wait_for_selector("#camera-record:not([hidden])")
    assert "3 of the last 4 rolls (75%)" in page.text_content("#camera-recent")
    assert "Latest game: 75% of 4 rolls hands-free" in page.text_content("#camera-games")
    assert wait_for(lambda: "1 2 3 4 5 → 1 2 3 4 6" in page.text_content("#camera-wrong"))
    assert not errors, errors


def test_the_owners_calibration_rolls_are_kept_as_labelled_dice(tmp_path):
    from calibration.session import CalibrationSession

    record = DiceRecord(tmp_path)
    session = CalibrationSession(
        tmp_path, on_roll=lambda view, faces: record.calibration_roll(view, faces)
    )
    rng = np.random.default_rng(11)
    scene = synth.random_scene(FACES, rng, width=640, height=480, view_tilt=0.0)
    assert session.add_roll(synth.render(scene, rng), FACES)
    kept = examples(record)
    assert sorted(int(e["face"]) for e in kept) == sorted(FACES)
    assert record.summary()["recent"]["rolls"] == 0  # not a roll at the table
