"""What `companion simulate --game moctezuma` checks and counts: the invariants after every
command, then the winning scores."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.game.moctezuma.invariants import Watcher
from companion.game.moctezuma.state import MoctezumaState


@dataclass
class MoctezumaSimulation:
    """Random games: 2 to 6 players (MOCT-SET-1)."""

    seats: tuple[int, int] = (2, 6)
    winning: list[int] = field(default_factory=list)

    def checker(self) -> Callable[[MoctezumaState], None]:
        """A fresh check for one game, to run after every command (the watcher's bound call,
        spared the lookup of `__call__` every time)."""
        return Watcher().__call__

    def watcher(self) -> Callable[[MoctezumaState, list], None]:
        """The check `companion simulate` runs after every command, told its events: what
        they changed at once, the rest of the state once a round (`Watcher.after`)."""
        return Watcher().after

    def add(self, state: MoctezumaState, commands: list[Any]) -> None:
        """Counts one finished game."""
        self.winning.append(max(state.result["scores"]))

    def to_json(self) -> dict[str, Any]:
        win = self.winning
        return {
            "winning_score": {
                "mean": round(statistics.fmean(win), 2),
                "min": min(win),
                "max": max(win),
            }
            if win
            else None
        }

    @staticmethod
    def lines(report: dict[str, Any]) -> list[str]:
        """The report's own figures (`to_json`'s keys) as lines of text."""
        win = report["winning_score"]
        return [f"winning score: mean {win['mean']}, min {win['min']}, max {win['max']}"]
