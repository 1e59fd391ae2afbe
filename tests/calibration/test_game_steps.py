"""The calibration tool offers the steps the registered games bring, after the tray and the
dice, and hands them the tray seen from above; it knows none of them by name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration.session import CalibrationSession
from companion.game.calibrating import CalibrationStep, StepGuide, StepProblem, registered_steps


class CardRun:
    """A game's step that keeps the mean colour of a card laid in the tray, for the test."""

    def __init__(self, data_dir: Path):
        self.path = Path(data_dir) / "card.txt"
        self.views: list[np.ndarray] = []

    def capture(self, view, empty) -> str:
        if empty is None:
            raise StepProblem("Calibrate the frame first.")
        self.views.append(view)
        self.path.write_text(str(float(view.mean())))
        return "Card stored."

    def type_number(self, number: int) -> str:
        raise StepProblem("Cards have no number.")

    def turn_picture(self) -> str:
        raise StepProblem("There is no picture to turn.")

    def skip(self) -> str:
        return "Skipped."

    def picture(self):
        return None

    def done(self) -> bool:
        return self.path.is_file()

    def guide(self) -> StepGuide:
        text = "Lay the card in the tray, then capture."
        return StepGuide(text, ("Lay the card,", "capture."), "")

    def status(self) -> dict:
        return {"card_stored": self.done()}

    def run_command(self, session, frames, args, ask) -> int:
        return 0


CARD = CalibrationStep(
    name="card",
    title="Colour card",
    help="photograph the colour card",
    number_hint="",
    images_help="a picture of the card",
    start=CardRun,
)


def test_every_registered_games_step_follows_the_tray_and_the_dice(tmp_path):
    session = CalibrationSession(tmp_path)
    names = [step.name for step in registered_steps()]
    assert names, "a registered game brings a calibration step"
    assert session.steps == ("frame", "dice", *names)
    assert session.status()["steps"] == list(session.steps)
    assert set(session.done()) == set(session.steps)


def test_a_games_step_gets_the_tray_view_and_says_what_it_cannot_use(tmp_path, camera):
    session = CalibrationSession(tmp_path, game_steps=[CARD])
    assert session.steps == ("frame", "dice", "card")
    camera.clear()
    assert session.capture(camera.read().image), session.problem
    session.start("card")
    guide = session.guide()
    assert guide.title == "Step 3 of 3: Colour card" and guide.oled[0] == "CARD 3/3"
    assert not session.type_number(4)
    assert session.problem == "Cards have no number."
    assert not session.done()["card"]
    frame = camera.read().image
    assert session.capture(frame), session.problem
    run = session.runs["card"]
    assert run.views[-1].shape == session.tray_view(frame).shape != frame.shape
    assert session.note == "Card stored." and session.done()["card"]
    assert session.status()["card_stored"]
    assert not session.capture((frame * 0.1).astype(np.uint8))  # too dark: the step never sees it
    assert len(run.views) == 1 and "Too dark" in session.problem


def test_after_the_dice_the_first_games_step_begins_or_calibration_is_complete(tmp_path, camera):
    tuner = lambda rolls, dice: (dice, 0.5, 0.9)  # noqa: E731 - the reader's tuning is tested elsewhere
    for steps, step, said in (([CARD], "card", "Next: the colour card."), ([], "dice", "complete")):
        session = CalibrationSession(tmp_path, tuner=tuner, game_steps=steps)
        session.start("dice")
        for _ in range(3):
            camera.show_dice([1, 2, 3])
            assert session.add_roll(camera.read().image, [1, 2, 3]), session.problem
        assert session.step == step and said in session.note


def test_step_names_may_not_clash(tmp_path):
    dice = CalibrationStep("dice", "Dice again", "", "", "", CardRun)
    for steps in ([dice], [CARD, CARD]):
        with pytest.raises(ValueError, match="must differ"):
            CalibrationSession(tmp_path, game_steps=steps)
