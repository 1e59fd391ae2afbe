"""The real `companion run --simulate` as its own process: systemd's notify protocol, a clean
stop on SIGTERM, and a SIGKILL in the middle of a game that loses nothing acknowledged."""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from servicekit import SEATS, free_port, wait_for
from tablehttp import HttpTable, Phone

from companion.store import Store
from companion.table import Table
from web.access import host_pin

pytestmark = pytest.mark.slow


class Companion:
    """`companion run --simulate` in a child process, its output collected line by line."""

    def __init__(self, data_dir: Path, port: int, env: dict[str, str] | None = None):
        self.port = port
        self.data_dir = data_dir
        self.base = f"http://127.0.0.1:{port}"
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion.cli",
                "run",
                "--simulate",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--data-dir",
                str(data_dir),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, **(env or {})},
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def ready(self, timeout: float = 60) -> str:
        """Waits until the pages answer; returns the host PIN, as the OLED shows it."""
        assert wait_for(lambda: "Table page:" in self.output, timeout=timeout), self.output
        assert wait_for(
            lambda: Phone(self.base).get("/api/table")[0] == 200 if self.alive() else None,
            timeout=timeout,
        ), self.output
        return host_pin(self.data_dir)

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> int:
        self.process.send_signal(sig)
        code = self.process.wait(timeout)
        self._reader.join(5)
        return code


@pytest.fixture
def companions():
    started: list[Companion] = []

    def start(*args, **kwargs) -> Companion:
        companion = Companion(*args, **kwargs)
        started.append(companion)
        return companion

    yield start
    for companion in started:
        if companion.alive():
            companion.process.kill()
            companion.process.wait(10)


def test_sigkill_mid_game_loses_nothing_acknowledged(companions, tmp_path):
    data, port = tmp_path / "data", free_port()
    data.mkdir()
    with Table.open(data / "events.sqlite") as seeded:  # the shadow below follows seed 11
        assert seeded.new_game("chac", {}, SEATS, seed=11).ok
    first = companions(data, port)
    table = HttpTable(first.base, first.ready(), SEATS, seed=11, started=True)
    acknowledged: list[int] = []
    in_flight: list = []
    stop = threading.Event()

    def play() -> None:
        while not stop.is_set() and not table.over:
            command = table.choose()
            in_flight[:] = [command]
            try:
                status, body = table.send(command)
            except OSError:
                return  # the companion died under us
            assert status == 200, body
            acknowledged.append(body["version"])
            in_flight.clear()

    player = threading.Thread(target=play)
    player.start()
    assert wait_for(lambda: len(acknowledged) >= 40, timeout=60), first.output
    first.process.send_signal(signal.SIGKILL)  # mid-game, with a command probably in flight
    player.join(30)
    stop.set()
    assert first.process.wait(10) == -signal.SIGKILL
    last_acknowledged = acknowledged[-1]

    second = companions(data, port)
    second.ready()
    status, body = Phone(second.base).get("/api/table")
    assert status == 200
    # Every acknowledged command is in the log and in effect; at most the one in flight
    # when the process died also made it to disk (then it is the next entry).
    assert body["version"] >= last_acknowledged
    if body["version"] > last_acknowledged:
        assert in_flight, "the log has a command nobody sent"
        table.applied(in_flight[0], body["version"])
    store = Store(data / "events.sqlite", readonly=True)
    try:
        in_effect = {e.id for e in store.active_commands(store.current_game().id)}
    finally:
        store.close()
    assert set(acknowledged) <= in_effect
    assert body["view"] == table.public_view()

    # The same game carries on, and the phones' seat links still work.
    for _ in range(10):
        status, reply = table.send(table.choose())
        assert status == 200, reply
    assert second.stop() == 0


def test_sigterm_stops_cleanly_with_an_event_stream_open(companions, tmp_path):
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(30)
    env = {
        "NOTIFY_SOCKET": str(tmp_path / "notify"),
        "WATCHDOG_USEC": "2000000",  # WatchdogSec=2: a ping every second
    }
    companion = companions(tmp_path / "data", free_port(), env=env)
    companion.ready()
    messages = []
    while not any("READY=1" in m for m in messages):
        messages.append(notify.recv(4096).decode())
    pings = 0
    while pings < 2:
        pings += notify.recv(4096).decode() == "WATCHDOG=1"

    stream = socket.create_connection(("127.0.0.1", companion.port), timeout=10)
    stream.sendall(b"GET /api/table/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head = b""
    while b"event: view" not in head:
        chunk = stream.recv(65536)
        assert chunk, head
        head += chunk
    started = time.monotonic()
    code = companion.stop(signal.SIGTERM)
    took = time.monotonic() - started
    assert code == 0, companion.output
    assert took < 10
    rest = b""
    while chunk := stream.recv(65536):
        rest += chunk
    assert b"event: bye" in rest  # the stream was ended, not cut
    messages = []
    notify.settimeout(0.5)
    try:
        while True:
            messages.append(notify.recv(4096).decode())
    except TimeoutError:
        pass
    assert "STOPPING=1" in messages
    assert "Stopped" in companion.output
    notify.close()


def logged(data: Path) -> dict[int, str]:
    """Every entry in the log, of every game: id -> kind."""
    store = Store(data / "events.sqlite", readonly=True)
    try:
        return {e.id: e.kind for g in store.games() for e in store.history(g.id)}
    finally:
        store.close()


def test_sigkill_during_undos_new_games_and_start_up_loses_nothing_acknowledged(
    companions, tmp_path
):
    import copy
    import random

    data, port = tmp_path / "data", free_port()
    rng = random.Random(5)
    acknowledged: list[tuple[int, str]] = []

    def taken(post):
        """`post()`'s answer, asked again while the companion's rate limit says wait (429)."""
        while (answer := post())[0] == 429:
            time.sleep(0.25)
        return answer

    def undos(table: HttpTable, stop: threading.Event) -> None:
        while not stop.is_set():
            before = copy.deepcopy(table.state)
            command = table.choose()
            status, body = taken(lambda c=command: table.send(c))
            assert status == 200, body
            acknowledged.append((body["version"], "command"))
            status, body = taken(lambda: table.host.post("/api/host/undo"))
            assert status == 200, body
            acknowledged.append((body["version"], "undo"))
            table.state = before

    def new_games(table: HttpTable, stop: threading.Event) -> None:
        while not stop.is_set():
            status, body = taken(lambda: table.host.post("/api/host/new-game", {"seats": SEATS}))
            assert status == 200, body
            acknowledged.append((body["version"], "setup"))

    data.mkdir()
    for aim in (undos, new_games):
        seed = rng.randrange(1000)
        with Table.open(data / "events.sqlite") as seeded:  # the shadow follows this seed
            assert seeded.new_game("chac", {}, SEATS, seed=seed).ok
        companion = companions(data, port)
        table = HttpTable(companion.base, companion.ready(), SEATS, seed=seed, started=True)
        acknowledged.append((table.version, "setup"))
        stop, count = threading.Event(), len(acknowledged)
        player = threading.Thread(target=_until_killed, args=(aim, table, stop))
        player.start()
        enough = count + 10
        assert wait_for(lambda n=enough: len(acknowledged) >= n, timeout=60), companion.output
        time.sleep(rng.uniform(0, 0.05))
        companion.process.send_signal(signal.SIGKILL)  # in the middle of an undo or a setup
        player.join(30)
        stop.set()
        assert companion.process.wait(10) == -signal.SIGKILL
        in_log = logged(data)
        assert all(in_log.get(version) == kind for version, kind in acknowledged)

    for _ in range(3):  # killed while starting: reading the log, opening it, serving
        companion = companions(data, port)
        time.sleep(rng.uniform(0.2, 2.5))
        companion.process.send_signal(signal.SIGKILL)
        companion.process.wait(10)
    companion = companions(data, port)
    companion.ready()
    status, body = Phone(companion.base).get("/api/table")
    assert status == 200 and body["version"] == max(logged(data))
    in_log = logged(data)
    assert all(in_log.get(version) == kind for version, kind in acknowledged)
    assert companion.stop() == 0


def _until_killed(aim, table, stop) -> None:
    with contextlib.suppress(OSError, http.client.HTTPException):  # the companion died
        aim(table, stop)
