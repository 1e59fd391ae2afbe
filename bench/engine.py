"""Engine and table figures: how fast random complete games of Temple of Chac run on one core,
and how long one command takes through the Table, fsync of the SQLite log included.

    .venv/bin/python bench/engine.py            # figures as text
    .venv/bin/python bench/engine.py --json     # the same as JSON

Goal on a Pi: at least 100 simulated games a second (so soak tests stay cheap), and a command
acknowledged well within a button press's patience (p99 in tens of milliseconds at most).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.game.chac import ChacGame, invariants  # noqa: E402
from companion.game.random_play import play_random_game, random_command  # noqa: E402
from companion.table import Table  # noqa: E402

SEATS = ["Ana", "Ben", "Cy", "Di"]


def games_per_second(games: int, check: bool, repeats: int = 3) -> dict:
    """Complete 4-player games, one after another in this one thread (so: one core). The
    best of `repeats` runs is the figure least disturbed by other work on the machine."""
    game = ChacGame()
    rates = []
    for _ in range(repeats):
        commands = 0
        start = time.perf_counter()
        for seed in range(games):
            played = play_random_game(game, SEATS, seed, check=invariants.check if check else None)
            commands += len(played.commands)
        rates.append((games / (time.perf_counter() - start), commands))
    best, commands = max(rates)
    return {
        "games": games,
        "runs": repeats,
        "games_per_second": round(best, 1),
        "games_per_second_median": round(statistics.median(r for r, _ in rates), 1),
        "commands_per_game": round(commands / games, 1),
    }


def table_latency(samples: int, db: str | Path) -> dict:
    """Random legal commands through Table.submit; each timing covers the engine's checks,
    the fold, the SQLite commit (fsynced, for a file) and the subscribers."""
    game = ChacGame()
    rng = random.Random(1)
    submit_ms: list[float] = []
    undo_ms: list[float] = []
    with Table.open(db) as table:
        table.subscribe(lambda version: None)
        seed = 0
        while len(submit_ms) < samples:
            seed += 1
            table.new_game("chac", {}, SEATS, seed)
            shadow = game.setup({}, SEATS, seed)  # chooses commands without reading the table
            while not game.is_over(shadow) and len(submit_ms) < samples:
                command = random_command(game, shadow, rng, len(SEATS))
                start = time.perf_counter()
                outcome = table.submit(command)
                submit_ms.append((time.perf_counter() - start) * 1000)
                assert outcome.ok, outcome.reason
                for event in game.apply(shadow, command):
                    shadow = game.fold(shadow, event)
                if len(submit_ms) % 50 == 0:  # an undo, then the same command again
                    start = time.perf_counter()
                    assert table.undo().ok
                    undo_ms.append((time.perf_counter() - start) * 1000)
                    assert table.submit(command).ok
    return {
        "commands": len(submit_ms),
        "submit_p50_ms": round(percentile(submit_ms, 50), 3),
        "submit_p99_ms": round(percentile(submit_ms, 99), 3),
        "submit_max_ms": round(max(submit_ms), 3),
        "undo_p50_ms": round(percentile(undo_ms, 50), 3) if undo_ms else None,
    }


def percentile(values: list[float], pct: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(pct) - 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to simulate (200)")
    parser.add_argument("--commands", type=int, default=1000, help="commands timed (1000)")
    parser.add_argument(
        "--dir",
        type=Path,
        default=ROOT / "var",
        help="folder for the timed log; put it on the disk the Pi will use (default ./var)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)

    figures: dict = {"players": len(SEATS)}
    figures["simulation"] = games_per_second(args.games, check=False)
    figures["simulation_with_invariants"] = games_per_second(args.games, check=True)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        figures["table"] = table_latency(args.commands, Path(tmp) / "bench.db")
    figures["table"]["log_folder"] = str(args.dir)
    figures["table_in_memory"] = table_latency(args.commands, ":memory:")
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    sim, checked, table = (
        figures["simulation"],
        figures["simulation_with_invariants"],
        figures["table"],
    )
    print(f"Temple of Chac, {len(SEATS)} players, one core (best of {sim['runs']} runs)")
    print(
        f"  simulated games:          {sim['games_per_second']:8.1f} games/s "
        f"(median {sim['games_per_second_median']}; {sim['commands_per_game']} commands a "
        "game; goal >= 100)"
    )
    print(
        f"  ... checking invariants:  {checked['games_per_second']:8.1f} games/s "
        f"(median {checked['games_per_second_median']})"
    )
    print(
        f"  Table.submit with fsync:  p50 {table['submit_p50_ms']:.3f} ms, "
        f"p99 {table['submit_p99_ms']:.3f} ms, max {table['submit_max_ms']:.3f} ms "
        f"({table['commands']} commands, log in {table['log_folder']})"
    )
    print(f"  Table.undo (replay):      p50 {table['undo_p50_ms']:.3f} ms")
    memory = figures["table_in_memory"]
    print(
        f"  Table.submit, no disk:    p50 {memory['submit_p50_ms']:.3f} ms, "
        f"p99 {memory['submit_p99_ms']:.3f} ms (the same commands on an in-memory log)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
