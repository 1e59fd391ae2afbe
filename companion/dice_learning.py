"""The reader learns the owner's dice while the companion runs.

The dice record (`companion.dice_record`) keeps the owner's labelled dice; after every
`EVERY` new ones, and after a calibration, the face classifier is adapted to them again
(`companion.dice.adapt`) on a thread of its own, at a low priority: never on the path of a
request or of a roll being read. One adaptation runs at a time; asks that come meanwhile make
one more run after it. The new adaptation replaces the one in use in a single assignment, so
a reading uses the one or the other. What the reader learnt from is added to the camera's
record for the host page.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from companion.dice_record import DiceRecord

log = logging.getLogger(__name__)

EVERY = 50  # new labelled dice between two adaptations
NICENESS = 10  # the adaptation thread yields the processor to the camera and the pages


class DiceLearner:
    """Adapts the face classifier `model` to the examples `record` keeps; the adaptation in
    the data directory, if valid, is put in use at once. Not `learns` (the table's reader
    does not read with an adaptation): it keeps the record and adapts nothing."""

    def __init__(
        self, record: DiceRecord, model: Any = None, every: int = EVERY, learns: bool = True
    ) -> None:
        from companion.dice import adapt, faceclass
        from companion.dice.network import ModelError

        self.record = record
        self.every = every
        self._lock = threading.Lock()
        self._queued = False
        self._new = 0
        self._stopping = threading.Event()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="dice-adapt")
        self.model = None
        if learns:
            try:
                self.model = model or faceclass.model()
                adapt.install(record.data_dir, self.model)
            except ModelError as exc:  # the reader cannot read either; the service says so
                log.warning("The dice reader cannot learn: %s", exc)
                self.model = None
        record.on_kept = self.kept

    def kept(self, count: int) -> None:
        """`count` new labelled dice were kept (on the record's writer thread)."""
        with self._lock:
            self._new += count
            due = self._new >= self.every
            if due:
                self._new = 0
        if due:
            self.request()

    def request(self) -> Future | None:
        """Adapt again soon (after the record's writes under way); returns at once."""
        with self._lock:
            if self._queued or self.model is None:
                return None
            self._queued = True
        try:
            return self._pool.submit(self._run)
        except RuntimeError:  # closing
            return None

    def _run(self) -> None:
        from companion.atomic_file import SaveError
        from companion.dice import adapt

        with contextlib.suppress(OSError):  # a thread's own priority (Linux)
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)
        with self._lock:
            self._queued = False
        try:
            self.record.flush()  # the examples just kept are on disk
            report = adapt.adapt(self.record.data_dir, self.model, stop=self._stopping.is_set)
        except adapt.Stopped:
            return
        except (SaveError, RuntimeError, ValueError, OSError) as exc:
            log.warning("The dice reader could not learn the owner's dice: %s", exc)
            return
        if report.before is None:
            return  # too few examples: nothing changed
        self.model.adaptation = report.adaptation
        for line in report.lines():
            log.info("Dice reader: %s", line.strip())

    def summary(self) -> dict[str, Any]:
        """The camera's record, and what the reader learnt from: {"dice", "at"} or None."""
        adapted = getattr(self.model, "adaptation", None)
        learnt = {"dice": adapted.examples, "at": adapted.at} if adapted else None
        return {**self.record.summary(), "learnt": learnt}

    def close(self) -> None:
        """Stop the adaptation under way (within a moment, writing nothing); none starts
        after this."""
        with self._lock:
            self._queued = True  # no new runs
        self._stopping.set()
        self._pool.shutdown(wait=True)
