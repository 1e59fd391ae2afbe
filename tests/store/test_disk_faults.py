"""One companion per data directory, and disks that fail: a read-only disk is named at start
and for every refused command while the table stays on view; a full disk is named for every
refused command and nothing half-written remains."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from logkit import SEATS, free_port, play_into

from companion import config
from companion.game.protocol import Command
from companion.runtime.service import Service
from companion.store import Store
from companion.table import Table
from web.access import HOST_COOKIE, Access
from web.app import Limits

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def run_service():
    """Runs the real Service (simulated hardware) on a data directory, on its own thread."""
    running: list[tuple[Service, threading.Thread]] = []

    def start(data_dir: Path) -> Service:
        settings = {
            "hardware": "sim",
            "data_dir": str(data_dir),
            "web.host": "127.0.0.1",
            "web.port": free_port(),
        }
        service = Service(
            config.load(overrides=settings), simulate=True, limits=Limits(), sim_seed=1
        )
        thread = threading.Thread(target=service.run)
        thread.start()
        running.append((service, thread))
        return service

    yield start
    for service, thread in running:
        service.stop()
        thread.join(15)
        assert not thread.is_alive()


def request(service: Service, method: str, path: str, body=None, cookie: str | None = None):
    url = f"http://127.0.0.1:{service.web.port}{path}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", f"{HOST_COOKIE}={cookie}")
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_a_second_companion_on_the_same_data_directory_refuses_to_start(tmp_path, run_service):
    data = tmp_path / "data"
    first = run_service(data)
    play_into(first.table, 5)
    version = first.table.version
    run = ["run", "--simulate", "--host", "127.0.0.1", "--port", str(free_port())]
    second = subprocess.run(
        [sys.executable, "-m", "companion.cli", *run, "--data-dir", str(data)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert second.returncode == 1
    errors = [line for line in second.stderr.splitlines() if "ERROR" in line]
    assert len(errors) == 1, second.stderr
    assert str(data) in errors[0] and f"PID {os.getpid()}" in errors[0]
    assert first.table.version == version  # nothing was added to the first one's log

    scenario = ROOT / "examples" / "first-round.json"
    replay = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "replay",
            str(scenario),
            "--db",
            str(data / "events.sqlite"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert replay.returncode == 2 and f"PID {os.getpid()}" in replay.stderr
    store = Store(data / "events.sqlite", readonly=True)
    assert store.current_game().seats == SEATS  # the scenario's game was not added
    store.close()


def test_a_read_only_disk_is_named_at_start_and_per_command_and_the_table_stays_on_view(
    disk, run_service, caplog
):
    data = disk.path / "data"
    data.mkdir()
    with Table.open(data / "events.sqlite") as table:
        play_into(table, 8)
        version, view = table.version, table.public_view()
    session = Access.load(data).open_host_session()  # a host phone signed in earlier
    disk.read_only()

    with caplog.at_level(logging.WARNING):
        service = run_service(data)
    assert "read-only" in caplog.text
    assert "disk: read-only" in service.problems()
    status, body = request(service, "GET", "/api/table")
    assert status == 200 and body["version"] == version
    assert service.table.public_view() == view
    status, body = request(
        service, "POST", "/api/host/command", {"type": "pass", "seat": None}, cookie=session
    )
    assert status == 409 and "read-only" in body["error"], body
    status, body = request(service, "POST", "/api/host/undo", {}, cookie=session)
    assert status == 409 and "read-only" in body["error"], body
    assert service.table.version == version


def test_a_full_disk_is_named_per_command_and_the_log_stays_whole(disk):
    path = disk.path / "events.sqlite"
    with Table.open(path) as table:
        play_into(table, 4)
        disk.fill()
        version, view = table.version, table.public_view()
        refused = None
        for seat in [None, 0, 1, 2]:  # whichever may act: each write needs room
            outcome = table.undo() if seat is None else table.submit(Command("pass", seat))
            if not outcome.ok and "full" in outcome.reason:
                refused = outcome
                break
        assert refused is not None and "Nothing changed" in refused.reason
        assert (table.version, table.public_view()) == (version, view)
        disk.free()
        assert table.undo().ok
        version = table.version
    with Table.open(path) as again:
        assert again.version == version
