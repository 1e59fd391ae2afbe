"""A simulated camera over the dice tray, drawn by the synthetic renderer.

Between throws it shows the still tray (fresh sensor noise in every frame, as a real sensor
has); `throw(faces)` starts a roll: sometimes a hand letting go, dice tumbling in with motion
blur, coming to rest about half a second later, then the still result.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from hardware.camera.base import CameraBase, CameraError, Clock

_PLACE = ("x", "y", "angle", "tilt")  # where a die lies, and how it leans


class SimCamera(CameraBase):
    """Rendered frames of a tray with pip dice.

    Timestamps are virtual (frame number / fps) unless `realtime` is set, in which case reads
    are paced at `fps` on `clock`, like a live camera. The tray (surface, light, camera angle)
    is fixed by `seed` and the dice's look by `style`, so only the dice's faces and places
    change between throws.

        camera = SimCamera(seed=7)
        camera.open()
        camera.throw([3, 5, 1, 6, 2])
        frames = [camera.read() for _ in range(30)]   # tumbling, then settled
    """

    name = "simulated camera"

    def __init__(
        self,
        width: int = 640,
        height: int = 480,
        fps: float = 15.0,
        seed: int = 0,
        hand_chance: float = 0.3,
        style: str = "ivory",
        realtime: bool = False,
        clock: Clock = time.monotonic,
    ):
        super().__init__(clock)
        import numpy as np

        from companion.dice import synth

        self._synth = synth
        self.width, self.height, self.fps = width, height, fps
        self.hand_chance = hand_chance
        if style not in synth.DIE_STYLES:
            raise ValueError(f"Unknown die style {style!r}; known: {', '.join(synth.DIE_STYLES)}")
        self.style = style
        self.realtime = realtime
        self._rng = np.random.default_rng(seed)
        # The tray: a scene with no dice whose surface and light every throw keeps.
        self._tray = synth.random_scene([], self._rng, width=width, height=height)
        self._die_size = float(self._rng.uniform(36, 50)) * min(width / 640, height / 480)
        self._lock = threading.Lock()
        self._throw: list[Any] = []  # scenes of the throw under way
        self._throw_started: float | None = None
        self._final = self._tray
        self._still: Any = None  # noiseless render of the scene at rest
        self._unplugged = False
        self._now = 0.0
        # clock time of the last throw's first frame showing the dice as they come to rest
        self.rested_at: float | None = None

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces of the dice now lying in the tray (what a perfect reader would say)."""
        return tuple(d.face for d in self._final.dice)

    def throw(self, faces: Sequence[int], hand: bool | None = None) -> None:
        """Start a throw that comes to rest showing `faces`; `hand`: show the throwing hand
        (None: by chance). Raises ValueError for a face outside 1-6."""
        faces = [int(f) for f in faces]
        if not faces or any(not 1 <= f <= 6 for f in faces):
            raise ValueError(f"Dice faces are 1-6, got {faces}")
        if hand is None:
            hand = bool(self._rng.random() < self.hand_chance)
        with self._lock:
            placed = self._synth.random_scene(
                faces,
                self._rng,
                width=self.width,
                height=self.height,
                style=self.style,
                size=self._die_size,
                view_tilt=self._tray.view_tilt,
            )
            final = replace(self._tray, dice=placed.dice, tray_wall=self._tray.tray_wall)
            self._throw = self._synth.throw_sequence(
                final, self._rng, fps=self.fps, hand_before=hand
            )
            self._throw_started = None  # the next frame is the throw's first
            self._final = final
            # Drawn now, not when the dice land: a camera hands out the frame of dice at rest
            # as fast as any other, and the time from rest to reading is what is measured.
            self._still = self._synth.render(replace(final, noise=0), self._rng)
            self.rested_at = None

    def clear(self) -> None:
        """Take the dice out of the tray."""
        with self._lock:
            self._throw, self._final, self._still = [], self._tray, None

    @property
    def settled(self) -> bool:
        """True once the current throw (if any) has come to rest."""
        with self._lock:
            return self._throw_frame() is None

    def unplug(self) -> None:
        """Make the camera fail as an unplugged one would: reads raise until reopened."""
        self._unplugged = True

    def _open_device(self) -> None:
        self._unplugged = False
        self._opened_at = self._clock()
        self._next_tick = 0

    def _grab(self):
        if self._unplugged:
            raise CameraError("The simulated camera was unplugged.")
        if self.realtime:
            # Like a sensor, frames come on the ticks of the frame rate: a reader that is late
            # gets the next tick's frame, never two frames at once.
            now = self._clock()
            late = math.ceil((now - self._opened_at) * self.fps - 1e-9)
            tick = max(self._next_tick, late)
            self._next_tick = tick + 1
            delay = self._opened_at + tick / self.fps - now
            if delay > 0:
                time.sleep(delay)
            self._now = tick / self.fps  # exposed on the tick, however late it is read
        else:
            self._now = self._index / self.fps
        with self._lock:
            scene = self._throw_frame()
            if scene is not None and (self.rested_at is None or self._still is None):
                return self._synth.render(scene, self._rng), self._stamp()
            if self._still is None:
                self._still = self._synth.render(replace(self._final, noise=0), self._rng)
            return self._noisy(self._still), self._stamp()

    def _stamp(self) -> float:
        # A sensor stamps a frame with when it was exposed, not when it was handed over
        # (here, after rendering, which takes longer while dice move).
        return self._opened_at + self._now if self.realtime else self._now

    def _throw_frame(self) -> Any:
        """The scene of the throw at the current time, or None once it is at rest."""
        if not self._throw:
            return None
        if self._throw_started is None:
            self._throw_started = self._now
        k = round((self._now - self._throw_started) * self.fps)
        if k >= len(self._throw) or self._throw[k] is self._final:
            self._throw = []
            if self.rested_at is None:
                self.rested_at = self._clock()
            return None
        scene = self._throw[max(0, k)]
        if self.rested_at is None and self._looks_final(scene):
            self.rested_at = self._clock()  # the tumble's last frame: the dice lie as they end
        return scene

    def _looks_final(self, scene: Any) -> bool:
        """The dice lie as they will at rest (within a hundredth of a pixel or degree), no
        hand in view; a blur's direction does not show without a blur."""
        final = self._final.dice

        def lies_as(d: Any, f: Any) -> bool:
            near = all(abs(getattr(d, a) - getattr(f, a)) < 0.01 for a in _PLACE)
            same = replace(d, blur_angle=f.blur_angle, **{a: getattr(f, a) for a in _PLACE})
            return near and d.motion_blur == 0 and same == f

        return (
            scene.hand is None
            and len(scene.dice) == len(final)
            and all(lies_as(d, f) for d, f in zip(scene.dice, final, strict=True))
        )

    def _noisy(self, still):
        import numpy as np

        amount = max(1, round(self._final.noise))
        noise = self._rng.integers(-amount, amount + 1, still.shape, dtype=np.int16)
        return np.clip(still.astype(np.int16) + noise, 0, 255).astype(np.uint8)

    def _close_device(self) -> None:
        pass
