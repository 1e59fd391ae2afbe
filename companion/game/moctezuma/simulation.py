"""`companion simulate --game moctezuma`: random complete games on the engine alone, the
invariants checked after every command, and the winning scores."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from typing import Any

from companion.game.moctezuma import invariants
from companion.game.moctezuma.game import MoctezumaGame
from companion.game.random_play import play_random_game


class GameFailed(RuntimeError):
    """A random game broke the engine: the message names the seed to replay it with."""


def simulate(games: int, seed: int, players: int | None = None) -> dict[str, Any]:
    """Plays `games` random games (game i: seed `seed + i`; 2-6 players varying, or
    `players`) and returns the report as JSON-ready data."""
    game = MoctezumaGame()
    counts: Counter[int] = Counter()
    commands, winning = 0, []
    start, cpu = time.perf_counter(), time.process_time()
    for number in range(games):
        game_seed = seed + number
        count = players or random.Random(game_seed).randint(game.min_seats, game.max_seats)
        try:
            played = play_random_game(
                game, [f"Player {i + 1}" for i in range(count)], game_seed, check=_Watcher()
            )
        except Exception as exc:
            raise GameFailed(f"game with seed {game_seed} ({count} players) failed: {exc}") from exc
        counts[count] += 1
        commands += len(played.commands)
        winning.append(max(played.state.result["scores"]))
    seconds = time.perf_counter() - start
    # CPU time too: on a shared machine the wall clock also counts other programs' turns.
    cpu = time.process_time() - cpu
    return {
        "game": "moctezuma",
        "games": games,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1),
        "cpu_seconds": round(cpu, 3),
        "games_per_cpu_second": round(games / cpu, 1) if cpu else None,
        "commands_per_game": round(commands / games, 1),
        "players": {str(n): g for n, g in sorted(counts.items())},
        "winning_score": {
            "mean": round(statistics.fmean(winning), 2),
            "min": min(winning),
            "max": max(winning),
        },
    }


class _Watcher:
    """Runs after every command: the invariants, the one-way ones against the last state."""

    def __init__(self) -> None:
        self.snapshot: invariants.Snapshot | None = None

    def __call__(self, state: Any) -> None:
        self.snapshot = invariants.check(state, self.snapshot)


def summary(report: dict[str, Any]) -> list[str]:
    """The report in lines people read."""
    win = report["winning_score"]
    return [
        f"{report['games']} games of Moctezuma's Revenge! in {report['seconds']} s: "
        f"{report['games_per_second']} games/s ({report['games_per_cpu_second']} a CPU second; "
        f"{report['commands_per_game']} commands a game), invariants checked after every command",
        "players: " + ", ".join(f"{n}: {g} games" for n, g in report["players"].items()),
        f"winning score: mean {win['mean']}, min {win['min']}, max {win['max']}",
    ]
