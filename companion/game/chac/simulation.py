"""What `companion simulate` checks and counts in Temple of Chac games: the invariants after
every command, then the rounds, fates, escapes and scores of each finished game; and the co-op
team's win rates (`--option mode=coop`, CHAC-COOP-1)."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.game.chac import invariants
from companion.game.chac.state import ChacState
from companion.game.random_play import InvariantWatcher


def _spread(values: list[int]) -> dict[str, float] | None:
    if not values:
        return None
    return {"mean": round(statistics.fmean(values), 2), "min": min(values), "max": max(values)}


@dataclass
class ChacSimulation:
    """Random standard games: 2 to 6 players (CHAC-SET-1)."""

    seats: tuple[int, int] = (2, 6)
    games: int = 0
    rounds: list[int] = field(default_factory=list)
    eliminations: Counter[str] = field(default_factory=Counter)
    escapes: int = 0
    games_with_escape: int = 0
    sealed: int = 0
    winning_scores: list[int] = field(default_factory=list)
    escaped_scores: list[int] = field(default_factory=list)

    def checker(self) -> InvariantWatcher:
        """A fresh check for one game, to run after every command."""
        return InvariantWatcher(invariants)

    @staticmethod
    def run_for(options: Mapping[str, Any]) -> Callable[[int, int, int | None], CoopReport] | None:
        """`companion simulate --option mode=coop [--option level=L]`: co-op games played by a
        simulated team, at that level or at every level, reporting the team's win rates
        (CHAC-COOP-1); None for standard games, which random play covers."""
        if options.get("mode") != "coop":
            return None
        levels = (options["level"],) if "level" in options else (1, 2, 3, 4)
        variants = {k: v for k, v in options.items() if k not in ("mode", "level")}
        return lambda games, seed, players: simulate_coop(games, seed, players, levels, variants)

    def add(self, state: ChacState, commands: list[Any]) -> None:
        """Counts one finished game (the commands that played it are not counted here)."""
        self.games += 1
        self.rounds.append(state.round)
        self.eliminations.update(
            adv.fate for seat in state.seats for adv in seat.advs if adv.status == "eliminated"
        )
        escaped = [adv for seat in state.seats for adv in seat.advs if adv.status == "escaped"]
        self.escapes += len(escaped)
        self.games_with_escape += bool(escaped)
        self.sealed += bool(state.sealed)
        scores = state.result["scores"] if state.result else {}
        self.escaped_scores.extend(scores.values())
        if scores:
            self.winning_scores.append(max(scores.values()))

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": _spread(self.rounds),
            "eliminations": dict(self.eliminations.most_common()),
            "escapes": self.escapes,
            "games_with_an_escape": self.games_with_escape,
            "exit_sealed": self.sealed,
            "games_without_winner": self.games - len(self.winning_scores),
            "winning_score": _spread(self.winning_scores),
            "escaped_score": _spread(self.escaped_scores),
        }

    @staticmethod
    def lines(report: dict[str, Any]) -> list[str]:
        """The report's own figures (`to_json`'s keys) as lines of text."""
        rounds = report["rounds"]
        eliminated = report["eliminations"]
        win = report["winning_score"]
        return [
            f"rounds: mean {rounds['mean']}, min {rounds['min']}, max {rounds['max']}",
            f"eliminations: {sum(eliminated.values())}"
            + (
                " (" + ", ".join(f"{c} {n}" for c, n in eliminated.items()) + ")"
                if eliminated
                else ""
            ),
            f"escapes: {report['escapes']} adventurers; {report['games_with_an_escape']} games "
            f"with an escape; exit sealed in {report['exit_sealed']} games",
            f"winners: none in {report['games_without_winner']} games"
            + (
                f"; winning score mean {win['mean']}, min {win['min']}, max {win['max']}"
                if win
                else ""
            ),
        ]


@dataclass
class CoopReport:
    """Co-op games won, by level then by player count (CHAC-COOP-1)."""

    games: int = 0
    seconds: float = 0.0
    won: dict[int, Counter[int]] = field(default_factory=dict)
    played: dict[int, Counter[int]] = field(default_factory=dict)
    escaped_totals: dict[int, list[int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "levels": {
                str(level): {
                    str(n): {
                        "games": played[n],
                        "won": self.won[level][n],
                        "win_rate": round(self.won[level][n] / played[n], 3),
                    }
                    for n in sorted(played)
                }
                for level, played in sorted(self.played.items())
            },
            "escaped_total_mean": {
                str(level): round(statistics.fmean(v), 2)
                for level, v in sorted(self.escaped_totals.items())
            },
        }

    def lines(self) -> list[str]:
        """The win rate by level and player count, as `companion simulate` prints it."""
        report = self.to_json()
        counts = sorted({int(n) for by in report["levels"].values() for n in by})
        per_level = self.games // max(len(self.played), 1)
        lines = [
            f"co-op: {per_level} games a level in {report['seconds']} s, played by a simulated "
            "team; invariants checked after every command",
            "win rate (games) | " + " | ".join(f"{n} player{'s' if n > 1 else ''}" for n in counts),
        ]
        for level, by in report["levels"].items():
            cells = [
                f"{100 * by[str(n)]['win_rate']:.1f}% ({by[str(n)]['games']})"
                if str(n) in by
                else "-"
                for n in counts
            ]
            lines.append(f"level {level} | " + " | ".join(cells))
        return lines


def simulate_coop(
    games: int,
    seed: int,
    players: int | None = None,
    levels: tuple[int, ...] = (1, 2, 3, 4),
    variants: Mapping[str, Any] | None = None,
) -> CoopReport:
    """At each level, `games` co-op games (game i: seed `seed + i`, the same deals at every
    level) played by the simulated team of `team_play`, invariants checked throughout.
    Raises RuntimeError naming the seed of a game that broke."""
    from companion.game.chac.team_play import TeamPlay
    from companion.game.random_play import play_random_game

    game = TeamPlay()
    report = CoopReport()
    start = time.perf_counter()
    for level in levels:
        won, played = Counter[int](), Counter[int]()
        totals: list[int] = []
        for number in range(games):
            game_seed = seed + number
            count = players or random.Random(game_seed).randint(1, 6)
            try:
                state = play_random_game(
                    game,
                    [f"Player {i + 1}" for i in range(count)],
                    game_seed,
                    options={**(variants or {}), "mode": "coop", "level": level},
                    check=InvariantWatcher(invariants),
                ).state
            except Exception as exc:
                raise RuntimeError(
                    f"co-op game with seed {game_seed} ({count} players, level {level}) "
                    f"failed: {exc}"
                ) from exc
            team = state.result["coop"]
            played[count] += 1
            won[count] += team["won"]
            totals.append(team["total"])
            report.games += 1
        report.won[level], report.played[level] = won, played
        report.escaped_totals[level] = totals
    report.seconds = time.perf_counter() - start
    return report
