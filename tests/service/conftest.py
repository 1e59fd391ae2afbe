"""A running companion in this process: the real Service (simulated hardware) with waitress on
a free loopback port, stopped the way SIGTERM stops it."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion import config
from companion.service import Service
from web.app import Limits

SEATS = ["Ana", "Ben", "Caro", "Dan", "Eve", "Fay"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition: Callable[[], Any], timeout: float = 15.0, step: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return None


class Running:
    def __init__(self, service: Service):
        self.service = service
        self.base = f"http://127.0.0.1:{service.web.port}"
        self.thread = threading.Thread(target=self._run, name="service-main")
        self.exit_code: int | None = None

    def _run(self) -> None:
        self.exit_code = self.service.run()

    @property
    def pin(self) -> str:
        return self.service.access.pin


@pytest.fixture
def start_service(tmp_path) -> Iterator[Callable[..., Running]]:
    started: list[Running] = []

    def start(sim_seed: int = 7, **overrides: Any) -> Running:
        settings = {
            "hardware": "sim",
            "data_dir": str(tmp_path / "data"),
            "web.host": "127.0.0.1",
            "web.port": free_port(),
            "camera.fps": 15.0,
            **overrides,
        }
        cfg = config.load(overrides=settings)
        service = Service(
            cfg,
            simulate=True,
            limits=Limits(reads=(500, 500), writes=(200, 200)),
            sim_seed=sim_seed,
        )
        running = Running(service)
        running.thread.start()
        started.append(running)
        return running

    yield start
    for running in started:
        running.service.stop()
        running.thread.join(15)
        assert not running.thread.is_alive(), "the service did not stop"


def to_first_roll(table) -> None:
    """A new six-seat game, taken to its first "roll 5 dice" prompt with legal commands."""
    assert table.new_game("chac", {}, SEATS, seed=1).ok
    while not any(p.kind == "roll" for p in table.prompts()):
        command = next(c for seat in [None, *range(len(SEATS))] for c in table.legal(seat))
        assert table.submit(command).ok
