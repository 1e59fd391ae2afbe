"""Calibration steps a game bundle brings of its own, after the tray and the dice.

A bundle's optional `calibration_steps()` lists `CalibrationStep`s. The calibration tool (host
page and `companion calibrate NAME`) offers each one by its name, starts a `StepRun` in the data
directory when the owner begins it, hands the run the tray seen from above for every frame it
captures, and passes on the owner's typed number, quarter turn or skip. The run keeps what it
gathered and stores its results itself; it never sees the camera, only pictures.

    for step in registered_steps():
        run = step.start(data_dir)
        note = run.capture(tray_view, empty_tray_view)     # StepProblem: nothing changed
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol


class StepProblem(Exception):
    """A frame or an answer the step cannot use; the message says what to change."""


@dataclass(frozen=True)
class StepGuide:
    """What to tell the owner now: a paragraph for the host page, up to three short lines for
    the OLED (under the step's heading) and the progress."""

    text: str
    oled: tuple[str, ...]
    progress: str


class StepRun(Protocol):
    """One run of a step, from its start until it is started again."""

    def capture(self, view: Any, empty: Any | None) -> str:
        """Take a frame: `view` is the tray from above (BGR), `empty` the empty tray seen the
        same way (or None). Returns a note for the owner; raises StepProblem when unused."""

    def type_number(self, number: int) -> str:
        """The number the owner typed for the picture waiting for one (StepProblem if none)."""

    def turn_picture(self) -> str:
        """Turn the waiting picture a quarter turn clockwise (StepProblem if none)."""

    def skip(self) -> str:
        """Forget the piece in progress."""

    def picture(self) -> Any | None:
        """The picture waiting for its number (the owner holds the piece), else None."""

    def done(self) -> bool:
        """The step's results are all stored (in this run or an earlier one)."""

    def guide(self) -> StepGuide: ...

    def status(self) -> dict[str, Any]:
        """JSON-ready facts for the host page beyond the generic ones; never a stored picture."""

    def run_command(self, session: Any, frames: FrameSource, args: Any, ask: Asker) -> int:
        """`companion calibrate NAME`: feed `session` frames until done; the exit status."""


FrameSource = Callable[[str], Any]
"""frames(prompt) -> the next camera frame (BGR) after telling the owner `prompt`, or None when
there are no more (the owner stopped, the pictures ran out)."""

Asker = Callable[[str], str | None]
"""ask(question) -> what the owner typed, or None when nobody is there to ask."""


NUMBER_REFUSAL = "Type the number in digits."


@dataclass(frozen=True)
class CalibrationStep:
    """A game's calibration step: `name` on the host page and the command line, `title` in
    the step's heading, `help` for `companion calibrate --help`, `number_hint` for the host
    page's number field and `number_refusal` for a number typed wrong, `start(data_dir)` a new
    run. `add_arguments(parser)` adds the
    command's own options; `images_help` says what `--images` takes; `demo_faces()` are the
    pieces' faces a simulated camera shows, one per frame, for `--camera sim`."""

    name: str
    title: str
    help: str
    number_hint: str
    images_help: str
    start: Callable[[Path], StepRun]
    number_refusal: str = NUMBER_REFUSAL
    add_arguments: Callable[[Any], None] = lambda parser: None
    demo_faces: Callable[[], Iterator[Any]] = lambda: iter(())


def registered_steps(games: Sequence[str] | None = None) -> list[CalibrationStep]:
    """The calibration steps of the registered games (or of `games`), in registry order."""
    from companion.game import GAMES, load_game

    steps: list[CalibrationStep] = []
    for name in games if games is not None else GAMES:
        offer = getattr(load_game(name), "calibration_steps", None)
        for step in offer() if offer else ():
            if step.name in {s.name for s in steps}:
                raise ValueError(f"Two games name a calibration step {step.name!r}.")
            steps.append(step)
    return steps
