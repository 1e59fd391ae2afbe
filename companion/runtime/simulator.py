"""The simulated table's hands: press the panel's buttons, throw dice, pull the camera's plug.

Everything goes through the same parts a real table uses: a press drives a gpiozero MockFactory
pin low and high again, so the panel's own debounce and long-press logic decode it; a throw
renders tumbling dice on the simulated camera, and the dice reader has to read them off the
frames; the OLED frames are the ones the screens drew. The web page in `web/sim.py` calls this
through `web.ports.SimulatedTable`.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from typing import Any

from hardware.buttons import DEFAULT_PINS

PRESS_S = 0.12  # how long a short press holds the pin down: longer than the debounce


def stock_media(data_dir: Any) -> None:
    """Give every registered game whose private reveals show pictures the stand-ins it
    renders for those calibration has not stored (its bundle's `stock_media`), so a
    simulated table shows them without a calibration run; the owner's pictures are kept."""
    from companion.game import GAMES, load_game

    for name in GAMES:
        stock = getattr(load_game(name), "stock_media", None)
        if stock is not None:
            stock(data_dir)


class Simulator:
    """`buttons`: a ButtonPanel on MockFactory pins (or None); `camera`: a SimTrayCamera (or
    None); `display`: a FrameSink (or None); `hold_s`: the panel's long-press time."""

    BUTTONS = tuple(DEFAULT_PINS)  # UP, DOWN, OK, BACK, MENU

    def __init__(self, buttons: Any, camera: Any, display: Any, hold_s: float):
        self.buttons = buttons
        self.camera = camera
        self.display = display
        self.hold_s = hold_s
        self._random = random.Random()
        self._timers: list[threading.Timer] = []

    def press(self, button: str, hold: bool = False) -> None:
        """A short press, or (hold) one held past the long-press time. Raises ValueError for
        an unknown button or RuntimeError without a panel."""
        if button not in self.BUTTONS:
            raise ValueError(
                f"There is no button {button!r}; the panel has {', '.join(self.BUTTONS)}."
            )
        if self.buttons is None:
            raise RuntimeError("The button panel is switched off in the settings.")
        pin = self.buttons.pin(button)
        pin.drive_low()
        timer = threading.Timer(self.hold_s + 0.2 if hold else PRESS_S, pin.drive_high)
        timer.daemon = True
        timer.start()
        self._timers = [t for t in self._timers if t.is_alive()] + [timer]

    def throw(self, count: int, values: Sequence[int] | None = None) -> list[int]:
        """Throw `count` dice (random faces unless `values` are given) into the tray."""
        if self.camera is None:
            raise RuntimeError("The camera is switched off in the settings.")
        if values is None:
            values = [self._random.randint(1, 6) for _ in range(count)]
        faces = [int(v) for v in values]
        self.camera.throw(faces)
        return faces

    def set_camera_plugged(self, plugged: bool) -> None:
        if self.camera is None:
            raise RuntimeError("The camera is switched off in the settings.")
        self.camera.set_plugged(plugged)

    @property
    def camera_plugged(self) -> bool:
        return self.camera is not None and self.camera.plugged

    def oled_png(self) -> bytes:
        return self.display.png if self.display is not None else b""

    def close(self) -> None:
        for timer in self._timers:
            timer.cancel()
