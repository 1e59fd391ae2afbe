"""The companion's settings: one TOML file, every key with its default and meaning right here.

Like OctoPrint, the defaults live in one place (the dataclasses below) and a file only says
what differs. An unknown key or a bad value stops the start with a message naming the key,
so a typo never silently falls back to a default:

    display.adress: unknown key (did you mean address?)

`systemd/companion.example.toml` documents every key; a test keeps it in step with this file.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from companion import product
from companion.dice.readers import DEFAULT as DEFAULT_READER

BUTTON_NAMES = ("up", "down", "ok", "back", "menu")
I2C_PINS = (2, 3)  # SDA, SCL of /dev/i2c-1


class ConfigError(ValueError):
    """A settings file or override the companion refuses; the message names the key."""


def setting(default: Any, doc: str, *, low: float | None = None, high: float | None = None):
    """A documented setting; `low`/`high` bound numbers (inclusive)."""
    return field(default=default, metadata={"doc": doc, "low": low, "high": high})


@dataclass(frozen=True)
class WebConfig:
    host: str = setting("0.0.0.0", "Address the pages listen on; 127.0.0.1 keeps them local.")
    port: int = setting(8080, "TCP port of the pages.", low=1, high=65535)
    threads: int = setting(
        128,
        "Web worker threads, for commands, dice, QR codes and camera pictures; an open page's "
        "live updates take one only to start (one thread writes them all after). At most "
        "threads - 16 pages get live updates (a phone at most 8). Keep 32 or more; an idle "
        "thread costs only its stack.",
        low=4,
        high=512,
    )


@dataclass(frozen=True)
class CameraConfig:
    kind: Literal["auto", "pi", "usb", "folder", "sim", "none"] = setting(
        "auto",
        "Dice camera: auto (Pi camera on a Pi, simulated tray otherwise), pi, usb, "
        "folder (replay images), sim (rendered dice), none (manual dice entry only).",
    )
    resolution: tuple[int, int] = setting((1280, 720), "Frame size [width, height] in pixels.")
    fps: float = setting(12.0, "Frames read per second while watching the tray.", low=0.5, high=60)
    index: int = setting(0, "USB camera number (cv2.VideoCapture index).", low=0, high=63)
    device: str = setting("", "USB camera device path, e.g. /dev/video0 (overrides index).")
    folder: str = setting("", "Folder of tray images, for kind = folder.")
    retry_after: float = setting(
        5.0, "Seconds between attempts to reopen a failed camera.", low=0.5, high=600
    )


@dataclass(frozen=True)
class ButtonsConfig:
    enabled: bool = setting(True, "Read the button panel.")
    up: int = setting(5, "BCM pin of the Up button (wired to ground).", low=0, high=27)
    down: int = setting(6, "BCM pin of the Down button.", low=0, high=27)
    ok: int = setting(13, "BCM pin of the OK button.", low=0, high=27)
    back: int = setting(19, "BCM pin of the Back button (hold: undo).", low=0, high=27)
    menu: int = setting(26, "BCM pin of the Menu button (hold: private peek).", low=0, high=27)
    hold_time: float = setting(1.0, "Seconds a press must last to count as held.", low=0.1, high=10)


@dataclass(frozen=True)
class DisplayConfig:
    driver: Literal["ssd1306", "sh1106", "none"] = setting(
        "ssd1306", "OLED controller chip, or none for no display."
    )
    port: int = setting(1, "I2C bus number (/dev/i2c-N).", low=0, high=31)
    address: int = setting(0x3C, "I2C address of the OLED (0x3C or 0x3D).", low=0x03, high=0x77)
    rotation: Literal[0, 2] = setting(
        0, "Turns of 90 degrees: 0, or 2 for upside down (the screen is landscape, so not 1 or 3)."
    )
    contrast: int = setting(255, "Brightness 0-255.", low=0, high=255)
    dim_after: float = setting(
        120.0, "Seconds without a change before the screen dims; 0 never dims.", low=0, high=86400
    )


@dataclass(frozen=True)
class DiceConfig:
    profile: str = setting(
        "",
        "Calibration profile (TOML) for the camera, tray and dice; empty means "
        "DATA_DIR/profile.toml, which calibration writes (the built-in profile until then).",
    )
    auto_submit: bool = setting(
        True,
        "Submit a confident reading with the expected number of dice at once; "
        "otherwise every reading waits for a person to confirm it.",
    )
    reader: Literal["pip-search", "detector"] = setting(
        DEFAULT_READER,
        "Which dice reader reads the tray: detector (the learned detector; on real cameras far "
        "more rolls read right, hands-free or with one tap) or pip-search (the pip search and "
        "face classifier: more small coloured dice seen from above read hands-free, and it "
        "learns the owner's dice).",
    )


@dataclass(frozen=True)
class MdnsConfig:
    enabled: bool = setting(False, "Announce the pages over mDNS as http://<name>.local:<port>.")
    name: str = setting(product.HOST_NAME, "Host name announced over mDNS.")


@dataclass(frozen=True)
class Config:
    hardware: Literal["auto", "pi", "sim"] = setting(
        "auto", "auto (real hardware on a Raspberry Pi, simulated elsewhere), pi or sim."
    )
    data_dir: str = setting(
        "",
        "Folder for the event log; empty: $STATE_DIRECTORY under systemd, ./var otherwise.",
    )
    log_level: Literal["debug", "info", "warning", "error"] = setting("info", "Log detail.")
    web: WebConfig = field(default_factory=WebConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)
    mdns: MdnsConfig = field(default_factory=MdnsConfig)

    def resolved_data_dir(self) -> Path:
        if self.data_dir:
            return Path(self.data_dir)
        state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
        return Path(state) if state else Path("var")


def is_raspberry_pi(model_file: str = "/proc/device-tree/model") -> bool:
    try:
        return "Raspberry Pi" in Path(model_file).read_text(errors="replace")
    except OSError:
        return False


def load(path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> Config:
    """Defaults, then the TOML file at `path` (if any), then dotted `overrides` from the CLI."""
    data: dict[str, Any] = {}
    if path is not None:
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read the settings file ({exc.strerror})") from exc
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from exc
        except UnicodeDecodeError as exc:
            raise ConfigError(
                f"{path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset "
                f"{exc.start}); save the settings file as UTF-8"
            ) from exc
    for dotted, value in (overrides or {}).items():
        *sections, key = dotted.split(".")
        node = data
        for section in sections:
            node = node.setdefault(section, {})
        node[key] = value
    config = _build(Config, data, "")
    _check_pins(config)
    if config.camera.kind == "folder" and not config.camera.folder:
        raise ConfigError('camera.folder: camera.kind = "folder" needs the folder of images')
    return config


def _check_pins(config: Config) -> None:
    pins: dict[int, str] = {}
    for name in BUTTON_NAMES:
        pin = getattr(config.buttons, name)
        if pin in pins:
            raise ConfigError(f"buttons.{name}: pin {pin} is already buttons.{pins[pin]}")
        if pin in I2C_PINS and config.display.driver != "none":
            raise ConfigError(f"buttons.{name}: pin {pin} carries the display's I2C bus")
        pins[pin] = name


def _build(cls: type, data: Any, prefix: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{prefix.rstrip('.')}: must be a table of settings")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    values = {}
    for key, value in data.items():
        if key not in fields:
            close = difflib.get_close_matches(key, fields, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise ConfigError(f"{prefix}{key}: unknown key{hint}")
        kind = hints[key]
        if dataclasses.is_dataclass(kind):
            values[key] = _build(kind, value, f"{prefix}{key}.")
        else:
            values[key] = _check(f"{prefix}{key}", kind, value, fields[key].metadata)
    return cls(**values)


def _check(name: str, kind: Any, value: Any, meta: Any) -> Any:
    origin = typing.get_origin(kind)
    if origin is Literal:
        choices = typing.get_args(kind)
        if isinstance(value, bool) or value not in choices:  # False == 0 would pass otherwise
            raise ConfigError(f"{name}: must be one of {', '.join(map(repr, choices))}")
        return value
    if origin is tuple:
        parts = typing.get_args(kind)
        if not isinstance(value, list | tuple) or len(value) != len(parts):
            raise ConfigError(f"{name}: must be a list of {len(parts)} numbers, e.g. [1280, 720]")
        positive = {"low": 1, "high": None}
        return tuple(_check(name, p, v, positive) for p, v in zip(parts, value, strict=True))
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{name}: must be true or false")
        return value
    if kind in (int, float):
        ok = isinstance(value, int | float) if kind is float else isinstance(value, int)
        if isinstance(value, bool) or not ok:
            raise ConfigError(
                f"{name}: must be {'a number' if kind is float else 'a whole number'}"
            )
        low, high = meta.get("low"), meta.get("high")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"at least {low}" if high is None else f"between {low} and {high}"
            raise ConfigError(f"{name}: must be {bounds}, not {value}")
        return kind(value)
    if kind is str:
        if not isinstance(value, str):
            raise ConfigError(f"{name}: must be text in quotes")
        return value
    raise TypeError(f"no check for {name}: {kind}")  # a new setting type needs a branch here


def documented_keys(cls: type = Config, prefix: str = "") -> dict[str, str]:
    """Every dotted key with its doc string, for the example file and its test."""
    keys = {}
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        if dataclasses.is_dataclass(hints[f.name]):
            keys.update(documented_keys(hints[f.name], f"{prefix}{f.name}."))
        else:
            keys[f"{prefix}{f.name}"] = f.metadata["doc"]
    return keys
