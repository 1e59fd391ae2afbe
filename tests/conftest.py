"""Fixtures every test folder may use."""

from __future__ import annotations

import os

import pytest

# Debian's package (Playwright's own browser download is not used); elsewhere, say where.
CHROMIUM = os.environ.get("CHROMIUM_FOR_TESTS", "/usr/bin/chromium")
NO_CHROMIUM = f"No Chromium at {CHROMIUM}: the browser tests did not run (apt install chromium)"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # No calls home: the table's network has no internet, and tests talk to loopback only.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _in_ci() -> bool:
    return bool(os.environ.get("CI"))


def pytest_collection_modifyitems(config, items):
    """Without Chromium the browser tests are left out, and the summary says so in one line;
    CI has no such excuse: there they fail."""
    if os.path.exists(CHROMIUM) or _in_ci():
        return
    browser = [item for item in items if item.get_closest_marker("browser")]
    if browser:
        config.hook.pytest_deselected(items=browser)
        items[:] = [item for item in items if not item.get_closest_marker("browser")]


def pytest_terminal_summary(terminalreporter):
    if not os.path.exists(CHROMIUM) and not _in_ci():
        terminalreporter.write_line(NO_CHROMIUM, yellow=True)


@pytest.fixture
def browser():
    """Headless Chromium driven by Playwright, on a new, empty profile of its own."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"No Chromium at {CHROMIUM}; CI installs it (apt install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def labelled_set():
    """Writes a labelled dice set as `companion dice bench` reads it (images/ and labels.jsonl)
    from rendered trays of three white dice: `labelled_set(folder, n, seed)`."""

    def write(folder, n: int, seed: int) -> None:
        import json

        import cv2
        import numpy as np

        from companion.dice import synth

        rng = np.random.default_rng(seed)
        (folder / "images").mkdir(parents=True)
        lines = []
        for i in range(n):
            faces = [int(f) for f in rng.integers(1, 7, 3)]
            scene = synth.random_scene(
                faces, rng, view_tilt=0.0, style="white", surface="felt-blue"
            )
            cv2.imwrite(str(folder / "images" / f"{i}.png"), synth.render(scene, rng))
            dice = [{"value": f, "box": [0, 0, 1, 1]} for f in faces]
            lines.append(json.dumps({"image": f"images/{i}.png", "dice": dice, "box_kind": "die"}))
        (folder / "labels.jsonl").write_text("\n".join(lines) + "\n")

    return write
