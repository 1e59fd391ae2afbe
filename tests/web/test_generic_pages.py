"""A registered game that brings no page parts of its own is playable from the phones: the
seat page offers its legal commands as big buttons labelled in its words."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from webplay import seat_client

from companion.game import GAMES

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 412, "height": 860}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def tiny_registered(monkeypatch):
    """The tiny test game (tests/table/tinygame.py) known as "tiny"."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "table"))
    monkeypatch.setitem(GAMES, "tiny", "tinygame:TinyGame")
    yield
    sys.modules.pop("tinygame", None)


def test_a_game_without_page_parts_is_played_from_the_seat_page(
    tiny_registered, live_server, browser
):
    app = live_server.app
    table = app.extensions["companion"].table
    assert table.new_game("tiny", {"cards": 3}, ["Ana", "Ben"], seed=2).ok
    base = f"http://127.0.0.1:{live_server.port}"
    errors: list[str] = []
    page = browser.new_context(**PHONE).new_page()
    page.on("pageerror", lambda exc: errors.append(f"{exc} {exc.stack}"))
    page.goto(base + app.extensions["companion"].access.join_path(0))
    page.wait_for_selector("#actions button[data-command=draw]")
    labels = [b.text_content() for b in page.query_selector_all("#actions button")]
    assert labels == ["Draw a card", "Roll for points", "Pass"]

    page.click("#actions button[data-command=draw]")
    page.wait_for_selector("#actions button", state="detached")
    assert table.seat_view(0)["hand"], "Ana drew a card"
    assert seat_client(app, 1).get("/api/seat").json["labels"] == [
        "Draw a card",
        "Roll for points",
        "Pass",
    ]
    assert not errors, errors
