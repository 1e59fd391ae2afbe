"""Private reveals: something only one seat may see, for a few seconds, once.

A game bundle that has them answers `private_reveal(name, seat_view, data_dir)` with a Reveal
built from that seat's view (the one place a seat's secret may come from), or raises
NothingToReveal. The seat page asks for it by name; the web hands each Reveal out at most once
per `key` (a reload, a second phone or a restart does not show it again) and only to the seat
whose cookie asked, so a bundle never touches cookies, routes or the hand-out record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Reveal:
    """What one seat is shown: `picture` (PNG or JPEG bytes, or None when none is stored) and
    `details` (JSON values the page shows with it, e.g. the seconds it stays up or what to
    look at instead). `key` names this showing; `again` is the refusal once it was shown."""

    key: str
    again: str
    picture: bytes | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


class NothingToReveal(Exception):
    """The seat has nothing of that kind to see now. `gone` is True when there was something
    that may no longer be shown (e.g. the game is over), False when there never was."""

    def __init__(self, message: str, gone: bool = False):
        super().__init__(message)
        self.gone = gone


def media_type(picture: bytes) -> str:
    """The type of a stored picture, from its first bytes (JPEG, else PNG)."""
    return "image/jpeg" if picture.startswith(b"\xff\xd8") else "image/png"
