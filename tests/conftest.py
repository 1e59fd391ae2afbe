"""Fixtures every test folder may use."""

from __future__ import annotations

import pytest

CHROMIUM = "/usr/bin/chromium"  # Debian's package; Playwright's own browser download is not used
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # No calls home: the table's network has no internet, and tests talk to loopback only.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def browser():
    """Headless Chromium driven by Playwright, on a new, empty profile of its own."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()
