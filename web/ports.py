"""What the pages may ask of the running companion, as small typed interfaces.

The composition root (`companion.runtime`) hands `web.sim.install` a `ServicePorts` built from
its parts; the web reaches the service through these and nothing else, and `make lint`
type-checks that use (mypy).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.game.protocol import Prompt
from companion.table import Outcome


class PendingReading(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class DiceReadings(Protocol):
    """The camera's reading of a roll, waiting for the host to confirm or correct it."""

    @property
    def pending(self) -> PendingReading | None: ...

    @property
    def last_submitted(self) -> tuple[int, ...] | None: ...

    @property
    def last_submitted_version(self) -> int:
        """The table's version once the last dice were entered."""
        ...

    def roll_prompt(self) -> Prompt | None:
        """The roll the table waits for (how many dice, for whom), or None."""
        ...

    def confirm(self, values: list[int] | None = None) -> Outcome:
        """Enter the pending reading, or the `values` a person corrected it to."""
        ...

    def discard(self) -> None: ...


class CameraPreview(Protocol):
    def camera_jpeg(self) -> bytes | None:
        """The tray as the dice reader sees it (dice outlined), or None without a camera."""
        ...


class CameraRecord(Protocol):
    def summary(self) -> dict[str, Any]:
        """How the camera did at this table: hands-free rates of the last rolls and games, the
        last rolls a person corrected, and what the reader learnt from (`learnt`: how many of
        this table's dice and when, or None)."""
        ...


class HardwareHealth(Protocol):
    def as_json(self) -> dict[str, str]:
        """{"camera", "display", "buttons"}: "ok", "off", "starting" or what is wrong."""
        ...


class SimulatedTable(Protocol):
    """The simulated table's controls: the panel's buttons, a dice throw, the camera's plug."""

    @property
    def camera_plugged(self) -> bool: ...

    def press(self, button: str, hold: bool = False) -> None:
        """ValueError for an unknown button, RuntimeError without a panel."""
        ...

    def throw(self, count: int, values: Sequence[int] | None = None) -> list[int]:
        """The faces thrown; RuntimeError without a camera."""
        ...

    def set_camera_plugged(self, plugged: bool) -> None:
        """RuntimeError without a camera."""
        ...

    def oled_png(self) -> bytes: ...


@dataclass(frozen=True)
class ServicePorts:
    """The running companion's parts the pages use; `simulated` only on a simulated table."""

    health: HardwareHealth
    readings: DiceReadings
    camera: CameraPreview
    record: CameraRecord
    simulated: SimulatedTable | None = None
