"""Finding a fixed exposure for the owner's lamp, then keeping it for every game.

Automatic exposure and white balance drift as hands and dice move, and the dice reader's
thresholds drift with them, so the companion runs the camera on manual settings. Calibration
picks them: open the camera, look at the tray, make it brighter or darker until its mean grey
level sits in TARGET without clipping, and store the settings in the profile.
White balance is kept at the configured colour gains, which then no longer change.

    locked = lock_exposure(lambda s: PiCamera(s), CameraSettings())
    locked.settings      # what to store; locked.ok says whether the target was reached
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from hardware.camera.base import Camera, CameraSettings

TARGET = (100.0, 160.0)  # mean grey level of the view
AIM = 128.0
MAX_CLIPPED = 0.02  # share of pure-white pixels that is still fine (glints on dice)
MIN_EXPOSURE_US = 100
MAX_GAIN = 8.0


@dataclass(frozen=True)
class Locked:
    settings: CameraSettings
    image: np.ndarray
    mean: float
    clipped: float
    ok: bool

    @property
    def note(self) -> str:
        if self.ok:
            return f"Exposure locked: brightness {self.mean:.0f} of 255."
        if self.mean < TARGET[0]:
            return (
                f"Still dark at the longest exposure (brightness {self.mean:.0f} of 255): "
                "add light over the tray."
            )
        return (
            f"Still too bright at the shortest exposure (brightness {self.mean:.0f}, "
            f"{self.clipped:.0%} pure white): dim or move the lamp."
        )


def measure(image: np.ndarray) -> tuple[float, float]:
    """(mean grey level, share of clipped pixels) of a BGR image."""
    import cv2

    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return float(grey.mean()), float((grey >= 250).mean())


def adjust(settings: CameraSettings, mean: float, clipped: float) -> CameraSettings | None:
    """Settings that bring the brightness to AIM, or None when it is already fine (or the
    camera runs on automatic exposure, which calibration does not fight)."""
    if settings.exposure_us is None:
        return None
    if TARGET[0] <= mean <= TARGET[1] and clipped <= MAX_CLIPPED:
        return None
    factor = AIM / max(mean, 1.0)
    if clipped > MAX_CLIPPED:
        factor = min(factor, 0.7)
    factor = float(np.clip(factor, 0.25, 4.0))
    gain = settings.analogue_gain or 1.0
    total = settings.exposure_us * gain * factor
    longest = 1_000_000 / settings.fps  # one frame's time: longer would drop the frame rate
    exposure = float(np.clip(total, MIN_EXPOSURE_US, longest))
    gain = float(np.clip(total / exposure, 1.0, MAX_GAIN))
    return replace(settings, exposure_us=round(exposure), analogue_gain=round(gain, 2))


def lock_exposure(
    open_camera: Callable[[CameraSettings], Camera],
    start: CameraSettings,
    *,
    warmup: int = 5,
    tries: int = 6,
) -> Locked:
    """Open the camera with `start`, then with better settings until the view is well exposed.
    Each try reads `warmup` frames first, so the sensor has taken the new settings."""
    settings = start
    for _ in range(tries):
        camera = open_camera(settings)
        camera.open()
        try:
            for _ in range(warmup):
                image = camera.read().image
        finally:
            camera.close()
        mean, clipped = measure(image)
        better = adjust(settings, mean, clipped)
        if better is None:
            return Locked(settings, image, mean, clipped, settings.exposure_us is not None)
        if better == settings:  # at the longest exposure and highest gain, or the shortest
            break
        settings = better
    return Locked(settings, image, mean, clipped, False)


def profile_values(settings: CameraSettings) -> dict:
    """The settings as a profile's [camera] section (unset ones left out)."""
    values = {
        "width": settings.width,
        "height": settings.height,
        "exposure_us": settings.exposure_us,
        "analogue_gain": settings.analogue_gain,
        "colour_gains": list(settings.colour_gains) if settings.colour_gains else None,
        "fps": settings.fps,
    }
    return {k: v for k, v in values.items() if v is not None}
