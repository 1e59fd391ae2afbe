"""What `companion simulate --game inka` checks and counts: the invariants after every command,
then the turns, the action points spent by kind, the blocking counters and who won."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.game.inka import invariants
from companion.game.inka.state import InkaState
from companion.game.random_play import InvariantWatcher

# Command -> the kind of action points it spends (INKA-TURN-1).
SPENDING = {
    "move_tile": "tile",
    "snake": "snake",
    "collect_statue": "statue",
    "secret_passage": "passage",
    "diamond": "diamond",
}


@dataclass
class InkaSimulation:
    """Random games: 2 to 4 players (INKA-SET-1)."""

    seats: tuple[int, int] = (2, 4)
    turns: list[int] = field(default_factory=list)
    spent: Counter[str] = field(default_factory=Counter)
    blocks: int = 0
    wins_by_place: Counter[int] = field(default_factory=Counter)

    def checker(self) -> InvariantWatcher:
        """A fresh check for one game, to run after every command."""
        return InvariantWatcher(invariants)

    def add(self, state: InkaState, commands: list[Any]) -> None:
        """Counts one finished game and the commands that played it."""
        self.turns.append(state.turn_number)
        for command in commands:
            kind = SPENDING.get(command.type)
            if kind is not None:
                self.spent[kind] += command.args.get("count", 1)
            self.blocks += command.type == "place_blocker"
        count = len(state.seats)
        self.wins_by_place[(state.winner - state.first) % count + 1] += 1

    def to_json(self) -> dict[str, Any]:
        turns = self.turns
        return {
            "turns": {
                "mean": round(statistics.fmean(turns), 2),
                "min": min(turns),
                "max": max(turns),
            }
            if turns
            else None,
            "points_spent": {kind: self.spent[kind] for kind in SPENDING.values()},
            "blocking_counters_placed": self.blocks,
            "wins_by_turn_order": {str(k): v for k, v in sorted(self.wins_by_place.items())},
        }

    @staticmethod
    def lines(report: dict[str, Any]) -> list[str]:
        """The report's own figures (`to_json`'s keys) as lines of text."""
        turns = report["turns"]
        spent = report["points_spent"]
        return [
            f"turns to a winner: mean {turns['mean']}, min {turns['min']}, max {turns['max']}",
            "action points spent: " + ", ".join(f"{n} {kind}" for kind, n in spent.items()),
            f"blocking counters placed: {report['blocking_counters_placed']}",
            "wins by place in the turn order: "
            + ", ".join(f"{place}: {n}" for place, n in report["wins_by_turn_order"].items()),
        ]
