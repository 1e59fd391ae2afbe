"""The display port: a 128x64 1-bit OLED (SSD1306 or SH1106 over I2C) through luma.oled.

    display = open_oled(driver="sh1106", port=1, address=0x3C)   # DisplayError off-Pi
    display.show(image)        # a 128x64 PIL image, mode "1"
    display.tick()             # call now and then: dims the panel after `dim_after` idle seconds
    display.wake()             # a button was pressed: full brightness again

Fakes: `dummy_display()` wraps luma's own dummy device (the last frame in `.image`), and
`FrameSink` keeps the latest frame as PNG bytes for the simulated table's host page.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from companion import product

if TYPE_CHECKING:
    from PIL import Image

Clock = Callable[[], float]
WIDTH, HEIGHT = 128, 64
DRIVERS = ("ssd1306", "sh1106")
DIM_CONTRAST = 1  # OLED contrast never goes fully dark; 1 is the dimmest useful level


class DisplayError(Exception):
    """The display cannot be opened or written; the message says what to check."""


class Display(Protocol):
    """Anything that shows 128x64 1-bit frames."""

    def show(self, image: Image.Image) -> None: ...

    def wake(self) -> None: ...

    def tick(self) -> None: ...

    def close(self) -> None: ...


def _as_frame(image: Image.Image) -> Image.Image:
    if image.size != (WIDTH, HEIGHT):
        width, height = image.size
        raise ValueError(f"A screen is {WIDTH}x{HEIGHT} pixels, not {width}x{height}")
    return image if image.mode == "1" else image.convert("1")


class OledDisplay:
    """A luma device with idle dimming; writes only frames that differ from the last one
    (an I2C frame costs ~25 ms on a Pi, so unchanged screens are not resent)."""

    def __init__(
        self,
        device: Any,
        contrast: int = 255,
        dim_after: float = 120.0,
        clock: Clock = time.monotonic,
    ):
        if tuple(device.size) != (WIDTH, HEIGHT):
            raise DisplayError(
                f"The screens are {WIDTH}x{HEIGHT} landscape, but the display is set up as "
                f"{device.size[0]}x{device.size[1]}: use rotation 0 or 2."
            )
        self.device = device
        self.full_contrast = contrast
        self.dim_after = dim_after
        self._clock = clock
        self._lock = threading.Lock()
        self._last: bytes | None = None
        self._active_at = clock()
        self.image: Image.Image | None = None
        self.contrast = -1
        self._set_contrast(contrast)

    @property
    def dimmed(self) -> bool:
        return self.contrast != self.full_contrast

    def show(self, image: Image.Image) -> None:
        frame = _as_frame(image)
        data = frame.tobytes()
        with self._lock:
            if data == self._last:
                return
            self._write(lambda: self.device.display(frame))
            self._last, self.image = data, frame
            self._wake()

    def wake(self) -> None:
        with self._lock:
            self._wake()

    def tick(self) -> None:
        with self._lock:
            idle = self._clock() - self._active_at
            if self.dim_after > 0 and idle >= self.dim_after and not self.dimmed:
                self._set_contrast(DIM_CONTRAST)

    def close(self) -> None:
        with self._lock:
            self._write(self.device.cleanup)

    def _wake(self) -> None:
        self._active_at = self._clock()
        if self.dimmed:
            self._set_contrast(self.full_contrast)

    def _set_contrast(self, level: int) -> None:
        self._write(lambda: self.device.contrast(level))
        self.contrast = level

    def _write(self, action: Callable[[], Any]) -> None:
        try:
            action()
        except OSError as exc:
            raise DisplayError(
                f"Writing to the display failed ({exc}): check its wiring and I2C address."
            ) from exc


def open_oled(
    driver: str = "ssd1306",
    port: int = 1,
    address: int = 0x3C,
    rotation: int = 0,
    contrast: int = 255,
    dim_after: float = 120.0,
    clock: Clock = time.monotonic,
) -> OledDisplay:
    """The real panel on /dev/i2c-`port`. Raises DisplayError (never crashes) when the bus or
    the panel is missing, e.g. off-Pi or with I2C disabled in raspi-config."""
    if driver not in DRIVERS:
        raise DisplayError(f"Unknown display driver {driver!r}; choose one of {', '.join(DRIVERS)}")
    try:
        from luma.core.error import Error as LumaError
        from luma.core.interface.serial import i2c
        from luma.oled import device as oled
    except ImportError as exc:
        raise DisplayError(
            f"luma.oled is not installed: pip install '{product.PACKAGE}[pi]'"
        ) from exc
    try:
        serial = i2c(port=port, address=address)
        device = getattr(oled, driver)(serial, width=WIDTH, height=HEIGHT, rotate=rotation)
    except (LumaError, OSError) as exc:
        raise DisplayError(
            f"No {driver} display at I2C bus {port}, address {address:#04x} ({exc}). "
            "Enable I2C (raspi-config), check the wiring, and `i2cdetect -y "
            f"{port}` should list the address."
        ) from exc
    return OledDisplay(device, contrast=contrast, dim_after=dim_after, clock=clock)


def dummy_display(
    rotation: int = 0, contrast: int = 255, dim_after: float = 120.0, clock: Clock = time.monotonic
) -> OledDisplay:
    """luma's dummy device behind the same OledDisplay: the last frame is in `.device.image`."""
    from luma.core.device import dummy

    device = dummy(width=WIDTH, height=HEIGHT, rotate=rotation, mode="1")
    return OledDisplay(device, contrast=contrast, dim_after=dim_after, clock=clock)


class FrameSink:
    """A display that keeps the latest frame as PNG bytes, for a page that mirrors the OLED.

    `wait(version, timeout)` blocks until a frame newer than `version` arrives, so a stream can
    push each new frame as it is shown.
    """

    def __init__(self, dim_after: float = 120.0, clock: Clock = time.monotonic):
        self.dim_after = dim_after
        self._clock = clock
        self._changed = threading.Condition()
        self._last: bytes | None = None
        self._png = b""
        self._active_at = clock()
        self.version = 0
        self.dimmed = False

    def show(self, image: Image.Image) -> None:
        frame = _as_frame(image)
        data = frame.tobytes()
        with self._changed:
            self._active_at = self._clock()
            if data == self._last and not self.dimmed:
                return
            buffer = io.BytesIO()
            frame.save(buffer, format="PNG", optimize=False)
            self._last, self._png = data, buffer.getvalue()
            self.dimmed = False
            self.version += 1
            self._changed.notify_all()

    @property
    def png(self) -> bytes:
        """The latest frame as PNG (empty before the first frame)."""
        with self._changed:
            return self._png

    def wait(self, version: int, timeout: float | None = None) -> int:
        """Block until `self.version` exceeds `version` (or timeout); return the version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > version, timeout)
            return self.version

    def wake(self) -> None:
        with self._changed:
            self._active_at = self._clock()
            if self.dimmed:
                self.dimmed = False
                self.version += 1
                self._changed.notify_all()

    def tick(self) -> None:
        with self._changed:
            idle = self._clock() - self._active_at
            if self.dim_after > 0 and idle >= self.dim_after and not self.dimmed:
                self.dimmed = True
                self.version += 1
                self._changed.notify_all()

    def close(self) -> None:
        pass
