"""`companion simulate --game inka`: random complete games on the engine alone, the invariants
checked after every command, and what the games looked like."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from typing import Any

from companion.game.inka import invariants
from companion.game.inka.game import InkaGame
from companion.game.random_play import play_random_game

# Command -> the kind of action points it spends (INKA-TURN-1).
SPENDING = {
    "move_tile": "tile",
    "snake": "snake",
    "collect_statue": "statue",
    "secret_passage": "passage",
    "diamond": "diamond",
}


class GameFailed(RuntimeError):
    """A random game broke the engine: the message names the seed to replay it with."""


def simulate(games: int, seed: int, players: int | None = None) -> dict[str, Any]:
    """Plays `games` random games (game i: seed `seed + i`; 2-4 players varying, or
    `players`) and returns the report as JSON-ready data."""
    game = InkaGame()
    turns: list[int] = []
    seats: Counter[int] = Counter()
    spent: Counter[str] = Counter()
    wins_by_place: Counter[int] = Counter()
    blocks = commands = 0
    start = time.perf_counter()
    for number in range(games):
        game_seed = seed + number
        count = players or random.Random(game_seed).randint(game.min_seats, game.max_seats)
        watcher = _Watcher()
        try:
            played = play_random_game(
                game, [f"Player {i + 1}" for i in range(count)], game_seed, check=watcher
            )
        except Exception as exc:
            raise GameFailed(f"game with seed {game_seed} ({count} players) failed: {exc}") from exc
        state = played.state
        seats[count] += 1
        turns.append(state.turn_number)
        commands += len(played.commands)
        for command in played.commands:
            kind = SPENDING.get(command.type)
            if kind is not None:
                spent[kind] += command.args.get("count", 1)
            blocks += command.type == "place_blocker"
        wins_by_place[(state.winner - state.first) % count + 1] += 1
    seconds = time.perf_counter() - start
    return {
        "game": "inka",
        "games": games,
        "commands": commands,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds else None,
        "commands_per_game": round(commands / games, 1) if games else None,
        "players": {str(n): g for n, g in sorted(seats.items())},
        "turns": {
            "mean": round(statistics.fmean(turns), 2),
            "min": min(turns),
            "max": max(turns),
        }
        if turns
        else None,
        "points_spent": {kind: spent[kind] for kind in SPENDING.values()},
        "blocking_counters_placed": blocks,
        "wins_by_turn_order": {str(k): v for k, v in sorted(wins_by_place.items())},
    }


class _Watcher:
    """Runs after every command: the invariants, the one-way ones against the last state."""

    def __init__(self) -> None:
        self.snapshot: invariants.Snapshot | None = None

    def __call__(self, state: Any) -> None:
        invariants.check(state, self.snapshot)
        self.snapshot = invariants.snapshot(state)


def summary(report: dict[str, Any]) -> list[str]:
    """The report in lines people read."""
    turns = report["turns"]
    spent = report["points_spent"]
    return [
        f"{report['games']} games of Inka in {report['seconds']} s: "
        f"{report['games_per_second']} games/s ({report['commands_per_game']} commands a game), "
        "invariants checked after every command",
        "players: " + ", ".join(f"{n}: {g} games" for n, g in report["players"].items()),
        f"turns to a winner: mean {turns['mean']}, min {turns['min']}, max {turns['max']}",
        "action points spent: " + ", ".join(f"{n} {kind}" for kind, n in spent.items()),
        f"blocking counters placed: {report['blocking_counters_placed']}",
        "wins by place in the turn order: "
        + ", ".join(f"{place}: {n}" for place, n in report["wins_by_turn_order"].items()),
    ]
