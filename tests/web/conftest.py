"""Fixtures for the pages: a real Table on SQLite, the Flask app, a real waitress server on a
free loopback port, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from webplay import host_client

from companion.table import Table
from web.app import Limits, create_app
from web.server import WebServer


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def table(data_dir: Path) -> Iterator[Table]:
    data_dir.mkdir(parents=True, exist_ok=True)
    with Table.open(data_dir / "events.sqlite") as t:
        yield t


@pytest.fixture
def app(table: Table, data_dir: Path):
    # Tests replay recorded games: the host may seed them (a real companion never lets it).
    app = create_app(table, data_dir, public_port=8080, fixed_seeds=True)
    yield app
    app.extensions["companion"].broadcaster.close()


@pytest.fixture
def web(app):
    return app.extensions["companion"]


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def host(app):
    return host_client(app)


@pytest.fixture
def live_server(table: Table, data_dir: Path) -> Iterator[WebServer]:
    """The app on a real waitress server at 127.0.0.1 on a free port."""
    # Browsers poll and reconnect a lot in a short test; the limits are tested on their own.
    app = create_app(
        table, data_dir, limits=Limits(reads=(500, 500), writes=(100, 100)), fixed_seeds=True
    )
    server = WebServer(app, "127.0.0.1", 0, threads=24)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield server
    server.stop(wait=True)
    thread.join(10)
    assert not thread.is_alive(), "the server did not stop"
