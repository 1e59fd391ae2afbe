"""`companion replay`, `companion verify` and `companion simulate`: the game from the shell.

replay   plays a scenario file through a Table (in memory, or into a log with --db) and prints
         the final public view and prompts as JSON.
verify   checks a finished game against the commitment the table showed at its setup.
simulate plays random complete games straight on the engine, checking invariants throughout.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.game import GAMES
from companion.game.protocol import AuditMismatch, AuditUnfinished, Command, RuleError

# `companion verify` exit codes.
VERIFY_OK, VERIFY_MISMATCH, VERIFY_NOT_FINISHED, VERIFY_NOT_A_LOG = 0, 1, 3, 4


def register(subparsers: argparse._SubParsersAction) -> None:
    replay = subparsers.add_parser(
        "replay",
        help="play a scenario file and print the final view",
        description="Play a scenario (docs/scenarios.md) through the table and print the final "
        "public view and prompts as JSON. Exits 1 naming the first rejected command, 2 when the "
        "file is not a valid scenario.",
    )
    replay.add_argument("scenario", type=Path, help="scenario JSON file")
    replay.add_argument(
        "--db", type=Path, help="keep the log in this file (default: in memory only)"
    )
    replay.add_argument(
        "--seat-views", action="store_true", help="also print every seat's private view"
    )
    replay.set_defaults(func=run_replay)

    verify = subparsers.add_parser(
        "verify",
        help="check a finished game against the commitment the table showed at its setup",
        description="Check a finished game against the commitment the table showed at its "
        "setup: the revealed hidden state must hash to it, and replaying the logged commands on "
        "that state must give every hidden card or value the log records. Exit codes: 0 "
        "verified, 1 mismatch, 2 bad arguments, 3 game not finished, 4 not a readable log file.",
    )
    verify.add_argument("logfile", type=Path, help="the companion's log (an SQLite file)")
    verify.add_argument("--game", type=int, help="game number in the log (default: the latest)")
    verify.add_argument(
        "--commitment",
        required=True,
        help="the commitment as the table showed it at setup: all 64 hex digits, at least the "
        "first 16, or the receipt file the host page offered",
    )
    verify.set_defaults(func=run_verify)

    simulate = subparsers.add_parser(
        "simulate",
        help="play random complete games and report statistics",
        description="Play complete games of a registered game with random legal commands and "
        "random dice, check the game's invariants after every command, and print games per "
        "second and outcome statistics. Exits 1 naming the seed of a game that broke a rule.",
    )
    simulate.add_argument(
        "--game",
        choices=sorted(GAMES),
        default=next(iter(GAMES)),
        help=f"the game to play (default {next(iter(GAMES))})",
    )
    simulate.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    simulate.add_argument("--seed", type=int, default=0, help="seed of the first game")
    simulate.add_argument("--players", type=int, help="players per game (default: 2 to 6, varying)")
    simulate.add_argument("--json", action="store_true", help="print the report as JSON")
    simulate.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="one of the game's setup options, as the host's setup form offers them "
        "(repeatable); a game may report on some options its own way, e.g. a co-op mode's win "
        "rate by level and player count",
    )
    simulate.set_defaults(func=run_simulate)


# --- replay --------------------------------------------------------------------------------


class ScenarioError(ValueError):
    """The file is not a usable scenario; the message says what is wrong."""


def load_scenario(path: Path) -> dict[str, Any]:
    """The scenario at `path`, checked for shape (not for the game's rules)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(f"Cannot read {path}: {exc.strerror or exc}") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario is a JSON object")
    unknown = set(data) - {"game", "options", "seats", "seed", "commands", "description", "expect"}
    if unknown:
        raise ScenarioError(f"{path}: unknown keys {', '.join(sorted(unknown))}")
    if not isinstance(data.get("game"), str):
        raise ScenarioError(f'{path}: "game" must name a game, e.g. "{next(iter(GAMES))}"')
    if not isinstance(data.get("options", {}), dict):
        raise ScenarioError(f'{path}: "options" must be an object')
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ScenarioError(f'{path}: "seats" must be a list of player names')
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScenarioError(f'{path}: "seed" must be a whole number')
    if not isinstance(data.get("commands", []), list):
        raise ScenarioError(f'{path}: "commands" must be a list')
    return data


def replay_scenario(scenario: Mapping[str, Any], db: str | Path = ":memory:") -> dict[str, Any]:
    """Plays `scenario` through a Table; the report holds the final views and prompts and,
    when a command was refused, "rejected": {"index", "command", "reason", "rule"}."""
    from companion.table import Table

    with Table.open(db) as table:
        setup = table.new_game(
            scenario["game"], scenario.get("options", {}), scenario["seats"], scenario["seed"]
        )
        report: dict[str, Any] = {"game": scenario["game"]}
        if not setup.ok:
            report["rejected"] = _rejected(None, "setup", setup.reason, setup.rule)
            return report
        applied = 0
        for index, raw in enumerate(scenario.get("commands", [])):
            try:
                if isinstance(raw, dict) and raw.get("type") == "undo" and len(raw) == 1:
                    outcome = table.undo()
                else:
                    outcome = table.submit(Command.from_json(raw))
            except RuleError as exc:  # not even a command's shape
                report["rejected"] = _rejected(index, raw, exc.reason, exc.rule)
                break
            if not outcome.ok:
                report["rejected"] = _rejected(index, raw, outcome.reason, outcome.rule)
                break
            applied += 1
        report.update(
            applied=applied,
            version=table.version,
            over=table.is_over(),
            public_view=table.public_view(),
            prompts=[p.to_json() for p in table.prompts()],
        )
        report["seat_views"] = [table.seat_view(s) for s in range(len(table.seats))]
        return report


def _rejected(index: int | None, command: Any, reason: str, rule: str) -> dict[str, Any]:
    return {"index": index, "command": command, "reason": reason, "rule": rule}


def run_replay(args: argparse.Namespace) -> int:
    from companion.data_lock import DataDirBusy, DataDirLock
    from companion.store import StoreError

    lock = None
    try:
        scenario = load_scenario(args.scenario)
        if args.db:  # a log a running companion writes is not written from here too
            lock = DataDirLock.hold(args.db.resolve().parent)
        report = replay_scenario(scenario, args.db or ":memory:")
    except (ScenarioError, StoreError, DataDirBusy) as exc:
        print(f"companion replay: {exc}", file=sys.stderr)
        return 2
    finally:
        if lock is not None:
            lock.release()
    if not args.seat_views:
        report.pop("seat_views", None)
    print(json.dumps(report, indent=2))
    rejected = report.get("rejected")
    if rejected:
        where = "setup" if rejected["index"] is None else f"command {rejected['index']}"
        print(f"companion replay: {where} rejected: {rejected['reason']}", file=sys.stderr)
        return 1
    return 0


# --- verify --------------------------------------------------------------------------------

_COMMITMENT = re.compile(r"\b[0-9a-fA-F]{16,64}\b")


def noted_commitment(value: str) -> str:
    """The commitment as given: its hex digits, or a receipt file holding them."""
    text = value.strip()
    if not re.fullmatch(r"[0-9a-fA-F]{16,64}(\.\.\.)?\.?", text):
        path = Path(text)
        try:
            receipt = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            raise ValueError(
                f"{value!r} is neither a commitment (16 to 64 hex digits) nor a receipt file"
            ) from None
        found = _COMMITMENT.findall(receipt)
        if not found:
            raise ValueError(f"the receipt {path} holds no commitment")
        text = max(found, key=len)
    return text


def verify_log(path: Path, noted: str, game_id: int | None = None) -> tuple[int, str]:
    """(exit code, one-line message) for the game in the log at `path` (default: its latest),
    checked against the commitment the players noted at setup (`noted`)."""
    from companion.game import load_game
    from companion.store import Store, StoreError

    try:
        store = Store(path, readonly=True)
    except StoreError as exc:
        return VERIFY_NOT_A_LOG, f"not a log file: {exc}"
    try:
        record = store.game(game_id) if game_id is not None else store.current_game()
        if record is None:
            return VERIFY_NOT_FINISHED, f"{path} holds no game yet"
        entries = store.active_commands(record.id)
    except (StoreError, ValueError, TypeError) as exc:
        return VERIFY_NOT_A_LOG, f"cannot read the log: {exc}"
    finally:
        store.close()
    label = f"game {record.id} ({record.name}, {', '.join(map(str, record.seats))})"
    try:
        game = load_game(record.name)
    except ValueError as exc:
        return VERIFY_NOT_A_LOG, f"{label}: {exc}"
    if not hasattr(game, "verify"):
        return VERIFY_NOT_A_LOG, f"{label} has no commitment to check"
    try:
        audit = game.verify(
            record.options,
            record.seats,
            record.seed,
            [(e.command, e.events) for e in entries],
            noted,
        )
    except AuditUnfinished as exc:
        return VERIFY_NOT_FINISHED, f"{label}: {exc}"
    except AuditMismatch as exc:
        return VERIFY_MISMATCH, f"MISMATCH: {label}: {exc}"
    return VERIFY_OK, f"ok: {label}: {audit.summary()}"


def run_verify(args: argparse.Namespace) -> int:
    try:
        noted = noted_commitment(args.commitment)
    except ValueError as exc:
        print(f"companion verify: {exc}", file=sys.stderr)
        return 2
    code, message = verify_log(args.logfile, noted, args.game)
    print(message, file=sys.stdout if code == VERIFY_OK else sys.stderr)
    return code


# --- simulate ------------------------------------------------------------------------------


class SimulationError(RuntimeError):
    """A random game broke the engine: the message names the seed to replay it with."""


@dataclass
class SimulationReport:
    game: str
    games: int = 0
    commands: int = 0
    seconds: float = 0.0
    players: Counter[int] = field(default_factory=Counter)
    stats: Any = None  # the game's own figures (its `simulation()`), when it counts any

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "commands": self.commands,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "commands_per_game": round(self.commands / self.games, 1) if self.games else None,
            "players": dict(sorted(self.players.items())),
            **(self.stats.to_json() if self.stats is not None else {}),
        }


def simulate(
    games: int,
    seed: int,
    players: int | None = None,
    game_name: str = next(iter(GAMES)),
    options: Mapping[str, Any] | None = None,
    checked: bool = True,
) -> SimulationReport:
    """Plays `games` random complete games (game i uses seed `seed + i`, set up with `options`)
    on the engine alone, checking the game's invariants after every command (unless not
    `checked`: what the engine alone costs, for the benchmark)."""
    from companion.game import load_game
    from companion.game.random_play import play_random_game

    game = load_game(game_name)
    stats = game.simulation() if hasattr(game, "simulation") else None
    fewest, most = stats.seats if stats is not None else (game.min_seats, game.max_seats)
    report = SimulationReport(game_name, stats=stats)
    # A game's simulation may offer a `watcher()`, a check told each command's events.
    watching = checked and hasattr(stats, "watcher")
    start = time.perf_counter()
    for number in range(games):
        game_seed = seed + number
        count = players or random.Random(game_seed).randint(fewest, most)
        try:
            played = play_random_game(
                game,
                [f"Player {i + 1}" for i in range(count)],
                game_seed,
                options=dict(options or {}),
                check=stats.checker() if stats is not None and checked and not watching else None,
                watch=stats.watcher() if watching else None,
            )
        except Exception as exc:
            raise SimulationError(
                f"game with seed {game_seed} ({count} players) failed: {exc}"
            ) from exc
        if stats is not None:
            stats.add(played.state, played.commands)
        report.players[count] += 1
        report.commands += len(played.commands)
        report.games += 1
    report.seconds = time.perf_counter() - start
    return report


def print_own_run(args: argparse.Namespace, run: Any) -> int:
    """A game's own run for the options given: `run(games, seed, players)` gives a report with
    `to_json()` and `lines()`; RuntimeError names the seed of a game that broke."""
    try:
        report = run(args.games, args.seed, args.players)
    except RuntimeError as exc:
        print(f"companion simulate: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(report.to_json(), indent=2) if args.json else "\n".join(report.lines()))
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    from companion.game import load_game
    from companion.option_args import OptionError, parse_options

    if args.games < 1:
        print("companion simulate: --games must be at least 1", file=sys.stderr)
        return 2
    game = load_game(args.game)
    try:
        options = parse_options(game, args.option)
    except OptionError as exc:
        print(f"companion simulate: {exc}", file=sys.stderr)
        return 2
    stats = game.simulation() if hasattr(game, "simulation") else None
    # A game may play some options its own way (e.g. a co-op team) and report on that.
    run_for = getattr(stats, "run_for", None)
    own_run = run_for(options) if run_for is not None else None
    fewest = stats.seats[0] if stats is not None and own_run is None else game.min_seats
    if args.players is not None and not fewest <= args.players <= game.max_seats:
        print(
            f"companion simulate: {game.title} takes {fewest} to {game.max_seats} players",
            file=sys.stderr,
        )
        return 2
    try:  # the options together, and with the players, as the game's setup sees them
        game.setup(options, [f"Player {i + 1}" for i in range(args.players or fewest)], args.seed)
    except RuleError as exc:
        print(f"companion simulate: {exc.reason}", file=sys.stderr)
        return 2
    if own_run is not None:
        return print_own_run(args, own_run)
    try:
        simulation = simulate(args.games, args.seed, args.players, args.game, options)
    except SimulationError as exc:
        print(f"companion simulate: {exc}", file=sys.stderr)
        return 1
    report = simulation.to_json()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"{report['games']} games of {game.title} in {report['seconds']} s: "
        f"{report['games_per_second']} games/s "
        f"({report['commands_per_game']} commands a game), invariants checked after every "
        "command"
    )
    print(
        "players:",
        ", ".join(f"{n}: {g} game{'s' if g != 1 else ''}" for n, g in report["players"].items()),
    )
    if simulation.stats is not None:
        print("\n".join(simulation.stats.lines(report)))
    return 0
