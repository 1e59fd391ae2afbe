"""The pages in Debian's Chromium against a real waitress server: a host sets up a 3-player
game, three phones join by their links, a roll is entered, one player deciphers and sees the
glyph on their page only and only for 5 s (CHAC-GLYPH-2), and the table page follows live."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest
from webplay import (
    ARTIFACTS,
    NAMES,
    corrected_board,
    host_client,
    seat_client,
    start_game,
    write_glyph_pictures,
)

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 412, "height": 860},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def wait_until(page, expression: str, timeout: float = 5.0) -> None:
    """Poll a JS expression (wait_for_function would need eval, which the pages' CSP forbids)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(25)


def set_hidden(page, hidden: bool) -> None:
    """What a phone's browser reports when its screen goes off (or on)."""
    page.evaluate(
        """hidden => {
            Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def read_qr(element, timeout: float = 5.0) -> str:
    """What a phone's camera reads from a QR code on screen, once the browser has painted
    it (an image can be loaded a moment before it is drawn)."""
    import cv2
    import numpy as np

    # The ArUco-based detector: the classic one misses about 1 in 100 of these codes (the
    # join token is random), where a phone's camera reads them all.
    detector = cv2.QRCodeDetectorAruco()
    deadline = time.monotonic() + timeout
    while True:
        image = cv2.imdecode(np.frombuffer(element.screenshot(), np.uint8), cv2.IMREAD_GRAYSCALE)
        text, _, _ = detector.detectAndDecode(image)
        if text or time.monotonic() > deadline:
            return text
        time.sleep(0.1)


def shot(page, name: str, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def watch_errors(page, errors: list[str]) -> None:
    """Collect script errors and Content-Security-Policy violations of a page."""
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    page.on(
        "console",
        lambda msg: (
            msg.type == "error"
            and "Content Security Policy" in msg.text
            and errors.append(f"{page.url}: {msg.text}")
        ),
    )


def test_a_three_player_game_in_chromium(live_server, browser, data_dir):
    write_glyph_pictures(data_dir)
    base = f"http://127.0.0.1:{live_server.port}"
    errors: list[str] = []
    contexts = [browser.new_context(**PHONE) for _ in range(4)]
    table_context = browser.new_context(**DESKTOP)

    # The host signs in with the PIN and sets up the game.
    host = contexts[0].new_page()
    watch_errors(host, errors)
    host.goto(f"{base}/host")
    host.fill("#pin", live_server.app.extensions["companion"].access.pin)
    host.click("#login-form button")
    host.wait_for_selector("#host:not([hidden])")
    inputs = host.locator("#setup-seats input")
    for i, name in enumerate(NAMES):
        inputs.nth(i).fill(name)
    host.click("#setup-form button[type=submit]")
    host.wait_for_selector("#seats figure >> nth=2")
    joins = [host.get_attribute(f"a[data-join='{i}']", "href") for i in range(3)]
    assert all(urlsplit(j).path.startswith("/join/") for j in joins)
    assert host.locator("#seats img.qr").count() == 3
    wait_until(host, "[...document.querySelectorAll('#seats img.qr')].every(i => i.naturalWidth)")
    assert read_qr(host.locator("#seats img.qr").nth(1)) == joins[1]
    shot(host, "host-setup", full_page=True)

    table = table_context.new_page()
    watch_errors(table, errors)
    table.goto(f"{base}/")
    table.wait_for_selector("#status[data-state=live]")

    # Three phones join by their links and each chooses an adventurer.
    seats = []
    for i, join in enumerate(joins):
        page = contexts[i + 1].new_page()
        watch_errors(page, errors)
        page.goto(base + urlsplit(join).path)
        assert urlsplit(page.url).path == "/seat"
        page.wait_for_selector("#status[data-state=live]")
        assert page.text_content("#me") == NAMES[i]
        page.click("#actions button[data-command=choose_adventurer] >> nth=0")
        seats.append(page)
    for page in seats:
        wait_until(page, "document.querySelector('#actions-card').hidden")

    # The host names the first dicekeeper and enters the roll by hand (no camera here).
    host.click("#table-actions button[data-command=first_dicekeeper] >> nth=0")
    host.wait_for_selector("#dice-card.over")
    assert host.locator("#camera").evaluate("img => img.naturalWidth > 0")
    before = table.evaluate("document.body.dataset.version")
    host.fill("#dice-values", "6 6 6 6 6")
    started = time.perf_counter()
    host.click("#dice-form button")
    wait_until(table, "document.querySelectorAll('#dice .die').length === 5")
    update_s = time.perf_counter() - started
    assert table.evaluate("document.body.dataset.version") != before  # no reload: pushed
    assert [d.text_content() for d in table.locator("#dice .die").all()] == ["6"] * 5
    assert update_s < 2

    # Ana (the dicekeeper) taps zone 1 on the map, then deciphers.
    ana, ben, caro = seats
    ana.wait_for_selector("[data-target='Z1'].target-hit")
    shot(ana, "seat-turn")
    ana.click("[data-target='Z1'].target-hit")
    ana.wait_for_selector("#actions button[data-command=decipher]")
    ana.click("#actions button[data-command=decipher]")
    ana.wait_for_selector("#glyph-img", timeout=5000)
    shown_at = time.perf_counter()
    assert ana.get_attribute("#glyph-img", "src").startswith("data:image/png;base64,")
    assert ana.text_content("#glyph-count") in ("5", "4")
    shot(ana, "seat-glyph")
    for other in (ben, caro):
        assert other.locator("#glyph-img").count() == 0
        assert other.locator("#glyph").is_hidden()
    ana.wait_for_selector("#glyph-img", state="detached", timeout=8000)
    visible_s = time.perf_counter() - shown_at
    assert 4.0 < visible_s < 6.5
    assert ana.locator("#glyph").is_hidden()

    # The table page followed along; a reload on Ana's phone does not show the glyph again.
    wait_until(
        table,
        "document.querySelector('#log').textContent.includes('deciphers the glyph of zone 1')",
    )
    ana.reload()
    ana.wait_for_selector("#status[data-state=live]")
    ana.wait_for_timeout(800)
    assert ana.locator("#glyph-img").count() == 0
    for other in (ben, caro):
        assert other.locator("#glyph-img").count() == 0
    shot(table, "table", full_page=True)
    shot(ana, "seat", full_page=False)
    assert not errors, errors
    for context in [*contexts, table_context]:
        context.close()


def test_pages_rejoin_and_catch_up_after_losing_their_stream(live_server, browser):
    """A phone that slept or lost the Wi-Fi reconnects by itself and shows the latest view."""
    app = live_server.app
    table = app.extensions["companion"].table
    host = host_client(app)
    start_game(host)
    base = f"http://127.0.0.1:{live_server.port}"
    table_page = browser.new_context(**DESKTOP).new_page()
    table_page.goto(f"{base}/")
    seat_page = browser.new_context(**PHONE).new_page()
    seat_page.goto(base + app.extensions["companion"].access.join_path(0))
    for page in (table_page, seat_page):
        page.wait_for_selector("#status[data-state=live]")

    app.extensions["companion"].broadcaster.drop_all()  # every stream ends, as on a network loss
    choice = seat_client(app, 1).get("/api/seat").json["legal"][0]
    assert seat_client(app, 1).post("/api/seat/command", json=choice).status_code == 200
    for page in (table_page, seat_page):
        wait_until(page, f"document.body.dataset.version === '{table.version}'", timeout=10)
        page.wait_for_selector("#status[data-state=live]")
    assert "Ben sends" in table_page.text_content("#log")

    # The screen goes off for a while, then on: the page opens a fresh stream at once.
    streams: list[str] = []
    table_page.on("request", lambda r: "/api/table/stream" in r.url and streams.append(r.url))
    set_hidden(table_page, True)
    table_page.wait_for_timeout(3300)
    set_hidden(table_page, False)
    wait_until(table_page, "document.getElementById('status').dataset.state === 'live'")
    table_page.wait_for_timeout(300)
    assert len(streams) == 1

    # New links for every seat: the open seat page is cut off, cannot rejoin, and says so.
    assert host.post("/api/host/reissue").status_code == 200
    seat_page.wait_for_selector("#status[data-state=gone]", timeout=5000)
    assert "link has changed" in seat_page.text_content("#prompt")
    assert "new QR code" in seat_page.text_content("#prompt")
    seat_page.wait_for_timeout(2500)
    assert seat_page.get_attribute("#status", "data-state") == "gone"  # no reconnecting loop
    seat_page.reload()
    assert "QR code" in seat_page.text_content("#message")


_MAP_SHOWS = "[...document.querySelectorAll('#map text')].some((t) => t.textContent === '%s')"


def test_the_map_draws_the_games_board_and_the_host_ends_the_game(live_server, browser, tmp_path):
    """A game on a corrected board file is drawn on that board; the host's end-game button
    asks for confirmation, then the game is scored and revealed (CHAC-END-2, CHAC-FAIR-1)."""
    app = live_server.app
    base = f"http://127.0.0.1:{live_server.port}"
    errors: list[str] = []
    table_page = browser.new_context(**DESKTOP).new_page()
    watch_errors(table_page, errors)
    table_page.goto(f"{base}/")
    table_page.wait_for_selector("#status[data-state=live]")
    wait_until(table_page, _MAP_SHOWS % "C29")
    assert not table_page.evaluate(_MAP_SHOWS % "C30")
    corrected_board(app.extensions["companion"].data_dir / "boards")
    start_game(host_client(app), board="our-board")
    wait_until(table_page, _MAP_SHOWS % "C30")  # the page follows the new board
    # the host may fix seeds here (tests replay recorded games): the table page says so
    assert "not secret" in table_page.inner_text("#fixed-seed")

    host = browser.new_context(**PHONE).new_page()
    watch_errors(host, errors)
    host.goto(f"{base}/host")
    host.fill("#pin", app.extensions["companion"].access.pin)
    host.click("#login-form button")
    host.wait_for_selector("#host:not([hidden])")
    wait_until(host, _MAP_SHOWS % "C30")
    # Far from the routine buttons, in a card of its own (a tap meant for them cannot land on it).
    assert host.locator("#table-actions [data-command=end_game]").count() == 0
    button = host.locator("#end-card button[data-command=end_game]")
    assert button.text_content() == "End the game now and score it"
    asked: list[str] = []

    def answer(dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    host.once("dialog", lambda d: answer(d, False))
    button.click()
    host.wait_for_timeout(300)
    assert asked and "End the game now?" in asked[0]
    assert not app.extensions["companion"].table.is_over()
    host.once("dialog", lambda d: answer(d, True))
    button.click()
    for page in (host, table_page):
        page.wait_for_selector("#scores-card:not([hidden]) #reveal-check[data-checked=true]")
    assert "did not escape" in table_page.text_content("#scores")
    assert app.extensions["companion"].table.is_over()
    assert not errors, errors
