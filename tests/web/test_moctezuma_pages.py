"""Moctezuma's Revenge! on the pages in Chromium: the host sets it up on the host page, two
rounds are played from the phones (390x844), a Research's chits and an Explore's cards are
shown only on the page of the seat that drew them, and the host ends the game and the scores
show (MOCT-RES-1, MOCT-EXPL-1, MOCT-EXPL-2, MOCT-ROUND-1, MOCT-END-1)."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest
from webplay import ARTIFACTS

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
NAMES = ["Ana", "Ben"]


def wait_until(page, expression: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(25)


def test_two_rounds_of_moctezuma_from_the_phones_with_private_reveals(live_server, browser):
    app = live_server.app
    table = app.extensions["companion"].table
    base = f"http://127.0.0.1:{live_server.port}"
    errors: list[str] = []

    def watch(page):
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        return page

    host = watch(browser.new_context(**DESKTOP).new_page())
    host.on("dialog", lambda dialog: dialog.accept())
    host.goto(f"{base}/host")
    host.fill("#pin", app.extensions["companion"].access.pin)
    host.click("#login-form button")
    host.wait_for_selector("#setup-options select")
    host.select_option("#setup-game", "moctezuma")
    host.wait_for_selector("#setup-options [name=curse_rule]")
    host.click("#drop-seat")
    for i, name in enumerate(NAMES):
        host.locator("#setup-seats input").nth(i).fill(name)
    host.click("#setup-form button[type=submit]")
    host.wait_for_selector("#seats figure >> nth=1")
    assert table.game_name == "moctezuma"
    joins = [host.get_attribute(f"a[data-join='{i}']", "href") for i in range(2)]

    board = watch(browser.new_context(**DESKTOP).new_page())
    board.goto(f"{base}/")
    board.wait_for_selector("#moct-places .moct-place >> nth=10")
    assert board.inner_text("h1") == "Moctezuma's Revenge!"
    assert board.locator("#moct-chits .moct-chit").count() == 15
    assert board.inner_text("#prompt") == table.prompts()[0].text  # whose turn, points left
    phones = []
    for join in joins:
        phone = watch(browser.new_context(**PHONE).new_page())
        phone.goto(base + urlsplit(join).path)
        phone.wait_for_selector("#status[data-state=live]")
        phones.append(phone)

    seen_by_others: list[str] = []

    def settle() -> None:
        """Every page has drawn the table's latest version; keep what the others show."""
        for page in (board, *phones, host):
            wait_until(page, f"document.body.dataset.version === '{table.version}'")

    def others_text(mover) -> None:
        for page in (board, host, *(p for p in phones if p is not mover)):
            seen_by_others.append(page.content())

    def tap(page, selector: str) -> None:
        version = table.version
        page.locator(selector).first.click()
        deadline = time.monotonic() + 5
        while table.version == version:
            assert time.monotonic() < deadline, f"{selector} was not played"
            time.sleep(0.02)
        settle()

    first = table.prompts()[0].seat
    mover, other = phones[first], phones[1 - first]
    # Round 1. Research (MOCT-RES-1): pick two chits; their faces show on this phone only.
    mover.wait_for_selector("#actions button[data-command=research][data-size='2']")
    mover.click("#actions button.moct-chit[data-space='3']")
    mover.click("#actions button.moct-chit[data-space='8']")
    tap(mover, "#actions button[data-command=research][data-size='2']")
    mover.wait_for_selector("#moct-reveal:not([hidden]) .moct-chit >> nth=1")
    peek = table.seat_view(first)["you"]["research"]
    assert sorted(c["space"] for c in peek) == [3, 8]
    reveal = [mover.inner_text(f"#moct-reveal .moct-chit[data-space='{c['space']}']") for c in peek]
    assert [r.endswith(c["face"]) for r, c in zip(reveal, peek, strict=True)] == [True, True]
    others_text(mover)
    mover.wait_for_selector(
        "#moct-reveal[hidden]", state="attached", timeout=8000
    )  # gone after a few seconds
    assert mover.locator("#moct-reveal .moct-chit").count() == 0

    # Move to temple 1, Explore it (MOCT-EXPL-1): the drawn cards show on this phone only,
    # and the player keeps a treasure card, never the name card (MOCT-EXPL-2).
    tap(mover, "#actions button[data-command=move] >> text=temple 1")
    tap(mover, "#actions button[data-command=explore]")
    drawn = table.seat_view(first)["you"]["drawn"]
    mover.wait_for_selector("#moct-drawn")
    keep = mover.locator("#actions button[data-command=keep]")
    treasure = [c for c in drawn["cards"] if c["kind"] == "treasure"]
    assert keep.count() == len(treasure)
    others_text(mover)
    drawn_words = mover.inner_text("#moct-drawn")
    tap(mover, "#actions button[data-command=keep]")
    assert len(table.seat_view(first)["you"]["hand"]) == 1
    held = f"#moct-players [data-seat='{first}']"
    wait_until(board, f"document.querySelector(\"{held}\").textContent.includes('1 card')")

    # The record sheet is one tap away and keeps what this player saw, and their notes.
    mover.click("#moct-sheet-toggle")
    sheet = mover.inner_text("#moct-sheet")
    assert all(c["face"] in sheet for c in peek)
    mover.fill("#moct-sheet textarea", "Temple 1 looks rich")
    tap(mover, "#moct-sheet button[data-command=note]")
    assert "Temple 1 looks rich" in mover.inner_text("#moct-notes")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    mover.screenshot(path=str(ARTIFACTS / "moctezuma-seat.png"), full_page=True)
    board.screenshot(path=str(ARTIFACTS / "moctezuma-table.png"), full_page=True)
    others_text(mover)

    for page, seat in ((mover, first), (other, 1 - first)):
        if table.prompts()[0].seat == seat:
            tap(page, "#actions button[data-command=end_turn]")
    assert table.public_view()["round"] == 2 and table.public_view()["chits_turned"] == 1
    turned = "#moct-chits .moct-chit[data-face=Cursed], #moct-chits .moct-chit[data-face=Safe]"
    wait_until(board, f"document.querySelectorAll('{turned}').length === 1")

    # Round 2: each moves, then ends the turn; the next chit turns (MOCT-ROUND-1).
    for page, seat in ((mover, first), (other, 1 - first)):
        assert table.prompts()[0].seat == seat
        tap(page, "#actions button[data-command=move] >> nth=0")
        tap(page, "#actions button[data-command=end_turn]")
    assert table.public_view()["round"] == 3 and table.public_view()["chits_turned"] == 2

    # What one seat saw never reached the table page, the host page or the other phone.
    for text in seen_by_others:
        assert "Only you see this" not in text and "moct-drawn" not in text
        assert drawn_words not in text
        assert not any(words in text for words in reveal)
        for chit in peek:
            assert f'data-space="{chit["space"]}" data-face="{chit["face"]}"' not in text

    # The host ends the game; the scores and the reveal show (MOCT-END-1).
    host.click("#end-game")
    board.wait_for_selector("#scores-card:not([hidden])")
    result = table.public_view()["result"]
    rows = board.locator("#scores tr")
    assert rows.count() == 3
    for seat, name in enumerate(NAMES):
        assert board.inner_text(f"#scores tr >> nth={seat + 1}").startswith(
            f"{name}\t{result['scores'][seat]}"
        )
    assert "matches the commitment" in board.inner_text("#reveal-check")
    assert not errors, errors
