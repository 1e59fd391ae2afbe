"""How the camera does at this table, and the owner's dice it has learnt from.

Every roll the camera read and the table took is one line of the record: the game, what the
camera read, what the table entered, and how (hands-free; confirmed with one tap; corrected by
a person). The last MAX_ROLLS stay in `DATA_DIR/dice-record.json`, which the host page sums
up: the hands-free rate of the last games and of the last 50 rolls, and the last rolls it got
wrong.

Rolls a person confirmed or corrected, and the calibration rolls, are also kept as labelled
examples of the owner's dice: one small NPZ per die in `DATA_DIR/dice-examples/` with the
die's picture (CROP_SIDE pixels square, the die and a margin around it, BGR), the face the
table gave it, the face the camera read and how sure the camera was. The picture is cut as
the face classifier cuts a die (`companion.dice.faceclass.crop`), so the adaptation
(`companion.dice.adapt`) sees the owner's dice as the reader does. A die whose face the
correction leaves ambiguous (two dice read wrong in one roll) is not kept: a wrong label
teaches worse than none. Only the newest MAX_EXAMPLES files stay.

Files are written atomically (companion.atomic_file) on a thread of their own, so a tap on
the host page does not wait for the SD card; a full or read-only disk is logged once per
kind of failure and the table plays on.
"""

from __future__ import annotations

import io
import json
import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from companion.atomic_file import SaveError, write_atomically

log = logging.getLogger(__name__)

RECORD_NAME = "dice-record.json"
EXAMPLES_DIR = "dice-examples"
MAX_ROLLS = 500
MAX_EXAMPLES = 2000
CROP_SIDE = 48  # pixels
RECENT_ROLLS = 50
RECENT_GAMES = 5
WRONG_SHOWN = 5

# how a roll was entered
HANDS_FREE = "hands-free"
CONFIRMED = "confirmed"  # the camera's proposal, with one tap
CORRECTED = "corrected"  # other values than the camera's


@dataclass(frozen=True)
class RollOutcome:
    game: int | None  # the table's game
    read: tuple[int, ...]  # what the camera read, sorted
    entered: tuple[int, ...]  # what the table entered, sorted
    how: str  # HANDS_FREE, CONFIRMED or CORRECTED
    at: float = 0.0  # seconds since the epoch

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["read"], data["entered"] = list(self.read), list(self.entered)
        return data


def labelled(dice: Sequence[Any], entered: Sequence[int]) -> list[tuple[Any, int]]:
    """(die, the face the table gave it) for the dice of a reading whose label is certain:
    a die read as a face the table entered keeps it (each entered face given once); when one
    die is left over and one face, that die had that face. Cocked dice (no face) and dice
    left ambiguous are not labelled."""
    left = Counter(int(v) for v in entered)
    sure, unsure = [], []
    for die in dice:
        if die.face is not None and left[die.face] > 0:
            left[die.face] -= 1
            sure.append((die, die.face))
        elif die.face is not None:
            unsure.append(die)
    remaining = list(left.elements())
    if len(unsure) == 1 and len(remaining) == 1:
        sure.append((unsure[0], remaining[0]))
    return sure


def die_picture(view: Any, box: Sequence[int]) -> Any:
    """The die in `box` (x1, y1, x2, y2) with a margin, CROP_SIDE pixels square: the part of
    the picture the face classifier reads."""
    import math

    from companion.dice import faceclass

    x1, y1, x2, y2 = box
    edge = max(math.sqrt(max(x2 - x1, 1) * max(y2 - y1, 1)), 4.0)
    return faceclass.crop(view, ((x1 + x2) / 2, (y1 + y2) / 2), edge, side=CROP_SIDE)


class DiceRecord:
    """The record and the examples in `data_dir`; `close()` finishes the writes under way."""

    def __init__(self, data_dir: str | Path) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / RECORD_NAME
        self.examples = self.data_dir / EXAMPLES_DIR
        self._lock = threading.Lock()
        self._rolls: deque[RollOutcome] = deque(self._load(), maxlen=MAX_ROLLS)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="dice-record")
        self._failed: str | None = None
        self._next = 0
        # told how many labelled dice were just kept, on the writer's thread (the learner)
        self.on_kept: Callable[[int], None] | None = None

    def _load(self) -> list[RollOutcome]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            return [
                RollOutcome(
                    r["game"], tuple(r["read"]), tuple(r["entered"]), r["how"], r.get("at", 0.0)
                )
                for r in raw["rolls"]
            ]
        except FileNotFoundError:
            return []
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning(
                "%s cannot be read (%s); the camera's record starts afresh.", self.path, exc
            )
            return []

    # --- what happened ------------------------------------------------------------------

    def rolled(
        self,
        how: str,
        reading: Any,
        entered: Sequence[int],
        view: Any = None,
        game: int | None = None,
    ) -> None:
        """A roll the camera read (`reading`, on the image `view`) was entered as `entered`:
        HANDS_FREE, CONFIRMED or CORRECTED."""
        outcome = RollOutcome(
            game, tuple(reading.values), tuple(sorted(int(v) for v in entered)), how, time.time()
        )
        with self._lock:
            self._rolls.append(outcome)
            rolls = [r.to_json() for r in self._rolls]
        self._writer.submit(self._save, rolls)
        if how != HANDS_FREE and view is not None:
            examples = [
                (die_picture(view, die.box), label, die)
                for die, label in labelled(reading.dice, entered)
            ]
            self._writer.submit(self._keep, examples)

    def calibration_roll(self, view: Any, faces: Sequence[int], profile: Any = None) -> None:
        """A calibration roll the owner labelled: read on the writer's thread (the page does
        not wait for the reader) with the dice reader's `profile`, kept as examples."""
        self._writer.submit(self._read_calibration_roll, view, list(faces), profile)

    def _read_calibration_roll(self, view: Any, faces: list[int], profile: Any) -> None:
        from companion.dice.reader import read

        try:
            reading = read(view, profile, len(faces))
        except ValueError as exc:
            log.warning("A calibration roll could not be read for the record: %s", exc)
            return
        self._keep(
            [
                (die_picture(view, die.box), label, die)
                for die, label in labelled(reading.dice, faces)
            ]
        )

    def _save(self, rolls: list[dict[str, Any]]) -> None:
        data = json.dumps({"rolls": rolls}, separators=(",", ":")).encode()
        self._guarded(lambda: write_atomically(self.path, data, mode=0o644))

    def _keep(self, examples: list[tuple[Any, int, Any]]) -> None:
        import numpy as np

        stamp = time.time_ns()
        for picture, label, die in examples:
            buffer = io.BytesIO()
            np.savez_compressed(
                buffer,
                picture=picture,
                face=np.int8(label),
                read=np.int8(die.face),
                confidence=np.float32(die.confidence),
            )
            name = f"{stamp}-{self._next:06d}.npz"
            self._next += 1
            if not self._guarded(lambda n=name, b=buffer: self._write(n, b.getvalue())):
                return
        self._prune()
        if examples and self.on_kept is not None:
            self.on_kept(len(examples))

    def _write(self, name: str, data: bytes) -> None:
        write_atomically(self.examples / name, data, mode=0o644)

    def _prune(self) -> None:
        files = sorted(self.examples.glob("*.npz"))
        for old in files[: max(0, len(files) - MAX_EXAMPLES)]:
            old.unlink(missing_ok=True)

    def _guarded(self, write) -> bool:
        try:
            write()
        except SaveError as exc:
            if str(exc) != self._failed:
                log.warning("The camera's record was not saved: %s", exc)
            self._failed = str(exc)
            return False
        self._failed = None
        return True

    def example_files(self) -> list[Path]:
        """The kept examples, oldest first."""
        return sorted(self.examples.glob("*.npz"))

    def flush(self) -> None:
        """Wait for the writes asked for so far."""
        self._writer.submit(lambda: None).result()

    def close(self) -> None:
        self._writer.shutdown(wait=True)

    # --- the host page's summary --------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Hands-free rate of the last RECENT_ROLLS rolls and of the last RECENT_GAMES games
        (newest first), and the last WRONG_SHOWN rolls a person corrected (newest first)."""
        with self._lock:
            rolls = list(self._rolls)
        recent = rolls[-RECENT_ROLLS:]
        games: dict[int | None, list[RollOutcome]] = {}
        for roll in rolls:
            games.setdefault(roll.game, []).append(roll)
        last_games = list(games.items())[-RECENT_GAMES:][::-1]
        wrong = [r for r in rolls if r.how == CORRECTED][-WRONG_SHOWN:][::-1]
        return {
            "recent": _rate(recent),
            "games": [{"game": game, **_rate(played)} for game, played in last_games],
            "wrong": [{"read": list(r.read), "table": list(r.entered)} for r in wrong],
        }


def _rate(rolls: list[RollOutcome]) -> dict[str, Any]:
    hands_free = sum(r.how == HANDS_FREE for r in rolls)
    return {
        "rolls": len(rolls),
        "hands_free": hands_free,
        "rate": round(hands_free / len(rolls), 3) if rolls else None,
    }
