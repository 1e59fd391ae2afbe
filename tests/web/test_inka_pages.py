"""Inka on its own page parts in Chromium: the host sets up a 3-player game on the host page,
the players play the setup and two turns from their phones (390x844), and after each turn the
OLED (the panel over luma's dummy device, on the same table) and the table page show whose
turn it is, the phase and the points left (INKA-SET-1, INKA-SET-2, INKA-TURN-1, INKA-STAT-1,
INKA-END-1)."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest
from webplay import ARTIFACTS

from companion.game import load_game
from companion.game.protocol import Command
from companion.panel import Panel
from hardware.display import dummy_display

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
NAMES = ["Ana", "Ben", "Caro"]
TAP_PX = 44  # the smallest comfortable tap target


def wait_until(page, expression: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(25)


def watch(page, errors: list[str]):
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    return page


class Oled:
    """The table's panel on luma's dummy OLED, drawing what the shared table holds."""

    def __init__(self, table):
        self.panel = Panel(table)
        self.display = dummy_display()

    def shown(self):
        """The status screen as the OLED holds it: the pixels on the device are the screen's."""
        self.panel.tick()
        self.display.show(self.panel.render())
        screen = self.panel.screen()
        assert self.display.device.image.tobytes() == screen.image.tobytes()
        return screen


def test_two_turns_of_inka_from_the_phones_with_the_oled_after_each(live_server, browser):
    """INKA-TURN-1: each turn's phase and points on the phones, the table page and the OLED;
    INKA-STAT-1 and INKA-END-1: a refused step is said in a sentence and changes nothing."""
    app = live_server.app
    table = app.extensions["companion"].table
    inka = load_game("inka")
    oled = Oled(table)
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
    board.wait_for_selector("#inka-order .inka-player >> nth=2")
    assert board.inner_text("h1") == "Inka"
    assert board.locator("#plain-facts").is_hidden()  # Inka's own part draws the table
    assert "Setting up" in board.inner_text("#inka-turn")
    assert "A new game of Inka" in board.inner_text("#log")

    phones = []
    for join in joins:
        phone = watch(browser.new_context(**PHONE).new_page(), errors)
        phone.goto(base + urlsplit(join).path)
        phone.wait_for_selector("#status[data-state=live]")
        phones.append(phone)

    def caught_up(page) -> None:
        wait_until(page, f"document.body.dataset.version === '{table.version}'")

    def tap(page, selector: str, label: str) -> None:
        """Tap the button labelled `label` (the game's own words) and wait for it to count."""
        caught_up(page)
        version = table.version
        page.locator(selector).get_by_role("button", name=label, exact=True).first.click()
        deadline = time.monotonic() + 5
        while table.version == version:
            assert time.monotonic() < deadline, f"{label} was not played"
            time.sleep(0.02)

    def refused(page, label: str, words: str) -> None:
        """Tapping `label` is refused: the phone says why in a sentence, nothing changes."""
        caught_up(page)
        before = table.public_view()
        page.locator("#actions").get_by_role("button", name=label, exact=True).click()
        toast = page.locator("#toast")
        toast.wait_for(state="visible")
        assert words in toast.inner_text() and "INKA-" not in toast.inner_text()
        assert table.public_view() == before
        page.evaluate("document.getElementById('toast').hidden = true")

    # Setup (INKA-SET-1): colours from the phones, the youngest begins (the host says who),
    # the counters onto starting spaces and the 13 stepping tiles in turn (INKA-SET-2).
    for seat, colour in enumerate(("red", "yellow", "green")):
        tap(
            phones[seat],
            "#actions",
            inka.describe(Command("choose_colour", seat, {"colour": colour})),
        )
    wait_until(host, "document.querySelector('#table-actions button[data-command=first_player]')")
    tap(host, "#table-actions", "Seat 1 begins")
    for seat in range(3):
        tap(phones[seat], "#actions", "Counter on start")
    for placed in range(13):
        caught_up(board)
        assert f"{13 - placed} of 13 tiles left" in board.inner_text("#inka-tiles-left")
        whose = placed % 3
        assert f"{NAMES[whose]} ({('red', 'yellow', 'green')[whose]})" in board.inner_text(
            "#inka-turn .inka-who"
        )
        assert f"{13 - placed} of 13 tiles left" in oled.shown().text
        tap(phones[whose], "#actions", "Place a tile")

    def turn_shown(number: int, seat: int, colour: str, phase: int, points: int) -> None:
        """The OLED and the table page agree on the turn, whose it is, the phase, the points."""
        screen = oled.shown()
        assert f"Turn {number}" in screen.text and f"Phase {phase} of 4" in screen.text
        assert screen.find(f"{NAMES[seat]} ({colour})") is not None, screen.text
        assert screen.find(f"{points} pt{'' if points == 1 else 's'}", whole=True), screen.text
        caught_up(board)
        title = board.inner_text("#inka-turn-title")
        assert title.startswith(f"Turn {number} · phase {phase} of 4"), title
        assert board.inner_text("#inka-turn .inka-who") == f"{NAMES[seat]} ({colour})"
        assert board.get_attribute("#inka-points", "data-left") == str(points)
        assert board.locator("#inka-points .inka-point[data-spent]").count() == 3 - points
        highlighted = board.locator("#inka-order .inka-player[data-turn]")
        assert highlighted.count() == 1 and highlighted.get_attribute("data-seat") == str(seat)

    def only_the_mover_has_buttons(mover) -> None:
        for phone in phones:
            caught_up(phone)
            assert phone.locator("#actions-card").is_hidden() == (phone is not mover)
        assert "mine" in mover.get_attribute("#prompt", "class")
        boxes = [b.bounding_box() for b in mover.locator("#actions button").all()]
        assert boxes and all(b["height"] >= TAP_PX and b["width"] >= TAP_PX for b in boxes)
        assert mover.evaluate("document.documentElement.scrollWidth") <= 390  # no side scrolling

    # Turn 1, Ana (red): a tile, her statue, a refused yellow statue, then her blocker.
    turn_shown(1, 0, "red", phase=2, points=3)
    only_the_mover_has_buttons(phones[0])
    tap(phones[0], "#actions", "Move a tile (1 pt)")
    turn_shown(1, 0, "red", phase=2, points=2)
    tap(phones[0], "#actions", "Red statue (1 pt)")
    refused(phones[0], "Yellow statue (1 pt)", "Ana collects only red statues, not yellow ones.")
    refused(phones[0], "Move a tile (1 pt)", "phase 2 before phase 3")
    turn_shown(1, 0, "red", phase=3, points=1)
    tap(phones[0], "#actions", "Block a space")
    turn_shown(1, 0, "red", phase=4, points=0)
    tap(phones[0], "#actions", "End turn")
    turn_shown(2, 1, "yellow", phase=2, points=3)
    ana = board.locator("#inka-order .inka-player[data-seat='0']")
    assert "1/3 statues" in ana.inner_text() and "blocker on a space" in ana.inner_text()
    assert ana.locator(".inka-pip[data-held]").count() == 1

    # Turn 2, Ben (yellow): a snake and a secret passage, a refused exit, end of turn.
    only_the_mover_has_buttons(phones[1])
    tap(phones[1], "#actions", "Pass a snake (1 pt)")
    tap(phones[1], "#actions", "Passage (1 pt)")
    turn_shown(2, 1, "yellow", phase=3, points=1)
    refused(phones[1], "Leave by an exit", "0 of 3 statues")
    tap(phones[1], "#actions", "End turn")
    turn_shown(3, 2, "green", phase=2, points=3)
    assert board.inner_text("#prompt").startswith("Caro")
    log = board.inner_text("#log")
    assert "Ana collects a red statue (1 of 3): 1 point left." in log
    assert "Ben ends the turn (1 point unused, lost)." in log

    # The table page on a phone: the same turn and points, nothing wider than the screen.
    small = watch(browser.new_context(**PHONE).new_page(), errors)
    small.goto(f"{base}/")
    small.wait_for_selector("#inka-points[data-left='3']")
    assert small.inner_text("#inka-turn .inka-who") == "Caro (green)"
    assert small.evaluate("document.documentElement.scrollWidth") <= 390

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    board.screenshot(path=str(ARTIFACTS / "inka-table.png"), full_page=True)
    small.screenshot(path=str(ARTIFACTS / "inka-table-phone.png"), full_page=True)
    phones[2].screenshot(path=str(ARTIFACTS / "inka-seat.png"), full_page=True)
    assert not errors, errors
