"""What the service tests share: a free port, waiting for a condition, a game taken to its
first roll."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from typing import Any

from companion.game.chac import ChacGame

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


def to_first_roll(table) -> None:
    """A new six-seat game, taken to its first "roll 5 dice" prompt with legal commands."""
    assert table.new_game("chac", {}, SEATS, seed=1).ok
    while not any(p.kind == "roll" for p in table.prompts()):
        command = next(
            c
            for seat in [None, *range(len(SEATS))]
            for c in table.legal(seat)
            if c.type not in ChacGame.corrections  # host-only: corrections and end_game
        )
        assert table.submit(command).ok


def signed_in_host(browser, running, device):
    """A new page of the host view, signed in with the running service's PIN, and the
    page errors it raises."""
    page = browser.new_context(**device).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{running.base}/host")
    page.fill("#pin", running.pin)
    page.click("#login-form button")
    page.wait_for_selector("#host:not([hidden])")
    return page, errors
