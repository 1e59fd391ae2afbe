"""A running companion in this process: the real Service (simulated hardware) with waitress on
a free loopback port, stopped the way SIGTERM stops it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from servicekit import free_port

from companion import config
from companion.runtime.service import Service
from web.app import Limits


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
            fixed_seeds=True,  # the tests replay recorded games
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
