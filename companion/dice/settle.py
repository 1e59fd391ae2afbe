"""Settle detection: one reading per roll, shortly after the dice stop moving.

Feed every camera frame to `SettleDetector.feed`. It watches how much of the (shrunk,
smoothed) frame changes between frames; while dice tumble or a hand moves, nothing is read.
After `still_frames` still frames in a row it reads once; it reads again only after the next
movement, so a roll is reported once however long the dice lie there. A hand in the tray or
an empty tray gives no reading, and the detector waits for the next movement: a still scene
looks the same next frame, and reading it again every frame would keep a Pi's core busy.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.dice.profile import Profile
from companion.dice.reading import Reading

_SHRINK = 4


class SettleDetector:
    def __init__(self, profile: Profile | None = None, expected: int | None = None) -> None:
        from companion.dice.reader import default_profile

        self.profile = profile or default_profile()
        self.expected = expected  # how many dice the table asked for, if it did
        self._previous: np.ndarray | None = None
        self._still = 0
        self._armed = True  # a roll is waiting to be reported

    def motion(self, frame: np.ndarray) -> float:
        """Share of the frame that changed since the previous frame (0 for the first)."""
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(
            gray, (gray.shape[1] // _SHRINK, gray.shape[0] // _SHRINK), interpolation=cv2.INTER_AREA
        )
        small = cv2.GaussianBlur(small, (3, 3), 0)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return 0.0
        changed = cv2.absdiff(small, previous) > self.profile.settle.motion_threshold
        return float(changed.mean())

    def feed(self, frame: np.ndarray) -> Reading | None:
        """The reading of a roll that has just come to rest, or None."""
        from companion.dice.reader import read

        if self.motion(frame) > self.profile.settle.moving_fraction:
            self._still = 0
            self._armed = True
            return None
        self._still += 1
        if not self._armed or self._still < self.profile.settle.still_frames:
            return None
        reading = read(frame, self.profile, self.expected)
        self._armed = False
        return reading if reading.is_reading else None

    def reset(self) -> None:
        """Forget the last roll: the dice in view will be reported again once still."""
        self._previous = None
        self._still = 0
        self._armed = True
