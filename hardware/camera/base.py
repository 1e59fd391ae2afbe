"""What every camera driver shares: the frame, the error, the settings and the protocol."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

Clock = Callable[[], float]


class CameraError(Exception):
    """The camera cannot deliver frames; the message tells the host what to check."""


@dataclass(frozen=True)
class Frame:
    """One picture of the tray: `image` is HxWx3 uint8 in B, G, R order (OpenCV's order);
    `timestamp` is seconds on the camera's monotonic clock; `index` counts frames since open."""

    image: np.ndarray
    timestamp: float
    index: int

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return self.image.shape[1], self.image.shape[0]


@dataclass(frozen=True)
class CameraSettings:
    """Capture settings, fixed for the whole game so the dice look the same in every frame.

    Exposure and white balance are manual: automatic ones drift as hands and dice move,
    and the dice reader's colour thresholds would drift with them. `None` leaves a setting
    to the camera (only sensible while calibrating).
    """

    width: int = 1280
    height: int = 720
    exposure_us: int | None = 10_000
    analogue_gain: float | None = 1.0
    colour_gains: tuple[float, float] | None = (1.8, 1.6)  # (red, blue)
    fps: float = 30.0

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> CameraSettings:
        """Settings from a config or calibration profile section; unknown keys are an error."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"Unknown camera setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        values = dict(data)
        if values.get("colour_gains") is not None:
            values["colour_gains"] = tuple(float(g) for g in values["colour_gains"])
        return cls(**values)


class Camera(Protocol):
    """A source of tray frames. `read()` raises CameraError; `open()` again reopens."""

    @property
    def is_open(self) -> bool: ...

    def open(self) -> None: ...

    def read(self) -> Frame: ...

    def close(self) -> None: ...


class CameraBase:
    """Open/close bookkeeping, frame numbering and the context manager, shared by drivers."""

    name = "camera"

    def __init__(self, clock: Clock = time.monotonic):
        self._clock = clock
        self._open = False
        self._index = 0

    @property
    def is_open(self) -> bool:
        return self._open

    def open(self) -> None:
        if self._open:
            return
        self._open_device()
        self._open = True
        self._index = 0

    def read(self) -> Frame:
        if not self._open:
            raise CameraError(f"The {self.name} is not open.")
        try:
            image, timestamp = self._grab()
        except CameraError:
            self.close()
            raise
        frame = Frame(image, self._clock() if timestamp is None else timestamp, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._open:
            self._open = False
            self._close_device()

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Drivers implement these three.
    def _open_device(self) -> None:
        raise NotImplementedError

    def _grab(self) -> tuple[np.ndarray, float | None]:
        raise NotImplementedError

    def _close_device(self) -> None:
        raise NotImplementedError


def as_bgr(image: np.ndarray, source: str) -> np.ndarray:
    """A 3-channel BGR uint8 view of a driver's array (drops alpha/padding, expands grey)."""
    import numpy as np

    if image.dtype != np.uint8:
        raise CameraError(f"The {source} delivered {image.dtype} pixels; expected 8-bit.")
    if image.ndim == 2:
        return np.repeat(image[:, :, None], 3, axis=2)
    if image.ndim == 3 and image.shape[2] >= 3:
        return np.ascontiguousarray(image[:, :, :3]) if image.shape[2] > 3 else image
    raise CameraError(f"The {source} delivered an image of shape {image.shape}; expected HxWx3.")
