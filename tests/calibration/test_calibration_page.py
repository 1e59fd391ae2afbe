"""The calibration page in Debian's Chromium: the host captures the frame and a clue tile."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from calibration.tile_synth import SimTableCamera
from companion.game.chac import catalog
from companion.game.chac.tile_art import render_face
from companion.table import Table
from web import calibration as calibration_web
from web.app import Limits, create_app
from web.server import WebServer

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "calibration"


def _wait(page, expression: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(50)


def test_the_host_calibrates_frame_and_a_glyph_in_the_browser(tmp_path, browser):
    camera = SimTableCamera(seed=8)
    camera.open()
    with Table.open(tmp_path / "events.sqlite") as table:
        app = create_app(table, tmp_path, limits=Limits(reads=(500, 500), writes=(100, 100)))
        calibration_web.attach(app, lambda: camera.read().image, lambda: camera.settings)
        server = WebServer(app, "127.0.0.1", 0, threads=16)
        thread = threading.Thread(target=server.serve, daemon=True)
        thread.start()
        base = f"http://127.0.0.1:{server.port}"
        errors: list[str] = []
        try:
            page = browser.new_page(viewport={"width": 412, "height": 900})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on(
                "console",
                lambda m: errors.append(m.text) if m.type == "error" else None,
            )
            page.goto(base + "/host")
            page.fill("#pin", app.extensions["companion"].access.pin)
            page.click("#login-form button[type=submit]")
            page.wait_for_timeout(300)
            page.goto(base + "/host/calibration")
            _wait(page, "document.getElementById('cal-title').textContent.includes('1 of 3')")
            assert "Empty the tray" in page.inner_text("#cal-text")

            page.click("#cal-capture")
            _wait(page, "document.getElementById('cal-title').textContent.includes('2 of 3')")
            assert "Tray found" in page.inner_text("#cal-note")
            assert page.is_visible("#cal-faces")

            page.click("#cal-steps button:has-text('glyphs')")
            _wait(page, "document.getElementById('cal-title').textContent.includes('3 of 3')")
            camera.lay_tile(render_face(13, "glyph"))
            page.click("#cal-capture")
            _wait(page, "!document.getElementById('cal-tile').hidden")
            _wait(page, "document.getElementById('cal-tile-img').naturalWidth > 0")
            page.fill("#cal-number-value", "13")
            page.click("#cal-number button[type=submit]")
            _wait(page, "document.getElementById('cal-note').textContent.includes('13')")
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "calibration.png"), full_page=True)
        finally:
            server.stop(wait=True)
            thread.join(10)
    assert catalog.stored_numbers(tmp_path) == [13]
    assert errors == []
