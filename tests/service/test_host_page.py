"""The host page of a running companion on a laptop, in Debian's Chromium: the OLED mirror,
the five buttons and a dice throw on the simulated camera, read by the real dice reader and
confirmed on the same page, so a whole game can be played on one machine."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from servicekit import signed_in_host, to_first_roll, wait_for

from companion.rolls import TrayState

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "service"
LAPTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 412, "height": 860}, "device_scale_factor": 2, "is_mobile": True}


def wait_until(page, expression: str, timeout: float = 10.0) -> None:
    """Poll a JS expression (wait_for_function would need eval, which the pages' CSP forbids)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(50)


def test_a_throw_from_the_host_page_is_read_and_confirmed_there(start_service, browser):
    running = start_service(**{"dice.auto_submit": False})
    service = running.service
    to_first_roll(service.table)
    page, errors = signed_in_host(browser, running, LAPTOP)

    # The simulated table shows up on the host page: the OLED mirror and the buttons.
    page.wait_for_selector("#sim-card:not([hidden])")
    wait_until(page, "document.getElementById('sim-oled').naturalWidth === 128")
    assert page.locator("#sim-card button[data-b]").count() == 7  # five, two of them held too
    page.wait_for_selector("#service-card:not([hidden])")
    page.wait_for_selector("#health li[data-part=camera][data-state=ok]")
    assert "Camera working" in page.text_content("#health")
    assert page.get_attribute("a[href='/host/calibration']", "href") == "/host/calibration"

    # The throw lands in the simulated tray; the reader's reading waits on this page. As at a
    # real table, a reading that is off is discarded and the dice are thrown again.
    version = service.table.version
    page.fill("#sim-values", "3 5 1 6 2")
    readings = []
    for _ in range(8):
        page.click("#sim-throw")
        page.wait_for_selector("#pending:not([hidden])", timeout=15000)
        shown = [d.text_content() for d in page.locator("#pending-dice .die").all()]
        assert shown == [str(v) for v in service.rolls.pending.values]
        readings.append(shown)
        if sorted(shown) == sorted("35162"):  # the reader read the thrown dice
            break
        page.click("#pending-discard")
        page.wait_for_selector("#pending", state="hidden")
    assert sorted(readings[-1]) == sorted("35162"), readings
    assert service.table.version == version  # nothing entered before a person confirms
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "host-sim-laptop.png"), full_page=True)

    page.click("#pending-form button[type=submit]")
    assert wait_for(lambda: service.table.version != version)
    assert sorted(service.rolls.last_submitted) == [1, 2, 3, 5, 6]
    assert not any(p.kind == "roll" for p in service.table.prompts())
    page.wait_for_selector("#pending", state="hidden")

    # Holding Back on the page's panel undoes the roll, as the real button does.
    page.click("#sim-card button[data-b=BACK][data-hold]")
    assert wait_for(lambda: any(p.kind == "roll" for p in service.table.prompts()))
    assert not errors, errors

    # /sim keeps the same controls on a page of their own, with a status report.
    sim = browser.new_context(**LAPTOP).new_page()
    sim.on("pageerror", lambda exc: errors.append(str(exc)))
    sim.goto(f"{running.base}/sim")
    wait_until(sim, "document.getElementById('sim-status').textContent.includes('camera:  ok')")
    wait_until(sim, "document.getElementById('sim-oled').naturalWidth === 128")
    sim.click("#sim-plug")
    assert wait_for(lambda: "No camera" in service.health.camera)
    sim.click("#sim-plug")
    assert wait_for(lambda: service.health.camera == "ok")
    assert not errors, errors

    phone, phone_errors = signed_in_host(browser, running, PHONE)
    phone.wait_for_selector("#sim-card:not([hidden])")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.screenshot(path=str(ARTIFACTS / "host-sim-phone.png"), full_page=True)
    assert not phone_errors, phone_errors


def test_the_dice_the_camera_is_not_sure_of_are_marked_on_the_page_and_the_oled(
    start_service, browser
):
    """A reading the camera is not sure of every die of waits for the host, and both the page
    and the OLED point at the die to look at in the tray before confirming."""
    running = start_service(**{"dice.auto_submit": False})
    service = running.service
    to_first_roll(service.table)
    page, errors = signed_in_host(browser, running, PHONE)
    # The dice land, then the reader reads them unsure of the 4 (a die the frame cuts, say).
    landed = iter([TrayState(moving=True)])
    read = TrayState(False, (2, 3, 4, 5, 6), False, ("1 die not read for sure",), doubted=(2,))
    service.rolls.watch = lambda image, expected: next(landed, read)
    page.wait_for_selector("#pending:not([hidden])", timeout=15000)
    dice = page.locator("#pending-dice .die").all()
    assert [d.text_content() for d in dice] == ["2", "3", "4", "5", "6"]
    assert [i for i, d in enumerate(dice) if "doubt" in d.get_attribute("class")] == [2]
    assert dice[2].get_attribute("title") == "The camera is not sure of this die"
    note = page.text_content("#pending-note")
    assert note.startswith("1 die not read for sure. Check and confirm. Look at the die marked ?")
    assert "Check the dice" in service.panel.screen().text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "host-doubted-die-phone.png"), full_page=True)
    assert not errors, errors
