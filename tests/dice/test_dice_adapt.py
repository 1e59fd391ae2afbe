"""The reader learns the owner's dice: the labelled dice the table kept (calibration rolls,
confirmed and corrected rolls) adapt the face classifier; a broken adaptation file never
stops the shipped model reading; `companion dice adapt` says what it learnt from."""

from __future__ import annotations

import logging
from dataclasses import replace

import numpy as np
import pytest

from companion.cli import main
from companion.dice import adapt, faceclass, synth
from companion.dice.reader import read
from companion.dice_record import DiceRecord

from . import scenes

# Marbled blue dice: the shipped model reads their faces but is seldom sure of them.
KIND = {"style": "blue", "marble": 2.5}


@pytest.fixture
def model():
    """The shipped face classifier, left as it was found."""
    shipped = faceclass.model()
    yield shipped
    shipped.adaptation = None


def marbled_trays(seed: int, count: int):
    """Rendered trays of four marbled dice: (frame, faces)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        faces = [int(f) for f in rng.integers(1, 7, 4)]
        dice = [
            scenes.die(
                f,
                110 + 140 * i,
                240 + rng.uniform(-30, 30),
                size=40,
                angle=float(rng.uniform(0, 90)),
                **KIND,
            )
            for i, f in enumerate(faces)
        ]
        yield synth.render(scenes.tray(dice), rng), faces


def kept_as_calibration(data_dir, trays) -> int:
    """The owner calibrates with these trays: the record keeps their dice; how many."""
    record = DiceRecord(data_dir)
    for frame, faces in trays:
        record.calibration_roll(frame, faces)
    record.flush()
    record.close()
    return len(record.example_files())


def read_for_sure(trays) -> tuple[int, int]:
    """Dice read hands-free (no flag) right, and wrong."""
    right = wrong = 0
    for frame, faces in trays:
        for d in read(frame, expected=len(faces)).dice:
            if not d.flags:
                right += d.face in faces
                wrong += d.face not in faces
    return right, wrong


def test_learning_the_owners_marbled_dice_reads_more_of_them_hands_free(model, tmp_path):
    assert kept_as_calibration(tmp_path, marbled_trays(1, 10)) >= 30
    before = read_for_sure(marbled_trays(2, 10))

    report = adapt.adapt(tmp_path, model)
    assert report.adaptation is not None, report.lines()
    assert (tmp_path / adapt.ADAPTED_NAME).is_file()
    assert adapt.install(tmp_path, model) is not None
    after = read_for_sure(marbled_trays(2, 10))

    assert after[0] >= before[0] + 6, (before, after)  # of 40 dice
    assert after[1] <= before[1]  # and no die more read wrong for sure


def test_what_the_owners_dice_teach_leaves_other_dice_read_as_before(model, tmp_path):
    kept_as_calibration(tmp_path, marbled_trays(1, 10))
    rng = np.random.default_rng(5)
    ivory = [
        (synth.render(synth.random_scene(faces, rng, view_tilt=0.0), rng), faces)
        for faces in ([1, 2, 3, 4], [5, 6, 1, 2], [3, 4, 5, 6], [6, 6, 2, 1])
    ]
    before = read_for_sure(ivory)
    adapt.adapt(tmp_path, model)
    adapt.install(tmp_path, model)
    right, wrong = read_for_sure(ivory)
    assert wrong <= before[1] and right >= before[0] - 1


@pytest.mark.parametrize("content", [b"", b"not a numpy file", b"PK\x03\x04 cut short"])
def test_a_corrupt_adaptation_is_named_and_the_shipped_model_reads(
    model, tmp_path, caplog, content
):
    frame, _ = next(marbled_trays(3, 1))
    shipped = read(frame, expected=4)
    (tmp_path / adapt.ADAPTED_NAME).write_bytes(content)
    with caplog.at_level(logging.WARNING):
        assert adapt.install(tmp_path, model) is None
    assert [r.getMessage() for r in caplog.records if adapt.ADAPTED_NAME in r.getMessage()]
    assert len(caplog.records) == 1
    assert read(frame, expected=4) == shipped


def test_without_an_adaptation_the_shipped_model_reads(model, tmp_path):
    frame, _ = next(marbled_trays(3, 1))
    shipped = read(frame, expected=4)
    assert adapt.install(tmp_path, model) is None
    assert read(frame, expected=4) == shipped


def test_an_adaptation_fitted_on_another_model_is_not_used(model, tmp_path, caplog):
    kept_as_calibration(tmp_path, marbled_trays(1, 10))
    adapted = adapt.adapt(tmp_path, model).adaptation
    other = replace(adapted, shipped="0123456789abcdef")
    (tmp_path / adapt.ADAPTED_NAME).write_bytes(other.to_bytes())
    with caplog.at_level(logging.WARNING):
        assert adapt.install(tmp_path, model) is None
    assert "another dice model" in caplog.text


def test_adapt_command_with_no_examples_says_so_and_changes_nothing(tmp_path, capsys):
    assert main(["dice", "adapt", "--data-dir", str(tmp_path)]) == 1
    assert "no examples of the owner's dice" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_adapt_command_prints_what_it_learnt_from_and_the_figures(model, tmp_path, capsys):
    kept = kept_as_calibration(tmp_path, marbled_trays(1, 10))
    assert main(["dice", "adapt", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"learnt from {kept} of the owner's dice" in out
    assert "shipped model:" in out and "last-layer:" in out and "prototypes:" in out
    assert f"wrote {tmp_path / adapt.ADAPTED_NAME}" in out


def test_too_few_examples_teach_nothing(model, tmp_path, capsys):
    kept_as_calibration(tmp_path, marbled_trays(1, 1))
    assert main(["dice", "adapt", "--data-dir", str(tmp_path)]) == 0
    assert "Too few examples" in capsys.readouterr().out
    assert not (tmp_path / adapt.ADAPTED_NAME).exists()


def test_the_learned_detector_keeps_reading_with_the_shipped_model(model, tmp_path):
    """Its face threshold is lower than the pip search's, at which the adaptation is checked."""
    from companion.dice import learned

    kept_as_calibration(tmp_path, marbled_trays(1, 10))
    trays = list(marbled_trays(2, 3))
    before = [learned.read(frame, expected=4) for frame, _ in trays]
    assert adapt.adapt(tmp_path, model).adaptation is not None
    adapt.install(tmp_path, model)
    assert [learned.read(frame, expected=4) for frame, _ in trays] == before
