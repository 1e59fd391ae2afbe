"""Random complete games per CPU second, for every registered game: the path of `companion
simulate --game NAME` (random legal commands, the game's invariants checked after every
command), and the same games on the engine alone, without the invariants; timed by the CPU
time this process spends, so other programs on a shared machine count less. Run it on one
core:

    taskset -c 1 .venv/bin/python bench/games.py            # figures as text
    taskset -c 1 .venv/bin/python bench/games.py --json     # the same as JSON

On a shared machine the figures swing by half from one minute to the next; `--against DIR`
(another checkout, e.g. `git worktree add /tmp/main main`) times both trees turn about, each
run in a fresh process, so that the two are compared under the same load:

    taskset -c 1 .venv/bin/python bench/games.py --game moctezuma --against /tmp/main

Goal: Moctezuma's Revenge! at 500 games a CPU second or more.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.game import GAMES  # noqa: E402


def simulator(name: str, checked: bool = True) -> Callable[[int, int], Any]:
    """`simulate(games, seed)` as `companion simulate --game name` runs it (not `checked`:
    without the invariants, the engine alone)."""
    from companion.game_cli import simulate

    return lambda games, seed: simulate(games, seed, game_name=name, checked=checked)


def games_per_cpu_second(name: str, games: int, runs: int) -> dict[str, Any]:
    """`runs` runs of `games` games each (the same seeds every run), with the invariants and
    without them, taken turn about; the best run is the one least disturbed by other work on
    the machine."""
    rates: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(runs):
        for checked in (True, False):
            simulate = simulator(name, checked)
            start = time.process_time()
            simulate(games, 0)
            rates[checked].append(games / (time.process_time() - start))
    return {
        "games": games,
        "runs": runs,
        "games_per_cpu_second": round(max(rates[True]), 1),
        "games_per_cpu_second_median": round(statistics.median(rates[True]), 1),
        "engine_alone_games_per_cpu_second": round(max(rates[False]), 1),
        "engine_alone_median": round(statistics.median(rates[False]), 1),
    }


_ONE_RUN = """
import sys, time
from companion.game_cli import simulate
name, games = sys.argv[1], int(sys.argv[2])
simulate(5, 10_000, game_name=name)  # imports and caches warmed
start = time.process_time()
simulate(games, 0, game_name=name)
print(games / (time.process_time() - start))
"""


def run_in(tree: Path, name: str, games: int) -> float:
    """Games per CPU second of one run in a fresh process on the code of `tree`."""
    out = subprocess.run(
        [sys.executable, "-c", _ONE_RUN, name, str(games)],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout)


def compared(name: str, games: int, runs: int, other: Path) -> dict[str, Any]:
    """This tree's and `other`'s runs taken turn about; their medians and the ratio of each
    pair of runs (this tree's over the other's)."""
    here, there = [], []
    for _ in range(runs):
        there.append(run_in(other, name, games))
        here.append(run_in(ROOT, name, games))
    ratios = [a / b for a, b in zip(here, there, strict=True)]
    return {
        "games": games,
        "runs": runs,
        "games_per_cpu_second_median": round(statistics.median(here), 1),
        "against_median": round(statistics.median(there), 1),
        "speedup_median": round(statistics.median(ratios), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games a run (200)")
    parser.add_argument("--runs", type=int, default=3, help="runs a game (3)")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only these")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    args = parser.parse_args()
    if args.against is not None:
        return print_comparison(args)
    figures = {
        name: games_per_cpu_second(name, args.games, args.runs) for name in args.game or GAMES
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"Random complete games a CPU second (best of {args.runs})")
    for name, figure in figures.items():
        print(
            f"  {name + ':':12} {figure['games_per_cpu_second']:8.1f} invariants checked after "
            f"every command (median {figure['games_per_cpu_second_median']}), "
            f"{figure['engine_alone_games_per_cpu_second']:.1f} the engine alone "
            f"(median {figure['engine_alone_median']})"
        )
    return 0


def print_comparison(args: argparse.Namespace) -> int:
    figures = {
        name: compared(name, args.games, args.runs, args.against.resolve())
        for name in args.game or GAMES
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"Games a CPU second, median of {args.runs} runs turn about with {args.against}")
    for name, f in figures.items():
        print(
            f"  {name + ':':12} {f['games_per_cpu_second_median']:8.1f} here, "
            f"{f['against_median']:8.1f} there: x{f['speedup_median']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
