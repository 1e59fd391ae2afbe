"""The game state: plain objects that `fold` updates in place.

The companion does not model the printed board (docs/inka-commands.md): it keeps the turn
order, the phases, the action points spent by kind, the blocking counters and the statues,
and trusts the table for where things stand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

COLOURS = ("red", "yellow", "green", "blue")
STEPPING_TILES = 13  # INKA-SET-2
ACTION_POINTS = 3  # INKA-TURN-1
STATUES = 3  # INKA-STAT-1: each colour's statues on the target tiles
# setup: colours and the youngest player; starts: counters onto starting spaces in turn;
# tiles: the stepping tiles placed in turn; play: turns; over: someone left by an exit.
STAGES = ("setup", "starts", "tiles", "play", "over")
# INKA-TURN-1: the four phases of a turn, as players say them.
PHASES = {
    1: "lift the blocking counter",
    2: "move stepping tiles",
    3: "move the playing counter",
    4: "place the blocking counter",
}
# What action points are spent on (INKA-TILE-1, INKA-MOVE-1, INKA-STAT-1, INKA-SPEC-1/2).
SPENDS = ("tile", "snake", "statue", "passage", "diamond")
# Where a blocking counter is: off the board, on a board space, on a stepping tile.
BLOCKER_PLACES = ("off", "space", "tile")
MAX_LOG = 60


@dataclass(slots=True)
class Player:
    name: str
    colour: str | None = None
    statues: int = 0  # collected, 0-3
    blocker: str = "off"  # one of BLOCKER_PLACES
    started: bool = False  # the playing counter stands on a starting space (INKA-SET-1)


@dataclass(slots=True, eq=False, weakref_slot=True)
class InkaState:
    options: dict[str, Any]
    seats: list[Player]
    stage: str = "setup"
    first: int | None = None  # the youngest player, who begins (INKA-SET-1)
    turn: int | None = None  # whose placement or turn it is
    turn_number: int = 0  # turns begun in play
    phase: int = 0  # 1-4 during a turn (INKA-TURN-1), 0 outside play
    points: int = 0  # action points left this turn
    spent: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SPENDS, 0))
    tiles_left: int = STEPPING_TILES
    winner: int | None = None
    log: list[str] = field(default_factory=list)
    log_count: int = 0

    def say(self, text: str) -> None:
        self.log.append(text)
        self.log_count += 1
        if len(self.log) > MAX_LOG * 2:
            del self.log[:MAX_LOG]

    def clockwise(self) -> list[int]:
        """The seats in turn order, from the first player (empty until they are known)."""
        if self.first is None:
            return []
        n = len(self.seats)
        return [(self.first + i) % n for i in range(n)]

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.seats)

    def name(self, seat: int) -> str:
        return self.seats[seat].name
