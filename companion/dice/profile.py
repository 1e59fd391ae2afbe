"""Dice reader profile: every tunable number of the reader, loaded from TOML and checked.

A profile file has one table per stage (`[pips]`, `[faces]`, `[dice]`, `[scene]`, `[scale]`,
`[settle]`).
Keys left out keep their defaults; an unknown key, a wrong type or a value out of range is an
error that names the file, the key and what is allowed.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import ClassVar

DEFAULT_PATH = Path(__file__).resolve().parent / "default_profile.toml"


class ProfileError(ValueError):
    """A profile file that cannot be used; the message says which key and why."""


def _num(lo: float, hi: float, doc: str, integer: bool = False) -> dict:
    return {"lo": lo, "hi": hi, "doc": doc, "integer": integer}


@dataclass(frozen=True)
class PipParams:
    kernel: int = 21
    threshold: float = 24.0
    max_peaks: int = 150
    peaks_per_die: int = 10
    min_radius: float = 1.5
    max_radius: int = 12
    max_aspect: float = 3.0
    min_ring_contrast: float = 50.0
    ring_scale: float = 1.5
    ring_agreement: float = 0.67
    weak_agreement: float = 0.5

    limits: ClassVar[dict] = {
        "kernel": _num(5, 61, "square structuring element, wider than the largest pip (px)", True),
        "threshold": _num(1, 200, "top-hat response of a pip's centre"),
        "max_peaks": _num(10, 5000, "strongest peaks measured per channel and polarity", True),
        "peaks_per_die": _num(
            0, 200, "as many for each die the table asks for, where more (many dice)", True
        ),
        "min_radius": _num(0.5, 20, "smallest pip radius (px)"),
        "max_radius": _num(2, 40, "largest pip radius (px)", True),
        "max_aspect": _num(1, 10, "longest/shortest width of a pip"),
        "min_ring_contrast": _num(0, 450, "pip vs the face around it, colour distance"),
        "ring_scale": _num(1.2, 4, "radius of the face sample ring, in pip radii"),
        "ring_agreement": _num(0, 1, "share of the ring that must have the face's colour"),
        "weak_agreement": _num(
            0, 1, "share for a pip that may only complete a face short of one (by a die's rim)"
        ),
    }


@dataclass(frozen=True)
class FaceParams:
    link_distance: float = 10.0
    two_link_distance: float = 14.0
    radius_ratio: float = 1.3
    colour_tolerance: float = 44.0
    path_tolerance: float = 0.28
    max_residual: float = 0.34
    max_pip_elongation: float = 1.55
    side_squash: float = 0.5

    limits: ClassVar[dict] = {
        "link_distance": _num(2, 30, "farthest two pips of one face, in pip radii"),
        "two_link_distance": _num(2, 40, "farthest two pips linked to no other pip, in pip radii"),
        "radius_ratio": _num(1, 4, "largest/smallest pip radius on one face"),
        "colour_tolerance": _num(1, 255, "face colour difference between pips of one face"),
        "path_tolerance": _num(0.05, 1, "share of the pip contrast a path between pips may dip"),
        "max_residual": _num(0.05, 1, "pattern fit error, in pip spacings"),
        "max_pip_elongation": _num(1, 5, "pips longer than this are on a side face"),
        "side_squash": _num(0, 1, "a pattern squashed below this is a side face"),
    }


@dataclass(frozen=True)
class DiceParams:
    edge_tolerance: float = 0.05
    edge_min: float = 14.0
    min_edge_score: float = 0.625
    one_pip_size: tuple[float, float] = (2.2, 10.0)
    one_pip_min_radius: float = 2.0
    clear_one_pip_min_radius: float = 1.7
    confidence_threshold: float = 0.5
    min_confidence: float = 0.15
    cocked_squash: float = 0.82
    view_squash: float = 0.9
    max_dice: int = 25
    overlap: float = 0.85
    frame_overhang: float = 0.1

    limits: ClassVar[dict] = {
        "edge_tolerance": _num(0.05, 1, "share of the pip contrast that marks the die's edge"),
        "edge_min": _num(1, 255, "smallest colour step that marks the die's edge"),
        "min_edge_score": _num(0, 1, "share of rays that must find the die's edge in place"),
        "one_pip_size": _num(1, 20, "a lone pip's die edge lies this far out, in pip radii"),
        "one_pip_min_radius": _num(0.5, 20, "smallest radius of a lone pip (px)"),
        "clear_one_pip_min_radius": _num(
            0.5, 20, "smallest radius of a lone pip standing out clearly, round (px)"
        ),
        "confidence_threshold": _num(0, 1, "dice below this confidence are flagged uncertain"),
        "min_confidence": _num(0, 1, "faces below this confidence are not taken for dice"),
        "cocked_squash": _num(0.3, 1, "top face squashed below this share of a flat one's"),
        "view_squash": _num(0.3, 1, "how square a flat die's top face looks to this camera"),
        "max_dice": _num(1, 100, "more dice than this is not a roll", True),
        "overlap": _num(0.1, 2, "faces closer than this (in die edges) are one die's faces"),
        "frame_overhang": _num(
            0, 0.5, "share of a die past the frame (pips in view) read when the count asked is seen"
        ),
    }


@dataclass(frozen=True)
class SceneParams:
    hand_area: float = 0.04
    hand_colour_distance: float = 60.0
    hand_fill: float = 0.25
    hand_reaches: float = 0.1
    hand_beneath: float = 0.75

    limits: ClassVar[dict] = {
        "hand_area": _num(0.001, 1, "skin-coloured share of the frame that means a hand"),
        "hand_colour_distance": _num(1, 255, "skin must differ this much from the tray"),
        "hand_fill": _num(0, 1, "share of its bounding box a hand covers (a wall band less)"),
        "hand_reaches": _num(0, 1, "share of the ring round a die that is hand: it may hide it"),
        "hand_beneath": _num(0, 1, "share of that ring from which the die lies on the 'hand'"),
    }


@dataclass(frozen=True)
class ScaleParams:
    longest_side: int = 640
    die_size: float = 42.0
    tolerance: float = 1.6
    measured_die: float = 52.0
    calibrated_die: float = 0.0

    limits: ClassVar[dict] = {
        "longest_side": _num(160, 4096, "a frame is first searched this long (px)", True),
        "die_size": _num(12, 120, "the die size the pip search is tuned for (px)"),
        "tolerance": _num(1.05, 4, "dice found this much bigger or smaller: search again"),
        "measured_die": _num(
            12, 200, "the die edge the pip search reads at when the detector measured it (px)"
        ),
        "calibrated_die": _num(
            0,
            0.5,
            "the owner's die edge in shares of the tray view's longest side, measured by "
            "calibration (0: not calibrated; the detector then searches for the dice's size)",
        ),
    }

    def die_pixels(self, shape: tuple[int, ...]) -> float | None:
        """The calibrated die edge in pixels of a frame of `shape` (the tray view the dice
        were calibrated on, at any resolution); None when not calibrated."""
        return self.calibrated_die * max(shape[:2]) if self.calibrated_die else None


@dataclass(frozen=True)
class SettleParams:
    motion_threshold: float = 12.0
    moving_fraction: float = 0.002
    still_frames: int = 4
    hand_still_frames: int = 90

    limits: ClassVar[dict] = {
        "motion_threshold": _num(1, 255, "brightness change that counts as motion"),
        "moving_fraction": _num(0, 1, "share of moving pixels that means dice are moving"),
        "still_frames": _num(1, 100, "still frames in a row before a reading", True),
        "hand_still_frames": _num(
            1, 3000, "still frames a 'hand' may lie before the dice are read past it", True
        ),
    }


@dataclass(frozen=True)
class Profile:
    pips: PipParams = field(default_factory=PipParams)
    faces: FaceParams = field(default_factory=FaceParams)
    dice: DiceParams = field(default_factory=DiceParams)
    scene: SceneParams = field(default_factory=SceneParams)
    scale: ScaleParams = field(default_factory=ScaleParams)
    settle: SettleParams = field(default_factory=SettleParams)
    name: str = "default"

    def to_toml(self) -> str:
        """The profile as TOML that `load` reads back to an equal profile."""
        lines = [f'name = "{self.name}"']
        for section in _SECTIONS:
            params = getattr(self, section)
            lines += ["", f"[{section}]"]
            for f in fields(params):
                value = getattr(params, f.name)
                lines.append(f"# {type(params).limits[f.name]['doc']}")
                if isinstance(value, tuple):
                    lines.append(f"{f.name} = [{', '.join(_fmt(v) for v in value)}]")
                else:
                    lines.append(f"{f.name} = {_fmt(value)}")
        return "\n".join(lines) + "\n"


_SECTIONS = ("pips", "faces", "dice", "scene", "scale", "settle")


def _fmt(value: float) -> str:
    return str(value) if isinstance(value, int) else repr(round(float(value), 4))


def _check_value(where: str, value, default, limit: dict):
    if isinstance(default, tuple):
        if not isinstance(value, list) or len(value) != len(default):
            raise ProfileError(f"{where}: expected a list of {len(default)} numbers")
        return tuple(_check_value(where, v, default[0], limit) for v in value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProfileError(f"{where}: expected a number, got {value!r}")
    if limit["integer"] and not isinstance(value, int):
        raise ProfileError(f"{where}: expected a whole number, got {value!r}")
    if not limit["lo"] <= value <= limit["hi"]:
        raise ProfileError(f"{where}: {value} is outside {limit['lo']}..{limit['hi']}")
    return value if limit["integer"] else float(value)


def from_dict(data: dict, source: str = "profile") -> Profile:
    """Build a checked profile from parsed TOML; missing keys keep their defaults."""
    profile = Profile()
    for key, value in data.items():
        if key == "name":
            if not isinstance(value, str):
                raise ProfileError(f"{source}: name must be a string")
            profile = replace(profile, name=value)
            continue
        if key not in _SECTIONS:
            raise ProfileError(
                f"{source}: unknown section [{key}]; sections are {', '.join(_SECTIONS)}"
            )
        if not isinstance(value, dict):
            raise ProfileError(f"{source}: [{key}] must be a table")
        params = getattr(profile, key)
        known = {f.name for f in fields(params)}
        changes = {}
        for name, raw in value.items():
            if name not in known:
                raise ProfileError(
                    f"{source}: unknown key {key}.{name}; known keys: {', '.join(sorted(known))}"
                )
            changes[name] = _check_value(
                f"{source}: {key}.{name}", raw, getattr(params, name), type(params).limits[name]
            )
        profile = replace(profile, **{key: replace(params, **changes)})
    if profile.pips.min_radius >= profile.pips.max_radius:
        raise ProfileError(f"{source}: pips.min_radius must be below pips.max_radius")
    lo, hi = profile.dice.one_pip_size
    if lo >= hi:
        raise ProfileError(f"{source}: dice.one_pip_size must be [low, high] with low < high")
    if profile.scene.hand_reaches >= profile.scene.hand_beneath:
        # Else no die is ever one a hand may hide, and a hand over part of one goes unseen.
        raise ProfileError(f"{source}: scene.hand_reaches must be below scene.hand_beneath")
    return profile


def read_toml(path: str | Path | None) -> tuple[dict, str]:
    """A profile file's TOML table and its name for messages (the default profile when
    `path` is None); ProfileError when it cannot be read or parsed."""
    path = Path(path) if path is not None else DEFAULT_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"cannot read profile {path}: {exc.strerror or exc}") from exc
    try:
        return tomllib.loads(text), str(path)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path}: not valid TOML: {exc}") from exc


def load(path: str | Path | None = None) -> Profile:
    """Read and check a profile file (the default profile when `path` is None)."""
    return from_dict(*read_toml(path))


def save(profile: Profile, path: str | Path) -> None:
    Path(path).write_text(profile.to_toml(), encoding="utf-8")
