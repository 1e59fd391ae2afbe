"""The owner's profile: one TOML file for the camera, the tray and the dice reader.

    name = "kitchen table"

    [camera]            # fixed capture settings (keys of the camera's CameraSettings)
    exposure_us = 12000
    analogue_gain = 1.5
    colour_gains = [1.9, 1.5]

    [tray]              # where the tray lies, as fractions of the frame's width and height,
    corners = [[0.12, 0.1], [0.88, 0.1], [0.9, 0.92], [0.1, 0.93]]   # clockwise from top left

    [pips] ...          # the dice reader's numbers (companion.dice.profile checks them)

Each part is checked on load by its owner's rules, and an error names the file and the key.
The running companion reads it from DATA_DIR/profile.toml (`dice.profile` in the settings may
point elsewhere); the calibration tool (`calibration/`) writes it through `save`. Only the dice
sections are needed: a profile without [camera] or [tray] keeps the camera's configured
settings and reads the whole frame.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.atomic_file import write_atomically
from companion.dice import profile as dice_profile
from companion.dice.profile import ProfileError

FILE_NAME = "profile.toml"
CALIBRATION_SECTIONS = ("camera", "tray")
MIN_TRAY_SHARE = 0.05  # of the frame: anything smaller is a mis-tap, not a tray
# The camera settings a profile may fix (the fields of the camera's CameraSettings) and their
# ranges; colour_gains is a [red, blue] pair of gains.
CAMERA_LIMITS = {
    "width": (16, 8192),
    "height": (16, 8192),
    "exposure_us": (1, 2_000_000),
    "analogue_gain": (1.0, 64.0),
    "fps": (0.5, 240.0),
}
CAMERA_KEYS = (*CAMERA_LIMITS, "colour_gains")


@dataclass(frozen=True)
class CalibrationProfile:
    """Dice reader numbers plus, once calibrated, camera settings and the tray's corners."""

    dice: dice_profile.Profile = field(default_factory=dice_profile.Profile)
    camera: dict[str, Any] = field(default_factory=dict)  # CameraSettings keys and values
    tray: tuple[tuple[float, float], ...] | None = None  # 4 corners, fractions of the frame

    def camera_settings(self, base):
        """`base` (the camera's CameraSettings, a dataclass) with this profile's camera
        section applied."""
        known = {f.name for f in fields(base)}
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in self.camera.items()}
        return replace(base, **{k: v for k, v in values.items() if k in known})

    def tray_view(self, image):
        """The tray seen from straight above, as the dice reader should see it; the whole
        frame when no tray is calibrated."""
        if self.tray is None:
            return image
        import cv2

        height, width = image.shape[:2]
        matrix, size = _tray_warp(self.tray, width, height)
        return cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_AREA)

    def to_toml(self) -> str:
        lines = []
        if self.camera:
            lines += ["[camera]"]
            lines += [f"{k} = {_toml_value(v)}" for k, v in self.camera.items()]
            lines.append("")
        if self.tray is not None:
            lines += ["[tray]", "# clockwise from top left, as fractions of width and height"]
            lines.append(f"corners = {_toml_value([list(c) for c in self.tray])}")
            lines.append("")
        dice_text = self.dice.to_toml()
        # The dice reader's `name` must stay a top-level key, ahead of every table.
        first, _, rest = dice_text.partition("\n")
        return first + "\n\n" + "\n".join(lines) + "\n" + rest.lstrip("\n")


@lru_cache(maxsize=8)
def _tray_warp(corners: tuple, width: int, height: int):
    """The perspective matrix and output size for a tray in frames of this size (kept: the
    hot path warps every frame)."""
    import cv2
    import numpy as np

    points = from_fractions(corners, (width, height))
    w, h = tray_size(points)
    target = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    return cv2.getPerspectiveTransform(points, target), (w, h)


def tray_size(corners, width: int | None = None) -> tuple[int, int]:
    """(width, height) of the straightened tray: its longer edges' lengths, or scaled to
    `width` pixels wide with the tray's proportions."""
    import numpy as np

    c = np.asarray(corners, np.float32)
    w = max(np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[3]))
    h = max(np.linalg.norm(c[3] - c[0]), np.linalg.norm(c[2] - c[1]))
    if width is None:
        return round(w), round(h)
    return width, max(1, round(width * h / max(w, 1.0)))


def from_fractions(fractions, size: tuple[int, int]):
    """Corners in pixels (a 4x2 float32 array) of a frame of `size` (width, height)."""
    import numpy as np

    w, h = size
    return np.array([[x * w, y * h] for x, y in fractions], np.float32)


def default_path(data_dir: str | Path) -> Path:
    return Path(data_dir) / FILE_NAME


def from_dict(data: dict, source: str = "profile") -> CalibrationProfile:
    data = dict(data)
    camera = _check_camera(data.pop("camera", {}), source)
    tray = _check_tray(data.pop("tray", None), source)
    return CalibrationProfile(dice_profile.from_dict(data, source), camera, tray)


def load(path: str | Path | None = None) -> CalibrationProfile:
    """Read and check a profile; None reads the built-in dice profile (no camera, no tray)."""
    return from_dict(*dice_profile.read_toml(path))


def load_or_default(path: str | Path) -> CalibrationProfile:
    """The profile at `path`, or the built-in one when there is no file there yet."""
    if Path(path).is_file():
        return load(path)
    return load(None) if dice_profile.DEFAULT_PATH.is_file() else CalibrationProfile()


def save(profile: CalibrationProfile, path: str | Path) -> None:
    """Write durably: the old file stays whole until the new one is complete (SaveError
    when the disk refuses)."""
    path = Path(path)
    text = profile.to_toml()
    from_dict(tomllib.loads(text), str(path))  # never write what could not be read back
    write_atomically(path, text.encode("utf-8"), mode=0o644)


def _check_camera(section: Any, source: str) -> dict[str, Any]:
    if not isinstance(section, dict):
        raise ProfileError(f"{source}: [camera] must be a table")
    unknown = sorted(set(section) - set(CAMERA_KEYS))
    if unknown:
        raise ProfileError(
            f"{source}: [camera]: Unknown camera setting(s) {', '.join(unknown)}; "
            f"known: {', '.join(sorted(CAMERA_KEYS))}"
        )
    for key, value in section.items():
        where = f"{source}: camera.{key}"
        if key == "colour_gains":
            if not (isinstance(value, list) and len(value) == 2):
                raise ProfileError(f"{where}: expected [red gain, blue gain]")
            for gain in value:
                _check_number(where, gain, 0.1, 16.0)
        else:
            _check_number(where, value, *CAMERA_LIMITS[key])
    return dict(section)


def _check_number(where: str, value: Any, lo: float, hi: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProfileError(f"{where}: expected a number, got {value!r}")
    if not lo <= value <= hi:
        raise ProfileError(f"{where}: {value} is outside {lo}..{hi}")


def _check_tray(section: Any, source: str) -> tuple[tuple[float, float], ...] | None:
    if section is None:
        return None
    if not isinstance(section, dict):
        raise ProfileError(f"{source}: [tray] must be a table")
    unknown = sorted(set(section) - {"corners"})
    if unknown:
        raise ProfileError(f"{source}: unknown key tray.{unknown[0]}; known keys: corners")
    corners = section.get("corners")
    where = f"{source}: tray.corners"
    if not (isinstance(corners, list) and len(corners) == 4):
        raise ProfileError(f"{where}: expected 4 [x, y] pairs, clockwise from top left")
    points = []
    for corner in corners:
        if not (isinstance(corner, list) and len(corner) == 2):
            raise ProfileError(f"{where}: each corner is an [x, y] pair, got {corner!r}")
        for v in corner:
            _check_number(where, v, 0.0, 1.0)
        points.append((float(corner[0]), float(corner[1])))
    check_quad(points, where)
    return tuple(points)


def check_quad(points, where: str = "tray") -> None:
    """A tray outline must be convex, clockwise on screen and not tiny."""
    crosses = []
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = points[i], points[(i + 1) % 4], points[(i + 2) % 4]
        crosses.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    area = 0.5 * sum(
        points[i][0] * points[(i + 1) % 4][1] - points[(i + 1) % 4][0] * points[i][1]
        for i in range(4)
    )
    if not all(c > 0 for c in crosses):
        raise ProfileError(
            f"{where}: the corners must go round the tray clockwise from its top left, "
            "without crossing"
        )
    if area < MIN_TRAY_SHARE:
        raise ProfileError(f"{where}: the tray would cover only {area:.0%} of the frame")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(round(value, 4))
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    raise TypeError(f"cannot write {value!r} to a profile")
