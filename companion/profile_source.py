"""The owner's profile (`companion.profile`) as the running companion uses it, kept current.

Calibration (the host page, or `companion calibrate` in another process) saves the profile
with an atomic replace, so a changed modification time means a whole new file: the camera
thread asks `current()` for every frame and gets the new profile within `check_every`
seconds, without a restart. A file that turns out broken is reported once and the profile in
use stays; only at start does a broken file stop the companion (`ProfileError` names the file
and the key).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion import profile as owner_profile
from companion.profile import CalibrationProfile

log = logging.getLogger(__name__)

CHECK_EVERY_S = 1.0  # a stat() per second, not per frame


class ProfileSource:
    def __init__(self, path: str | Path, check_every: float = CHECK_EVERY_S):
        self.path = Path(path)
        self.check_every = check_every
        self._stamp = self._mtime()
        self.profile = owner_profile.load_or_default(self.path)  # ProfileError stops
        self._checked = time.monotonic()
        self._rejected: tuple[int, int] | None = None  # the stamp of a broken file already reported
        self._listeners: list[Callable[[CalibrationProfile], None]] = []
        self._lock = threading.Lock()

    def subscribe(self, callback: Callable[[CalibrationProfile], None]) -> None:
        """`callback(profile)` after a changed profile is taken into use."""
        self._listeners.append(callback)

    def current(self) -> CalibrationProfile:
        now = time.monotonic()
        if now - self._checked >= self.check_every:
            self._checked = now
            self.refresh()
        return self.profile

    def refresh(self) -> bool:
        """Reload if the file changed since it was read; True when a new profile is in use."""
        with self._lock:
            stamp = self._mtime()
            if stamp == self._stamp or stamp == self._rejected:
                return False
            try:
                profile = owner_profile.load_or_default(self.path)
            except owner_profile.ProfileError as exc:
                self._rejected = stamp
                log.warning("Calibration profile not used, keeping the previous one: %s", exc)
                return False
            self._stamp, self._rejected, self.profile = stamp, None, profile
        log.info("Calibration profile %s taken into use", self.path)
        for callback in list(self._listeners):
            try:
                callback(profile)
            except Exception:
                log.exception("Applying the new calibration profile failed")
        return True

    def _mtime(self) -> tuple[int, int] | None:
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_size
