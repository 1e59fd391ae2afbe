"""Guided calibration, one step after another, for the host page and the command line alike.

Steps:
1. frame  - an empty tray in view: the tray is found (or its corners tapped), the picture's
            exposure checked, the camera settings and the tray's corners stored in the profile.
2. dice   - three rolls of the owner's dice, each with the faces the owner sees: the dice reader
            the table uses is calibrated on them (the owner's die size; the pip search's
            thresholds too), the accuracy before and after is shown, the profile stored.
3. ...     - the calibration steps the registered games bring (`calibration_steps()` in a
            bundle, see `companion.game.calibrating`): each gets the tray seen from above for
            every frame, and the owner's typed number, quarter turn or skip.

Every step can be started again at any time. A frame that cannot be used changes nothing and
leaves `problem` saying why (too dark, tray not found, tile not found, ...). Nothing here
leaves through a page except the instructions and the picture a game's step holds while it
waits for its number (the owner holds that piece right now).

    session = CalibrationSession("var")
    session.capture(frame)              # the step in progress takes the frame
    session.guide().oled                 # what the OLED shows now
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from calibration import tray
from companion import profile as calibration_profile
from companion.dice.readers import DEFAULT as DEFAULT_READER
from companion.game.calibrating import (
    NUMBER_REFUSAL,
    CalibrationStep,
    StepProblem,
    StepRun,
    registered_steps,
)

BUILT_IN = ("frame", "dice")
TITLES = {"frame": "Frame", "dice": "Dice"}
DICE_ROLLS = 3
MAX_DICE = 25
EMPTY_TRAY = "tray_empty.png"  # the empty tray, kept to find tiles on any tray colour
OLED_WIDTH = 21  # characters of the 128x64 OLED's small font

Tuner = Callable[[list[tuple[np.ndarray, list[int]]], Any], tuple[Any, float, float]]
"""(labelled tray images, dice profile) -> (calibrated dice profile, accuracy before, after)."""
SIZE_UNKNOWN = (
    "The dice's size could not be told: in no roll did the reader find as many dice as typed"
)


@dataclass(frozen=True)
class Guide:
    """What to tell the owner now: a title, a paragraph for the host page, up to four short
    lines for the OLED, the progress, and the problem with the last frame, if any."""

    step: str
    title: str
    text: str
    oled: tuple[str, ...]
    progress: str
    problem: str | None

    def screen(self):
        """The OLED screen for this moment (companion.screens' notice layout)."""
        from companion.screens.common import notice

        return notice(self.oled[0], *self.oled[1:])


class CalibrationSession:
    """The calibration in progress, with the profile and what its steps store in `data_dir`."""

    def __init__(
        self,
        data_dir: str | Path,
        profile_path: str | Path | None = None,
        tuner: Tuner | None = None,
        on_roll: Callable[[np.ndarray, list[int]], None] | None = None,
        game_steps: Sequence[CalibrationStep] | None = None,
        reader: str = DEFAULT_READER,
    ):
        """`on_roll(tray view, faces)` is told of every dice roll the owner labels;
        `game_steps` follow the dice (default: those of every registered game); `reader` is
        the dice reader the table uses (companion.dice.readers), the one calibrated."""
        self.data_dir = Path(data_dir)
        self.reader = reader
        self._on_roll = on_roll
        self.profile_path = (
            Path(profile_path) if profile_path else calibration_profile.default_path(data_dir)
        )
        self.profile = calibration_profile.load_or_default(self.profile_path)
        self._tuner = tuner
        self.step = "frame"
        self.problem: str | None = None
        self.note: str | None = None
        self.rolls: list[tuple[np.ndarray, list[int]]] = []
        self.dice_accuracy: tuple[float, float] | None = None
        steps = registered_steps() if game_steps is None else game_steps
        self.game_steps = {step.name: step for step in steps}
        if set(self.game_steps) & set(BUILT_IN) or len(self.game_steps) < len(steps):
            raise ValueError(f"Calibration step names must differ: {[s.name for s in steps]}")
        self.steps = (*BUILT_IN, *self.game_steps)
        self.runs: dict[str, StepRun] = {
            name: step.start(self.data_dir) for name, step in self.game_steps.items()
        }
        path = self.data_dir / EMPTY_TRAY
        self._empty = _read_image(path) if path.is_file() else None

    # Steps -------------------------------------------------------------------------------
    def start(self, step: str) -> None:
        """Begin (or begin again) `step`; what it had gathered so far is dropped."""
        if step not in self.steps:
            raise ValueError(f"Calibration steps are {', '.join(self.steps)}, not {step!r}.")
        self.step, self.problem, self.note = step, None, None
        if step == "dice":
            self.rolls, self.dice_accuracy = [], None
        if step in self.game_steps:
            self.runs[step] = self.game_steps[step].start(self.data_dir)

    def done(self) -> dict[str, bool]:
        """Which steps have stored their results (in this run or an earlier one)."""
        return {
            "frame": self.profile.tray is not None,
            "dice": self.dice_accuracy is not None,
            **{name: run.done() for name, run in self.runs.items()},
        }

    def capture(self, image: np.ndarray, camera_settings: Any = None) -> bool:
        """Hand the step in progress a camera frame (BGR). True when it was used; otherwise
        `problem` says why and nothing changed. `camera_settings` (hardware CameraSettings)
        are the locked settings the frame was taken with; the frame step stores them."""
        self.problem = self.note = None
        if self.step == "frame":
            return self._frame(image, camera_settings)
        if self.step in self.runs:
            return self._game_frame(image)
        return self._fail("Roll the dice, then type the faces you see with the picture.")

    # Frame -------------------------------------------------------------------------------
    def _frame(self, image: np.ndarray, camera_settings: Any) -> bool:
        try:
            corners = tray.find_tray(image)
        except tray.TrayNotFound as exc:
            return self._fail(str(exc))
        return self._keep_frame(image, corners, camera_settings)

    def set_corners(
        self, image: np.ndarray, points: Sequence[Sequence[float]], camera_settings: Any = None
    ) -> bool:
        """The tray's corners tapped on `image`, in its pixels, in any order."""
        self.problem = self.note = None
        if self.step != "frame":
            self.start("frame")
        problem = tray.frame_problem(image)
        if problem:
            return self._fail(problem)
        if len(points) != 4:
            return self._fail(f"Tap the tray's 4 corners ({len(points)} tapped).")
        return self._keep_frame(image, tray.order_corners(np.array(points)), camera_settings)

    def _keep_frame(self, image: np.ndarray, corners: np.ndarray, camera_settings: Any) -> bool:
        height, width = image.shape[:2]
        fractions = tray.to_fractions(corners, (width, height))
        try:
            calibration_profile.check_quad(fractions, "The tapped corners")
        except calibration_profile.ProfileError as exc:
            return self._fail(str(exc))
        camera = dict(self.profile.camera)
        if camera_settings is not None:
            from calibration.exposure import profile_values

            camera = profile_values(camera_settings)
        tray_corners = tuple(map(tuple, fractions))
        dice = _same_die_size(self.profile, tray_corners, (width, height))
        updated = replace(self.profile, tray=tray_corners, camera=camera, dice=dice)
        _write_image(self.data_dir / EMPTY_TRAY, image)
        calibration_profile.save(updated, self.profile_path)
        self.profile, self._empty = updated, image
        self.note = "Tray found and stored. Next: the dice."
        self.step = "dice"
        self.rolls, self.dice_accuracy = [], None
        return True

    def tray_view(self, image: np.ndarray) -> np.ndarray:
        """The tray from straight above: where the frame step stored it, else where it is
        found in this frame, else the whole frame."""
        if self.profile.tray is not None:
            return self.profile.tray_view(image)
        try:
            return tray.warp_tray(image, tray.find_tray(image))
        except tray.TrayNotFound:
            return image

    # Dice --------------------------------------------------------------------------------
    def add_roll(self, image: np.ndarray, faces: Sequence[int]) -> bool:
        """One roll: the frame and the faces the owner sees (any order). After the third the
        reader is tuned and the profile stored."""
        self.problem = self.note = None
        if self.step != "dice":
            self.start("dice")
        try:
            values = [int(f) for f in faces]
        except (TypeError, ValueError):
            return self._fail("Type the faces as numbers 1-6, e.g. 3 5 1 6 2.")
        if not values or len(values) > MAX_DICE or any(not 1 <= v <= 6 for v in values):
            return self._fail(f"Type the faces you see: 1 to {MAX_DICE} numbers, each 1-6.")
        problem = tray.frame_problem(image)
        if problem:
            return self._fail(problem)
        self.rolls.append((self.tray_view(image), sorted(values)))
        if self._on_roll is not None:
            self._on_roll(*self.rolls[-1])
        if len(self.rolls) < DICE_ROLLS:
            self.note = f"Roll {len(self.rolls)} kept. Roll again."
            return True
        return self._tune()

    def _tune(self) -> bool:
        tuner = self._tuner or default_tuner(self.reader)
        try:
            tuned, before, after = tuner(self.rolls, self.profile.dice)
        except ValueError as exc:
            self.rolls = []
            return self._fail(f"The dice could not be tuned ({exc}). Roll three times again.")
        updated = replace(self.profile, dice=tuned)
        calibration_profile.save(updated, self.profile_path)
        self.profile = updated
        following = next(iter(self.game_steps.values()), None)
        if following is not None:
            self.start(following.name)
        self.dice_accuracy = (before, after)
        then = (
            f"Next: the {following.title[0].lower()}{following.title[1:]}."
            if following
            else "Calibration is complete."
        )
        self.note = f"{self._calibrated(tuned, before, after)} {then}"
        return True

    def _calibrated(self, dice: Any, before: float, after: float) -> str:
        """What calibrating the dice did, in words: the die size found, and for the pip
        search its tuning."""
        accuracy = f"{before:.0%} of dice read right before, {after:.0%} now"
        size = dice.scale.die_pixels(self.rolls[-1][0].shape)
        if self.reader == "detector":
            if size is None:
                return f"{SIZE_UNKNOWN}, so the reader goes on searching for it ({accuracy})."
            return f"Dice reader calibrated to dice about {size:.0f} px across: {accuracy}."
        if size is None:
            return f"Dice reader tuned: {accuracy}. {SIZE_UNKNOWN}."
        return f"Dice reader tuned: {accuracy}; dice about {size:.0f} px across."

    # A game's steps ---------------------------------------------------------------------
    def _game_frame(self, image: np.ndarray) -> bool:
        problem = tray.frame_problem(image)
        if problem:
            return self._fail(problem)
        view = self.tray_view(image)
        empty = None
        if self._empty is not None and self.profile.tray is not None:
            empty = self.tray_view(self._empty)
            if empty.shape != view.shape:
                empty = None  # taken at another resolution: the step looks without it
        return self._act(lambda run: run.capture(view, empty))

    def _act(self, action: Callable[[StepRun], str]) -> bool:
        run = self.runs.get(self.step)
        if run is None:
            return self._fail("This step has no piece to number, turn or skip.")
        try:
            self.note = action(run)
        except StepProblem as exc:
            return self._fail(str(exc))
        return True

    def type_number(self, number: int) -> bool:
        """The number on the piece whose picture was just taken, typed in."""
        self.problem = self.note = None
        return self._act(lambda run: run.type_number(number))

    def turn_picture(self) -> bool:
        """Turn the picture waiting for its number a quarter turn clockwise (a piece that was
        laid sideways)."""
        self.problem = None
        return self._act(lambda run: run.turn_picture())

    def skip_tile(self) -> None:
        """Forget the current piece; the step starts on the next one."""
        self.problem = None
        self._act(lambda run: run.skip())

    @property
    def awaiting_number(self) -> bool:
        """A piece's picture is taken and waits for its number (read or typed)."""
        return self.current_picture() is not None

    # What to tell the owner ----------------------------------------------------------------
    def _fail(self, problem: str) -> bool:
        self.problem = problem
        return False

    def guide(self) -> Guide:
        n, total = self.steps.index(self.step) + 1, len(self.steps)
        head = f"{self.step.upper()} {n}/{total}"
        if self.step == "frame":
            text = (
                "Empty the tray and make sure all of it is in view, lit as it will be during "
                "play. Then capture: the companion finds the tray and locks the exposure. "
                "If it cannot find the tray, tap its four corners on the picture."
            )
            oled = (head, "Empty the tray,", "light it as in play,", "then capture.")
            progress = "Tray stored" if self.profile.tray else "Tray not found yet"
        elif self.step == "dice":
            k = len(self.rolls) + 1
            text = (
                f"Roll {k} of {DICE_ROLLS}: roll all your dice into the tray, wait until they "
                "lie still, then type the faces you see (any order) and capture."
            )
            oled = (head, f"Roll {k} of {DICE_ROLLS}:", "roll, then type", "the faces.")
            progress = f"{len(self.rolls)} of {DICE_ROLLS} rolls"
        else:
            step_guide = self.runs[self.step].guide()
            text, oled, progress = step_guide.text, (head, *step_guide.oled), step_guide.progress
        if self.problem:
            # The OLED says what is wrong in short; the host page says what to do about it.
            headline = self.problem.split(":")[0].split(". ")[0]
            oled = (oled[0], *_wrap(headline, 2), "See the host page.")
        return Guide(
            step=self.step,
            title=f"Step {n} of {total}: {self._title(self.step)}",
            text=text,
            oled=tuple(line[:OLED_WIDTH] for line in oled),
            progress=progress,
            problem=self.problem,
        )

    def number_refusal(self) -> str:
        """What to say to a typed number that is not one: the step in progress's words."""
        step = self.game_steps.get(self.step)
        return step.number_refusal if step else NUMBER_REFUSAL

    def _title(self, step: str) -> str:
        return TITLES[step] if step in TITLES else self.game_steps[step].title

    def status(self) -> dict[str, Any]:
        """JSON-ready state for the host page (no picture: see `current_picture`), with what
        each game's step adds."""
        guide = self.guide()
        game_step = self.game_steps.get(self.step)
        facts: dict[str, Any] = {}
        for run in self.runs.values():
            facts.update(run.status())
        return {
            **facts,
            "step": self.step,
            "steps": list(self.steps),
            "done": self.done(),
            "title": guide.title,
            "text": guide.text,
            "oled": list(guide.oled),
            "progress": guide.progress,
            "problem": guide.problem,
            "note": self.note,
            "awaiting_number": self.awaiting_number,
            "number_hint": game_step.number_hint if game_step else None,
            "rolls": len(self.rolls),
            "accuracy": (
                {"before": self.dice_accuracy[0], "after": self.dice_accuracy[1]}
                if self.dice_accuracy
                else None
            ),
            "tray": [list(c) for c in self.profile.tray] if self.profile.tray else None,
        }

    def current_picture(self) -> np.ndarray | None:
        """The picture of the piece being calibrated now (the owner holds it), if taken."""
        run = self.runs.get(self.step)
        return run.picture() if run is not None else None


def _same_die_size(profile: Any, tray: Any, size: tuple[int, int]) -> Any:
    """The dice profile with its calibrated die size kept in camera pixels when the tray's
    outline changes: the die size is a share of the tray view's longest side, and a new
    outline makes that view longer or shorter."""
    share = profile.dice.scale.calibrated_die
    if not share:
        return profile.dice
    from companion.dice.tune import with_die_share

    def longest(corners: Any) -> int:
        if corners is None:
            return max(size)  # no tray: the whole frame is the view
        return max(calibration_profile.tray_size(calibration_profile.from_fractions(corners, size)))

    return with_die_share(profile.dice, share * longest(profile.tray) / longest(tray))


def default_tuner(reader: str = DEFAULT_READER) -> Tuner:
    """The calibration of the dice reader called `reader`, on the owner's labelled rolls."""
    return calibrate_detector if reader == "detector" else tune_on_rolls


def tune_on_rolls(rolls: list[tuple[np.ndarray, list[int]]], dice: Any) -> tuple[Any, float, float]:
    """Tune the pip search's numbers in the dice profile `dice` on the rolls and measure the
    owner's die size with it; returns the profile with the share of dice read right before
    and after."""
    from companion.dice.reader import read
    from companion.dice.tune import die_share, tune, with_die_share

    samples = _samples(rolls)
    result = tune({"owner's rolls": samples}, dice)
    tuned = with_die_share(result.profile, die_share(samples, result.profile, read))
    return tuned, _accuracy(result.before), _accuracy(result.after)


def calibrate_detector(
    rolls: list[tuple[np.ndarray, list[int]]], dice: Any
) -> tuple[Any, float, float]:
    """The learned detector has no thresholds to tune: measure the owner's die size with it
    (searching for the size, as uncalibrated) and store it, so it reads in one pass at that
    scale; returns the profile with the share of dice read right before and after."""
    from companion.dice.learned import read
    from companion.dice.scoring import score
    from companion.dice.tune import die_share, with_die_share

    samples = _samples(rolls)
    # Searched for first, then read at the size found: the detector tells sizes far from
    # its own die size a fifth or more off, near it within a few percent.
    calibrated = with_die_share(dice, die_share(samples, dice, read, again=2))
    before = score("before", samples, dice, read=read)
    after = score("after", samples, calibrated, read=read)
    return calibrated, _accuracy([before]), _accuracy([after])


def _samples(rolls: list[tuple[np.ndarray, list[int]]]) -> list:
    from companion.dice.scoring import Sample

    return [
        Sample(name=f"roll {i}", faces=tuple(values), frame=image)
        for i, (image, values) in enumerate(rolls, 1)
    ]


def _accuracy(scores) -> float:
    """The share of the labelled dice read right."""
    return sum(s.correct for s in scores) / max(sum(s.dice for s in scores), 1)


def _wrap(text: str, lines: int) -> list[str]:
    out: list[str] = []
    for word in text.split():
        if out and len(out[-1]) + 1 + len(word) <= OLED_WIDTH:
            out[-1] += " " + word
        else:
            out.append(word)
    return out[:lines]


def _read_image(path: Path) -> np.ndarray | None:
    import cv2

    return cv2.imread(str(path), cv2.IMREAD_COLOR)


def _write_image(path: Path, image: np.ndarray) -> None:
    import cv2

    from companion.atomic_file import write_atomically

    ok, png = cv2.imencode(".png", image)
    if not ok:
        raise ValueError(f"could not encode {path.name}")
    write_atomically(path, png.tobytes())
