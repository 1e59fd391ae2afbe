"""Nothing acknowledged is lost: a process applying commands is killed with SIGKILL at random
moments, and each restart must find every acknowledged change in the log and replay to the
state the commands themselves produce."""

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tinygame import TinyGame

from companion.game.protocol import Command
from companion.store import Store
from companion.table import Table

CHILD = Path(__file__).with_name("sigkill_child.py")
ROOT = Path(__file__).resolve().parents[2]


def run_and_kill(db: Path, seed: int, after: int, delay: float) -> list[str]:
    """Starts the child, and kills it `delay` seconds after its `after`-th acknowledgement."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(CHILD.parent)])}
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []
    enough = threading.Event()

    def drain() -> None:
        for line in child.stdout:
            if line.endswith("\n"):  # a line cut short by the kill was never complete
                lines.append(line.rstrip("\n"))
                if len(lines) >= after:
                    enough.set()

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        assert enough.wait(60), f"no acknowledgement from the child: {child.stderr.read()}"
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
        reader.join()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL
    return lines


def replay_from_commands(store: Store) -> tuple[dict, list[dict]]:
    """Views reached by re-applying the logged commands, ignoring the logged events."""
    record = store.current_game()
    game = TinyGame()
    state = game.setup(record.options, record.seats, record.seed)
    for entry in store.active_commands(record.id):
        for event in game.apply(state, Command.from_json(entry.command)):
            state = game.fold(state, event)
    seats = range(len(record.seats))
    return game.public_view(state), [game.seat_view(state, s) for s in seats]


def test_acknowledged_commands_survive_sigkill(tmp_path):
    db = tmp_path / "log.db"
    rng = random.Random(2024)
    for round_no in range(6):
        acks = run_and_kill(db, seed=round_no, after=rng.randint(1, 80), delay=rng.uniform(0, 0.05))

        store = Store(db, readonly=True)
        entries = {e.id: e for e in store.history(store.current_game().id)}
        for ack in acks:
            kind, version, *rest = ack.split(" ", 2)
            entry = entries.get(int(version))
            assert entry is not None, f"acknowledged {ack!r} is not in the log"
            assert entry.kind == kind
            if kind == "command":
                assert Command.from_json(entry.command) == Command.from_json(json.loads(rest[0]))
        expected = replay_from_commands(store)
        store.close()

        with Table.open(db) as table:
            seats = range(len(table.seats))
            assert (table.public_view(), [table.seat_view(s) for s in seats]) == expected
            if acks:
                assert table.version >= int(acks[-1].split(" ")[1])
