"""From camera frames to a `dice` command, when the table is waiting for a roll.

The camera thread hands every frame to `RollWatcher.on_frame`. A tray watcher (the dice
reader's settle detection) says whether the dice are moving, still, or have just come to rest
with a reading. What happens to a reading:

- The table must be waiting for a roll (a "roll" prompt), and the dice must have moved since
  the table last changed while the tray was still. Dice left lying from the previous roll are
  never read as the next one.
- Submitted at once when `auto_submit` is on, the reader is confident, and it saw exactly the
  number of dice the prompt asks for: the table expects that many, and a confident reading of
  that many is what a person would have typed. Undo takes it back like any command.
- Otherwise it waits as the *pending reading* (values, how many were expected, why it waits)
  until a person confirms it (the OK button, the host page; values may be corrected) or
  discards it. A refused submission also lands here with the table's reason.
- A new reading replaces the pending one; any change at the table drops it (the roll was
  entered by hand, undone, or the table moved on).

A frame that is no picture the reader can take (none, too small, of another shape or pixel type)
is skipped, said in one line of the log per run of such frames; the watch goes on.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from companion.dice.readers import DEFAULT as DEFAULT_READER
from companion.dice.reading import frame_problem
from companion.dice_record import CONFIRMED, CORRECTED, HANDS_FREE
from companion.game.protocol import Command, Prompt
from companion.table import Outcome, Table

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrayState:
    """What the tray watcher makes of one frame."""

    moving: bool
    values: tuple[int, ...] | None = None  # set on the frame the dice came to rest
    confident: bool = False  # every die read for sure, and as many as the table expects
    problems: tuple[str, ...] = ()  # what a person should check, in words
    reading: Any = None  # the dice reader's Reading, for outlining the dice on the picture
    view: Any = None  # the image the reader saw (the calibrated tray); readings refer to it
    doubted: tuple[int, ...] = ()  # places in `values` of the dice not read for sure


@dataclass(frozen=True)
class Pending:
    values: tuple[int, ...]
    expected: int
    note: str  # why it waits, in words for the host
    version: int = 0  # the table's version it was read at; any change makes it stale
    reading: Any = field(default=None, compare=False, repr=False)  # the reader's Reading
    view: Any = field(default=None, compare=False, repr=False)  # the image it was read on
    doubted: tuple[int, ...] = ()  # places in `values` of the dice to check first

    def to_json(self) -> dict[str, Any]:
        return {
            "values": list(self.values),
            "expected": self.expected,
            "note": self.note,
            "doubted": list(self.doubted),
        }


# (frame image, dice the table expects or None) -> state; keeps its own memory of frames.
TrayWatcher = Callable[[Any, int | None], TrayState]

# A roll read past a hand that lay still too long (tray_watcher): it may hide a die, or be a
# tray of a skin's colour.
STILL_HAND = "Something like a hand is in the tray: is every die seen?"


def roll_prompt(table: Table) -> Prompt | None:
    return next((p for p in table.prompts() if p.kind == "roll"), None)


class RollWatcher:
    def __init__(
        self,
        table: Table,
        watch: TrayWatcher | None,
        auto_submit: bool = True,
        record: Any = None,
    ):
        """`record`: a companion.dice_record.DiceRecord told of every roll the camera read
        that the table took."""
        self.table = table
        self.record = record
        self.watch = watch
        self.auto_submit = auto_submit
        self._shown: Any = None  # the last reading, outlined on the picture while at rest
        self._lock = threading.Lock()
        self._pending: Pending | None = None
        self._armed = False  # the dice moved since the table last changed with a still tray
        self._moving = False
        self._seen_version = table.version
        self._latest: Any = None  # the newest raw frame
        self._view: tuple[Any, Any] | None = None  # (frame, the tray as the reader saw it)
        self._jpeg: tuple[Any, bytes] | None = None  # (frame, its JPEG)
        self._encoder: ThreadPoolExecutor | None = None  # draws the camera picture
        self.last_submitted: tuple[int, ...] | None = None
        self.last_submitted_version = 0  # the table's version once those dice were entered
        self._listeners: list[Callable[[], None]] = []
        self._bad_frame: str | None = None  # what was wrong with the last frame, if anything

    # --- the camera thread ----------------------------------------------------------------

    def on_frame(self, frame: Any) -> None:
        problem = frame_problem(frame.image)
        if problem is not None:
            self._skipped(frame, problem)
            return
        self._bad_frame = None
        self._latest = frame
        if self.watch is None:
            return
        prompt = roll_prompt(self.table)
        state = self.watch(frame.image, prompt.dice if prompt else None)
        self._view = (frame, frame.image if state.view is None else state.view)
        with self._lock:
            version = self.table.version
            if version != self._seen_version:
                self._seen_version = version
                if not self._moving:
                    self._armed = False
            self._moving = state.moving
            if state.reading is not None or state.moving:
                self._shown = state.reading
            if state.moving:
                self._armed = True
                return
            if state.values is None or not self._armed:
                return
            self._armed = False
        self._settled(state)

    def _skipped(self, frame: Any, problem: str) -> None:
        """Said once per run of bad frames, not at the frame rate."""
        if problem != self._bad_frame:
            log.warning("Camera frame %s skipped: %s.", frame.index, problem)
        self._bad_frame = problem

    def _settled(self, state: TrayState) -> None:
        prompt = roll_prompt(self.table)
        if prompt is None:
            return
        values = state.values or ()
        if self.auto_submit and state.confident and len(values) == prompt.dice:
            game = self.table.game_id
            outcome = self._submit(values)
            if outcome.ok:
                self._set_pending(None)
                self._recorded(HANDS_FREE, state.reading, values, None, game)
                return
            note = f"Not accepted: {outcome.reason}"
        elif len(values) != prompt.dice:
            note = f"Saw {len(values)} dice, expected {prompt.dice}."
            note += f" {STILL_HAND}" if STILL_HAND in state.problems else ""
            note += " Correct and confirm."
        elif not state.confident:
            said = [
                p[0].upper() + p[1:] + ("" if p[-1] in ".?!" else ".") for p in state.problems if p
            ]
            note = " ".join(said) or "The camera is not sure of every die."
            note += " Check and confirm."
        else:
            note = "Confirm the dice."
        self._set_pending(
            Pending(
                tuple(values),
                prompt.dice,
                note,
                self.table.version,
                state.reading,
                state.view,
                state.doubted,
            )
        )

    def roll_prompt(self) -> Prompt | None:
        return roll_prompt(self.table)

    # --- people ---------------------------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        with self._lock:
            pending = self._pending
        if pending is not None and pending.version != self.table.version:
            self._set_pending(None)  # the roll was entered another way, or the table moved on
            return None
        return pending

    def confirm(self, values: list[int] | None = None) -> Outcome:
        """Submit the pending reading, or `values` a person corrected it to."""
        pending = self.pending
        if values is None:
            if pending is None:
                return Outcome(
                    False, "There is no dice reading waiting.", version=self.table.version
                )
            values = list(pending.values)
        game = self.table.game_id
        outcome = self._submit(tuple(values))
        if outcome.ok:
            self._set_pending(None)
            if pending is not None:
                how = CONFIRMED if sorted(values) == sorted(pending.values) else CORRECTED
                self._recorded(how, pending.reading, values, pending.view, game)
        return outcome

    def discard(self) -> None:
        self._set_pending(None)

    def subscribe(self, callback: Callable[[], None]) -> None:
        """`callback()` whenever the pending reading changes (the OLED and pages redraw)."""
        self._listeners.append(callback)

    # --- the host page's camera picture -----------------------------------------------------

    def latest_image(self) -> Any:
        """The newest raw camera frame (BGR), or None before the first: calibration's input."""
        frame = self._latest
        return None if frame is None else frame.image

    def camera_jpeg(self) -> bytes | None:
        """The tray as the dice reader sees it, as JPEG, dice outlined when the reader can
        draw them; None while no camera is attached.

        Drawn and encoded on one thread of its own, once per frame however many pages ask:
        OpenCV called from every web worker in turn kept memory in each of them (the
        resident size grew by hundreds of MiB while the host page watched the dice)."""
        cached = self._jpeg
        if cached is not None and cached[0] is self._shown_frame():
            return cached[1]
        if self._latest is None:
            return None
        with self._lock:
            if self._encoder is None:
                self._encoder = ThreadPoolExecutor(1, thread_name_prefix="camera-picture")
            encoder = self._encoder
        return encoder.submit(self._encode_latest).result()

    def _shown_frame(self) -> Any:
        """The frame the picture shows: the one the reader last saw, else the newest."""
        view = self._view
        return view[0] if view is not None else self._latest

    def _encode_latest(self) -> bytes | None:
        frame = self._latest
        if frame is None:
            return None
        frame, image = self._view or (frame, frame.image)
        cached = self._jpeg
        if cached is not None and cached[0] is frame:  # another page asked first
            return cached[1]
        import cv2

        if self._shown is not None:
            from companion.dice.annotate import annotate

            image = annotate(image, self._shown)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if not ok:
            return None
        self._jpeg = (frame, data.tobytes())
        return self._jpeg[1]

    def camera_lost(self) -> None:
        """The camera went away: forget its last frame, so no page shows it as if live."""
        self._latest = self._view = self._jpeg = self._shown = None

    # --- plumbing -----------------------------------------------------------------------

    def _submit(self, values: tuple[int, ...]) -> Outcome:
        outcome = self.table.submit(Command("dice", None, {"values": list(values)}))
        if outcome.ok:
            self.last_submitted, self.last_submitted_version = values, outcome.version
            log.info("Dice %s entered", list(values))
        return outcome

    def _recorded(self, how: str, reading: Any, values: Any, view: Any, game: Any) -> None:
        if self.record is None or reading is None:
            return
        try:
            self.record.rolled(how, reading, values, view, game)
        except Exception:  # the record is a help; the roll is entered all the same
            log.exception("Recording the roll failed")

    def _set_pending(self, pending: Pending | None) -> None:
        with self._lock:
            if pending == self._pending:
                return
            self._pending = pending
        for callback in list(self._listeners):
            try:
                callback()
            except Exception:
                log.exception("A pending-reading listener failed")


# The profile's `settle.still_frames` are counted at the frame rate cameras are calibrated at.
PROFILE_FPS = 30.0


def still_frames_needed(still_frames: int, fps: float | None, agree: int) -> int:
    """Still frames in a row before a roll is taken: the profile's settle window, in time, at
    the rate the camera is read (`fps`; None: the profile's count as it is), and never fewer
    than the frames that must agree."""
    if fps is None:
        return max(agree, still_frames)
    return max(agree, math.ceil(still_frames * fps / PROFILE_FPS - 1e-9))


def tray_watcher(
    profile: Callable[[], Any] | None = None,
    agree: int = 2,
    fps: float | None = None,
    reader: str = DEFAULT_READER,
) -> TrayWatcher:
    """The dice reader behind settle detection, with the table's needs added: nothing is read
    before the dice have moved (dice lying in the tray when the companion starts are not a
    new roll), and the last `agree` frames of the settle window (`still_frames_needed` still
    frames in a row at `fps`) are read. The reading is confident only if the reader is sure
    of each and they all say the same: sensor noise differs from frame to frame, so one lucky
    or unlucky frame does not decide a roll. A hand in the tray counts as motion until it has
    lain still for the profile's `hand_still_frames`: then the dice it lies among are read as
    they lie, for the table to check (what looks like a hand may be a tray of a skin's
    colour, and a roll must not wait for ever).

    The window's last frames are read as they come, not once it is over: a roll reaches the
    table two or three frames after the dice stop. A movement in the window starts it and the
    reads again, so a moving tray is never read as settled.

    `profile()` returns the calibration profile (companion.profile.CalibrationProfile) to
    use for this frame, e.g. a ProfileSource's `current`; the reader sees the calibrated tray
    only. None uses the built-in profile and the whole frame. `reader` names the dice reader
    (companion.dice.readers)."""
    from companion.dice.readers import read_function
    from companion.dice.reading import BENEATH, CHECK, HAND
    from companion.dice.settle import SettleDetector

    if profile is None:
        from companion.profile import load

        fixed = load(None)
        profile = lambda: fixed  # noqa: E731
    read = read_function(reader)
    in_use = profile()
    detector = SettleDetector(in_use.dice)  # its motion measure; the arming is ours
    memory: dict[str, Any] = {"still": 0, "in_motion": False, "reads": [], "hand": 0}

    def watch(image: Any, expected: int | None) -> TrayState:
        nonlocal in_use, detector
        current = profile()
        if current is not in_use:  # recalibrated: frames before and after do not compare
            in_use, detector = current, SettleDetector(current.dice)
        dice = current.dice
        settle = dice.settle
        view = current.tray_view(image)
        if detector.motion(view) > settle.moving_fraction:
            memory.update(still=0, in_motion=True, reads=[], hand=0)
            return TrayState(moving=True, view=view)
        if not memory["in_motion"]:
            return TrayState(moving=False, view=view)
        memory["still"] += 1
        memory["hand"] += memory["hand"] > 0  # frames a still hand has lain, from the first
        if memory["still"] <= still_frames_needed(settle.still_frames, fps, agree) - agree:
            return TrayState(moving=True, view=view)  # coming to rest
        reading = read(view, dice, expected)
        if reading.status == HAND:  # a still hand: wait for it to leave, for a while
            memory["hand"] = max(memory["hand"], 1)
            beneath = reading.extras.get(BENEATH)
            patience = still_frames_needed(settle.hand_still_frames, fps, agree)
            if memory["hand"] <= patience or beneath is None or not beneath.is_reading:
                memory.update(still=0, reads=[])
                return TrayState(moving=True, view=view)
            problems = (*beneath.problems, STILL_HAND)
            reading = replace(beneath, status=CHECK, problems=problems)
        reads = memory["reads"]
        reads.append(reading)
        if len(reads) < agree:
            return TrayState(moving=True, view=view)
        memory.update(in_motion=False, reads=[])
        first = reads[0]
        if not first.is_reading:
            return TrayState(moving=False, view=view)
        same = all(r.values == first.values for r in reads)
        problems = first.problems if same else (*first.problems, "successive frames disagree")
        confident = same and all(r.ok for r in reads)
        return TrayState(
            False, tuple(first.values), confident, problems, first, view, first.doubted
        )

    return watch
