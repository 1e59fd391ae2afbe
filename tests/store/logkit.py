"""A Temple of Chac game played into a data directory's log, for the log's fault tests."""

from __future__ import annotations

import json
import random
import socket
from pathlib import Path

from companion.game import load_game
from companion.game.random_play import random_command
from companion.table import Table

SEATS = ["Ana", "Ben", "Caro"]


def play_into(table: Table, commands: int, seed: int = 3) -> list[int]:
    """A new game, then `commands` random legal commands (values filled as players would,
    chosen on a shadow of the game); returns the acknowledged versions."""
    assert table.new_game("chac", {}, SEATS, seed=seed).ok
    game = load_game("chac")
    state = game.setup({}, SEATS, seed)
    rng = random.Random(seed)
    versions = []
    while len(versions) < commands and not game.is_over(state):
        command = random_command(game, state, rng, len(SEATS))
        outcome = table.submit(command)
        assert outcome.ok, outcome.reason
        for event in game.apply(state, command):
            state = game.fold(state, json.loads(json.dumps(event)))
        versions.append(outcome.version)
    return versions


def log_files(data_dir: Path) -> dict[str, bytes]:
    """Every file of the log (the log, its write-ahead file, its note), as bytes."""
    return {
        p.name: p.read_bytes()
        for p in sorted(data_dir.iterdir())
        if p.name.startswith("events.sqlite") and p.is_file()
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
