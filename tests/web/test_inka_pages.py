"""Inka, a game that ships no page parts, on the generic pages in Chromium: the host sets up a
3-player game on the host page, the players play the setup and two turns from their phones
(390x844), and the table page shows whose turn, the prompts, the log, the players and the
public view's plain facts as they change (INKA-SET-1, INKA-TURN-1)."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest
from webplay import ARTIFACTS

from companion.game import load_game

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
NAMES = ["Ana", "Ben", "Caro"]


def wait_until(page, expression: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(25)


def watch(page, errors: list[str]):
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    return page


def test_three_players_set_up_and_play_two_turns_of_inka_from_their_phones(live_server, browser):
    app = live_server.app
    table = app.extensions["companion"].table
    inka = load_game("inka")
    base = f"http://127.0.0.1:{live_server.port}"
    errors: list[str] = []
    host = watch(browser.new_context(**DESKTOP).new_page(), errors)
    host.on("dialog", lambda dialog: dialog.accept())
    host.goto(f"{base}/host")
    host.fill("#pin", app.extensions["companion"].access.pin)
    host.click("#login-form button")
    host.wait_for_selector("#setup-options select")
    host.select_option("#setup-game", "inka")
    host.wait_for_selector("#setup-options [name=strict_phases]")
    for i, name in enumerate(NAMES):
        host.locator("#setup-seats input").nth(i).fill(name)
    host.click("#setup-form button[type=submit]")
    host.wait_for_selector("#seats figure >> nth=2")
    assert table.game_name == "inka"
    assert host.locator("#dice-card").is_hidden()  # Inka needs no dice
    joins = [host.get_attribute(f"a[data-join='{i}']", "href") for i in range(3)]

    board = watch(browser.new_context(**DESKTOP).new_page(), errors)
    board.goto(f"{base}/")
    board.wait_for_selector("#plain-facts .fact")
    assert board.locator("#map").count() == 0  # no board drawing of another game
    assert "tiles left" in board.inner_text("#plain-facts")
    assert [board.inner_text(f"#players [data-seat='{i}'] b") for i in range(3)] == NAMES
    assert "A new game of Inka" in board.inner_text("#log")

    phones = []
    for join in joins:
        phone = watch(browser.new_context(**PHONE).new_page(), errors)
        phone.goto(base + urlsplit(join).path)
        phone.wait_for_selector("#status[data-state=live]")
        phones.append(phone)

    def play(page, selector: str, command: str) -> None:
        """Tap the first button for `command`; it is labelled as the game describes it."""
        version = table.version
        wait_until(page, f"document.body.dataset.version === '{version}'")  # the page caught up
        button = page.locator(f"{selector} button[data-command={command}]").first
        button.wait_for()
        seat = None if page is host else phones.index(page)
        labels = [inka.describe(c) for c in table.legal(seat)]
        assert button.text_content() in labels
        button.click()
        deadline = time.monotonic() + 5
        while table.version == version:
            assert time.monotonic() < deadline, f"{command} was not played"
            time.sleep(0.02)

    # Setup (INKA-SET-1): colours from the phones, the youngest begins (the host says who),
    # starting spaces and the 13 stepping tiles in turn.
    for seat in range(3):
        play(phones[seat], "#actions", "choose_colour")
    wait_until(host, "document.querySelector('#table-actions button[data-command=first_player]')")
    assert host.inner_text("#table-actions button >> nth=0") == "Seat 1 begins"
    play(host, "#table-actions", "first_player")
    for _ in range(3):
        play(phones[table.prompts()[0].seat], "#actions", "place_counter")
    for _ in range(13):
        play(phones[table.prompts()[0].seat], "#actions", "place_tile")

    # Two turns (INKA-TURN-1): each player spends a point, the table shows the points left,
    # then ends the turn; only the player whose turn it is has buttons.
    for turn, seat in enumerate((0, 1)):
        assert table.prompts()[0].seat == seat
        mover = phones[seat]
        wait_until(mover, "document.querySelector('#prompt').classList.contains('mine')")
        for other in phones:
            if other is not mover:
                wait_until(other, "document.querySelector('#actions-card').hidden")
        play(mover, "#actions", "move_tile" if turn == 0 else "snake")
        wait_until(board, f"document.body.dataset.version === '{table.version}'")
        facts = board.inner_text("#plain-facts")
        assert f"{NAMES[seat]}\nwhose turn" in facts and "2\npoints" in facts, facts
        assert NAMES[seat] in board.inner_text("#prompt")
        play(mover, "#actions", "end_turn")
    wait_until(board, f"document.body.dataset.version === '{table.version}'")
    assert table.prompts()[0].seat == 2
    assert board.inner_text("#prompt").startswith("Caro")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    board.screenshot(path=str(ARTIFACTS / "inka-table.png"), full_page=True)
    phones[2].screenshot(path=str(ARTIFACTS / "inka-seat.png"), full_page=True)
    log = board.inner_text("#log")
    assert "Ana" in log and "Ben" in log
    assert not errors, errors
