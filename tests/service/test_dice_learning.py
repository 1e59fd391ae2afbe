"""The running companion learns the owner's dice in the background: after every N new
labelled dice and after a calibration, never holding up the table, one adaptation at a time;
the host page says what the reader learnt from."""

from __future__ import annotations

import io

import numpy as np
import pytest
from servicekit import signed_in_host, to_first_roll, wait_for

from companion.dice import adapt, faceclass, synth
from companion.dice.reader import read
from companion.dice_learning import DiceLearner
from companion.dice_record import EXAMPLES_DIR, DiceRecord, die_picture

KIND = {"style": "blue", "marble": 2.5}  # dice the shipped model is seldom sure of
LEARNING = {"dice.reader": "pip-search"}  # the reader that reads with the adaptation


@pytest.fixture(autouse=True)
def shipped_model_after():
    yield
    faceclass.model().adaptation = None


def marbled_tray(rng):
    from tests.dice import scenes

    faces = [int(f) for f in rng.integers(1, 7, 4)]
    dice = [scenes.die(f, 110 + 140 * i, 240, size=40, **KIND) for i, f in enumerate(faces)]
    return synth.render(scenes.tray(dice), rng), dice


def owner_examples(data_dir, count: int) -> None:
    """`count` labelled dice as the record keeps them, cut from rendered marbled trays."""
    rng = np.random.default_rng(1)
    folder = data_dir / EXAMPLES_DIR
    folder.mkdir(parents=True)
    pictures = []
    for _ in range(10):
        frame, dice = marbled_tray(rng)
        for d in dice:
            box = (d.x - 20, d.y - 20, d.x + 20, d.y + 20)
            pictures.append((die_picture(frame, [round(v) for v in box]), d.face))
    for n in range(count):
        picture, face = pictures[n % len(pictures)]
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer, picture=picture, face=np.int8(face), read=np.int8(face), confidence=0.5
        )
        (folder / f"{n:019d}-000000.npz").write_bytes(buffer.getvalue())


def test_learning_in_the_background_never_holds_up_the_table(start_service, tmp_path):
    owner_examples(tmp_path / "data", 600)
    running = start_service(**LEARNING)
    service = running.service
    learning = service.dice_learner.request()
    # Meanwhile the table takes commands and the camera's reader reads.
    to_first_roll(service.table)
    frame, _ = marbled_tray(np.random.default_rng(9))
    assert len(read(frame, expected=4).dice) == 4
    assert not learning.done()
    learning.result(timeout=300)
    learnt = service.dice_learner.summary()["learnt"]
    assert learnt["dice"] == 600
    assert (tmp_path / "data" / adapt.ADAPTED_NAME).is_file()


def test_every_n_new_dice_the_reader_learns_them(tmp_path):
    owner_examples(tmp_path, 32)
    record = DiceRecord(tmp_path)
    learner = DiceLearner(record, every=6)
    assert learner.summary()["learnt"] is None
    rng = np.random.default_rng(4)
    for _ in range(2):
        frame, dice = marbled_tray(rng)
        record.calibration_roll(frame, [d.face for d in dice])
    assert wait_for(lambda: learner.summary()["learnt"], timeout=120)
    assert learner.summary()["learnt"]["dice"] >= 32 + 6
    learner.close()
    record.close()


def test_stopping_the_companion_stops_an_adaptation_under_way_writing_nothing(tmp_path):
    owner_examples(tmp_path, 600)
    record = DiceRecord(tmp_path)
    learner = DiceLearner(record)
    learning = learner.request()
    learner.close()
    record.close()
    assert learning.done()
    assert learner.summary()["learnt"] is None
    assert not (tmp_path / adapt.ADAPTED_NAME).exists()


def test_an_adaptation_kept_in_the_data_directory_is_used_from_the_start(tmp_path):
    owner_examples(tmp_path, 40)
    assert adapt.adapt(tmp_path).adaptation is not None
    faceclass.model().adaptation = None
    record = DiceRecord(tmp_path)
    learner = DiceLearner(record)
    assert learner.summary()["learnt"]["dice"] == 40
    learner.close()
    record.close()


def test_with_the_detector_nothing_is_learnt_and_the_record_is_kept(start_service, tmp_path):
    """The learned detector reads with a classifier of its own, never adapted: the owner's
    dice are still kept for the camera's record, and nothing claims the reader learnt them."""
    owner_examples(tmp_path / "data", 60)
    running = start_service(**{"dice.reader": "detector"})
    learner = running.service.dice_learner
    assert learner.request() is None
    assert learner.summary()["learnt"] is None
    assert not (tmp_path / "data" / adapt.ADAPTED_NAME).exists()


def test_a_calibration_teaches_the_reader_the_owners_dice(start_service, tmp_path):
    from calibration.session import DICE_ROLLS

    owner_examples(tmp_path / "data", 24)
    running = start_service(**LEARNING)
    session = running.service.calibration.session
    rng = np.random.default_rng(6)
    for _ in range(DICE_ROLLS):
        frame, dice = marbled_tray(rng)
        assert session.add_roll(frame, [d.face for d in dice]), session.problem
    assert wait_for(lambda: running.service.dice_learner.summary()["learnt"], timeout=120)


@pytest.mark.browser
def test_the_host_page_says_what_the_reader_learnt_from(start_service, browser, tmp_path):
    owner_examples(tmp_path / "data", 40)
    assert adapt.adapt(tmp_path / "data").adaptation is not None
    running = start_service(**LEARNING)
    page, errors = signed_in_host(browser, running, {"viewport": {"width": 1280, "height": 900}})
    page.wait_for_selector("#camera-learnt:not([hidden])")
    assert "The reader has learnt from 40 of this table's dice" in page.text_content(
        "#camera-learnt"
    )
    assert not errors, errors
