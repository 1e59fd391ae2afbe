"""Retakes the README's screenshots from a simulated companion, as `make run` starts it.

    .venv/bin/python docs/screenshots/retake.py

A four-player game in a throwaway data directory: the table page on a laptop, and on a
390x844 phone a seat on its turn (a move tapped on the map, its outcome shown), the glyph
viewer after Decipher (the simulated table's stand-in glyph pictures), and the host page.
Needs Debian's Chromium (/usr/bin/chromium) and Playwright.
"""

from __future__ import annotations

import http.cookiejar
import json
import socket
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from companion import config
from companion.runtime.service import Service
from web.app import Limits

OUT = Path(__file__).resolve().parent
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 760}}
PLAYERS = ["Ana", "Ben", "Caro", "Dan"]


class Client:
    """One person over HTTP, with a cookie jar of their own."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(self, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        with self.opener.open(request, timeout=10) as response:
            raw = response.read()
        return json.loads(raw) if raw.startswith(b"{") else {}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main() -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="chac-screens-"))
    settings = {"hardware": "sim", "data_dir": str(data_dir), "web.host": "127.0.0.1"}
    settings["web.port"] = free_port()
    service = Service(
        config.load(overrides=settings), simulate=True, limits=Limits((500, 500), (200, 200))
    )
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    base = f"http://127.0.0.1:{settings['web.port']}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/api/table", timeout=1).read()
            break
        except OSError:
            time.sleep(0.1)
    try:
        shoot(base, service)
    finally:
        service.stop()
        runner.join(15)


def shoot(base: str, service: Service) -> None:
    host = Client(base)
    host.call("/api/host/login", {"pin": service.access.pin})
    host.call("/api/host/new-game", {"seats": PLAYERS, "options": {}})
    joins = [j["url"].split("/", 3)[3] for j in host.call("/api/host")["joins"]]
    for path in joins[1:]:
        phone = Client(base)
        phone.opener.open(f"{base}/{path}").read()
        phone.call("/api/seat/command", phone.call("/api/seat")["legal"][0])
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        seat = browser.new_context(**PHONE).new_page()
        seat.goto(f"{base}/{joins[0]}")
        seat.wait_for_selector("#actions button[data-command=choose_adventurer]")
        seat.click("#actions button[data-command=choose_adventurer] >> nth=0")
        host.call("/api/host/command", {"type": "first_dicekeeper", "keeper": 0})
        host.call("/api/host/command", {"type": "dice", "values": [6, 4, 5, 3, 6]})
        seat.wait_for_selector("[data-target='Z1'].target-hit")
        seat.click("[data-target='Z1'].target-hit")
        seat.wait_for_selector("#outcome:not([hidden])")
        seat.evaluate("window.scrollTo(0, 0)")
        seat.wait_for_timeout(300)
        seat.screenshot(path=str(OUT / "seat.png"))
        seat.click("#outcome")
        seat.click("#actions button[data-command=decipher]")
        seat.wait_for_selector("#glyph-img")
        seat.wait_for_timeout(300)
        seat.screenshot(path=str(OUT / "glyph.png"))

        table = browser.new_context(**LAPTOP).new_page()
        table.goto(base + "/")
        table.wait_for_selector("#status[data-state=live]")
        table.wait_for_timeout(500)
        table.screenshot(path=str(OUT / "table.png"))

        host_page = browser.new_context(**PHONE).new_page()
        host_page.goto(base + "/host")
        host_page.fill("#pin", service.access.pin)
        host_page.click("#login-form button")
        host_page.wait_for_selector("#host:not([hidden])")
        host_page.wait_for_timeout(1500)  # the camera preview and the companion's health
        host_page.screenshot(path=str(OUT / "host.png"))
        browser.close()


if __name__ == "__main__":
    main()
