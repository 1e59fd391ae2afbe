"""Power cuts: the companion killed with SIGKILL again and again under a scripted game.

    taskset -c 1 .venv/bin/python bench/powercut.py [--cycles 300] [--minutes 40] [--seed 1]

Each cycle starts the companion in a child process as `companion run` assembles it (Service:
the event log, waitress on a loopback port; no camera, dice are typed in by the host, and the
web rate limits raised because one machine plays every phone), waits until its pages answer,
then checks what the restart found: every change the companion acknowledged so far (commands,
undos, new games) must be in its log with the same content, the served table must equal the
game replayed from the log by a separate engine, and the served version must be the log's
last entry. Then the host and one phone per seat play on through the HTTP API (a shadow engine
with the game's seed picks random legal commands), and the child is killed with SIGKILL at a
random moment. The kills are aimed in turn at:

  command   the middle of play
  undo      a run of commands each followed by an undo
  new game  new games started one after another, a few commands apart
  start-up  the start itself, before the pages answer (at a random point of a start)

Reported: cycles, acknowledged changes checked, lost acknowledged changes (must be 0), corrupt
restarts (the companion refused its log, exit 65: must be 0), failed restarts (it did not come
up for another reason: must be 0), and the time from starting the process to the pages
answering (p50, p99, max). Loopback only; bounded by --cycles and --minutes. Exits 1 when
anything was lost, corrupt or failed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "service"))

SEATS = ["Ana", "Ben", "Caro"]
TARGETS = ("command", "undo", "new game", "start-up")
READY_TIMEOUT_S = 60.0


def serve(data_dir: str, port: int) -> None:
    """Child: the companion's Service, exiting with `companion run`'s codes."""
    import logging

    from companion import config
    from companion.data_lock import DataDirBusy
    from companion.log_check import EXIT_LOG_NEEDS_OWNER
    from companion.runtime.service import Service
    from companion.store import StoreError
    from web.app import Limits

    logging.basicConfig(level=logging.WARNING)
    cfg = config.load(
        overrides={
            "hardware": "sim",
            "data_dir": data_dir,
            "web.host": "127.0.0.1",
            "web.port": port,
            "camera.kind": "none",
        }
    )
    try:
        service = Service(cfg, simulate=True, limits=Limits(reads=(1e6, 1e6), writes=(1e6, 1e6)))
    except StoreError as exc:
        print(f"log refused: {exc}", file=sys.stderr, flush=True)
        sys.exit(EXIT_LOG_NEEDS_OWNER)
    except DataDirBusy as exc:
        print(f"busy: {exc}", file=sys.stderr, flush=True)
        sys.exit(1)
    print(f"PIN {service.access.pin}", flush=True)
    sys.exit(service.run())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Child:
    def __init__(self, data_dir: Path, port: int):
        self.base = f"http://127.0.0.1:{port}"
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(data_dir), str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.pin: str | None = None
        self.errors = ""
        threading.Thread(target=self._read_pin, daemon=True).start()

    def _read_pin(self) -> None:
        for line in self.process.stdout:
            if line.startswith("PIN "):
                self.pin = line.split()[1]

    def wait_ready(self) -> float | None:
        """Seconds from the start to the pages answering; None when the child exited."""
        from tablehttp import Phone

        phone = Phone(self.base, timeout=2)
        deadline = self.started + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.errors = self.process.stderr.read()
                return None
            try:
                if self.pin and phone.get("/api/table")[0] == 200:
                    return time.monotonic() - self.started
            except OSError:
                pass
            time.sleep(0.01)
        self.kill()
        return None

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self.process.stdout.close()
        self.process.stderr.close()


class Ledger:
    """Every change the companion acknowledged: (kind, version, command JSON or None)."""

    def __init__(self) -> None:
        self.acks: list[tuple[str, int, dict | None]] = []
        self.lock = threading.Lock()

    def add(self, kind: str, version: int, command: dict | None = None) -> None:
        with self.lock:
            self.acks.append((kind, version, command))

    def lost(self, log: Path) -> list[str]:
        """The acknowledged changes the log does not hold as they were acknowledged."""
        from companion.game.protocol import Command
        from companion.store import Store

        store = Store(log, readonly=True)
        try:
            entries = {e.id: e for g in store.games() for e in store.history(g.id)}
        finally:
            store.close()
        missing = []
        for kind, version, command in self.acks:
            entry = entries.get(version)
            if entry is None or entry.kind != kind:
                missing.append(f"{kind} {version}")
            elif command is not None and Command.from_json(entry.command) != Command.from_json(
                command
            ):
                missing.append(f"{kind} {version} (another command)")
        return missing


def replayed_from_log(log: Path):
    """The current game rebuilt from the log by a separate engine: (game, state, record)."""
    from companion.game import load_game
    from companion.store import Store

    store = Store(log, readonly=True)
    try:
        record = store.current_game()
        if record is None:
            return None
        game = load_game(record.name)
        state = game.setup(record.options, record.seats, record.seed)
        for entry in store.active_commands(record.id):
            for event in entry.events:
                state = game.fold(state, event)
        return game, state, record
    finally:
        store.close()


class Player:
    """The host and one phone per seat over HTTP, playing on the shadow's choices."""

    def __init__(self, base: str, pin: str, ledger: Ledger, rng: random.Random):
        from tablehttp import host

        self.base, self.ledger, self.rng = base, ledger, rng
        self.host = host(base, pin)
        self.phones: list = []
        self.shadow = None  # (game, state)
        self.stop = threading.Event()
        self.refused: str | None = None  # a change the companion refused: the shadow drifted

    def join(self, log: Path) -> None:
        from tablehttp import seat

        rebuilt = replayed_from_log(log) if log else None
        if rebuilt is not None:
            self.shadow = [rebuilt[0], rebuilt[1]]
        self.phones = [seat(self.base, j["url"]) for j in self.host.get("/api/host")[1]["joins"]]

    def new_game(self) -> None:
        from companion.game import load_game

        seed = self.rng.randrange(2**31)
        status, body = self.host.post("/api/host/new-game", {"seats": SEATS, "seed": seed})
        if status != 200:
            raise RuntimeError(f"new game refused: {body}")
        self.ledger.add("setup", body["version"])
        game = load_game("chac")
        self.shadow = [game, game.setup({}, SEATS, seed)]
        if not self.phones:  # the first game: the seats' links appear with it
            self.join(log=None)

    def command(self) -> None:
        from companion.game.random_play import random_command

        game, state = self.shadow
        command = random_command(game, state, self.rng, len(SEATS))
        phone = self.host if command.seat is None else self.phones[command.seat]
        path = "/api/host/command" if command.seat is None else "/api/seat/command"
        status, body = phone.post(path, command.to_json())
        if status != 200:
            raise RuntimeError(f"{command} refused: {body}")
        self.ledger.add("command", body["version"], command.to_json())
        for event in game.apply(state, command):
            state = game.fold(state, json.loads(json.dumps(event)))
        self.shadow[1] = state

    def undo(self) -> None:
        status, body = self.host.post("/api/host/undo")
        if status != 200:
            raise RuntimeError(f"undo refused: {body}")
        self.ledger.add("undo", body["version"])
        self.shadow = None  # rebuilt from the log before the next command

    def play(self, target: str, log: Path) -> None:
        """Plays until stopped or the connection dies (the kill)."""
        try:
            while not self.stop.is_set():
                if self.shadow is None:
                    self.join(log)
                    if self.shadow is None:
                        self.new_game()
                        continue
                game, state = self.shadow
                if game.is_over(state) or (target == "new game" and self.rng.random() < 0.3):
                    self.new_game()
                elif target == "undo" and self.rng.random() < 0.5:
                    self.command()
                    self.undo()
                else:
                    self.command()
        except (OSError, http.client.HTTPException):
            return  # killed under us
        except RuntimeError as exc:
            self.refused = str(exc)


def check_restart(child: Child, ledger: Ledger, log: Path) -> tuple[list[str], str | None]:
    """(lost acknowledged changes, a mismatch between the served table and the log)."""
    from tablehttp import Phone

    from companion.store import Store

    lost = ledger.lost(log)
    status, body = Phone(child.base).get("/api/table")
    rebuilt = replayed_from_log(log)
    store = Store(log, readonly=True)
    try:
        last = store.last_version()
    finally:
        store.close()
    if status != 200:
        return lost, f"the table answered {status}"
    if body["version"] != last:
        return lost, f"served version {body['version']}, log ends at {last}"
    if rebuilt is not None:
        game, state, _ = rebuilt
        if body["view"] != json.loads(json.dumps(game.public_view(state))):
            return lost, "the served table differs from the log's replay"
    return lost, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=300, help="kills (default 300)")
    parser.add_argument("--minutes", type=float, default=40, help="stop after (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", nargs=2, metavar=("DATA_DIR", "PORT"), help="internal")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return 0

    rng = random.Random(args.seed)
    ledger = Ledger()
    deadline = time.monotonic() + args.minutes * 60
    starts: list[float] = []
    corrupt, failed, mismatches, lost = [], [], [], []
    cycles = 0
    child = None
    try:
        with tempfile.TemporaryDirectory(prefix="powercut-") as tmp:
            data = Path(tmp) / "data"
            log = data / "events.sqlite"
            # Each cycle kills the companion; the final start checks what the last kill left.
            while True:
                final = cycles >= args.cycles or time.monotonic() >= deadline
                target = "final" if final else TARGETS[cycles % len(TARGETS)]
                child = Child(data, free_port())
                if target == "start-up":
                    time.sleep(rng.uniform(0, statistics.median(starts) if starts else 1.0))
                    child.kill()
                else:
                    took = child.wait_ready()
                    if took is None:
                        code = child.process.returncode
                        (corrupt if code == 65 else failed).append(
                            f"{target} start after {cycles} kills: exit {code}: "
                            + child.errors.strip()[-500:]
                        )
                        break  # the data directory needs its owner now
                    starts.append(took)
                    missing, mismatch = check_restart(child, ledger, log)
                    lost += missing
                    if mismatch:
                        mismatches.append(f"after {cycles} kills: {mismatch}")
                    if final:
                        child.kill()
                        break
                    player = Player(child.base, child.pin, ledger, rng)
                    thread = threading.Thread(target=player.play, args=(target, log), daemon=True)
                    thread.start()
                    time.sleep(rng.uniform(0.05, 1.0))
                    child.kill()
                    player.stop.set()
                    thread.join(30)
                    if player.refused:
                        mismatches.append(f"cycle {cycles}: {player.refused}")
                cycles += 1
                if cycles % 25 == 0:
                    print(f"  {cycles} kills, {len(ledger.acks)} acknowledged", flush=True)
    finally:
        if child is not None and child.process.poll() is None:
            child.kill()  # interrupted: leave no companion behind

    quantiles = (
        statistics.quantiles(starts, n=100, method="inclusive") if len(starts) > 1 else [0.0] * 99
    )
    print(f"kill -9 cycles: {cycles} ({', '.join(TARGETS)} in turn)")
    print(f"acknowledged changes checked after every restart: {len(ledger.acks)}")
    print(f"lost acknowledged changes: {len(lost)}")
    print(f"corrupt restarts (log refused): {len(corrupt)}")
    print(f"failed restarts: {len(failed)}")
    print(f"served table differing from the log's replay: {len(mismatches)}")
    print(
        f"restart to pages answering: p50 {quantiles[49]:.2f} s, p99 {quantiles[98]:.2f} s, "
        f"max {max(starts, default=0):.2f} s ({len(starts)} starts)"
    )
    for line in (lost + corrupt + failed + mismatches)[:20]:
        print("  ", line)
    return 1 if lost or corrupt or failed or mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
