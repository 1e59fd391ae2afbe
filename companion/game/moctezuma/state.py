"""The game state: plain mutable objects that `fold` updates in place.

Only views leave the engine; nothing here is shown to players as is.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

POINTS = 5  # MOCT-TURN-1
LIBRARY = 0  # location 0; temples are 1-10
LOG_LINES = 20  # the lines a view shows


@dataclass(slots=True)
class Record:
    """One player's record sheet (MOCT-REC-1): what they have seen, and their own notes."""

    chits: dict[int, str] = field(default_factory=dict)  # chit space -> face peeked at
    names: dict[int, str] = field(default_factory=dict)  # temple -> name card drawn there
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Seat:
    name: str
    at: int = LIBRARY  # MOCT-SET-1: every researcher starts on the Library
    carry: int = 0  # points carried to the next turn (option carry_points)
    kept: list[tuple[int, int]] = field(default_factory=list)  # (temple, points), in order kept
    record: Record = field(default_factory=Record)
    research: dict[int, str] | None = None  # the last Research's chits, for the seat's page
    drawn: dict[str, Any] | None = None  # the last Explore's event (temple, cards), for its page


@dataclass(slots=True, eq=False, weakref_slot=True)
class MoctezumaState:
    options: dict[str, Any]
    seats: list[Seat]
    salt: str
    hidden: dict[str, Any]
    commitment: str
    spaces: tuple[tuple[int, str], ...]  # chit space -> (column, king)
    decks: dict[int, list[int | str]]  # temple -> cards, top of the deck LAST; secret
    first: int  # MOCT-SET-1: the first player, drawn from the seed
    turn: int
    points: int = POINTS
    round: int = 1
    turned: int = 0  # chits turned face up so far, in space order (MOCT-ROUND-1)
    explore: dict[str, Any] | None = None  # the Explore (seat, temple, cards) awaiting a Keep
    over: bool = False
    # Sentences and events (see log_lines), the last LOG_LINES kept.
    log: deque[Any] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    log_count: int = 0
    result: dict[str, Any] | None = None

    def say(self, entry: Any) -> None:
        """Adds a sentence, or an event that `log_lines` words, to the log."""
        self.log.append(entry)
        self.log_count += 1

    def chit(self, space: int) -> str:
        return self.hidden["chits"][space]

    def face_up(self, space: int) -> bool:
        return space < self.turned
