"""Co-op play and the commitment receipt on the pages: in Debian's Chromium the host sets up a
one-player co-op game in the setup form (CHAC-COOP-1), keeps the receipt of the commitment
(CHAC-FAIR-1), the table page shows the target, and after the game the receipt checks the log;
the phones exchange treasures (CHAC-COOP-4) and see each other's card values."""

from __future__ import annotations

import time

import pytest
from webplay import seat_client, start_game

from companion.cli import main

DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def wait_until(page, expression: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(25)


@pytest.mark.browser
def test_co_op_setup_receipt_and_team_target_chac_coop_1_chac_fair_1(
    live_server, browser, data_dir, tmp_path, capsys
):
    base = f"http://127.0.0.1:{live_server.port}"
    errors: list[str] = []
    context = browser.new_context(**DESKTOP, accept_downloads=True)
    host = context.new_page()
    host.on("pageerror", lambda exc: errors.append(str(exc)))
    host.on("dialog", lambda dialog: dialog.accept())
    host.goto(f"{base}/host")
    host.fill("#pin", live_server.app.extensions["companion"].access.pin)
    host.click("#login-form button")
    host.wait_for_selector("#host:not([hidden])")
    host.click("#drop-seat")
    host.click("#drop-seat")
    assert host.locator("#setup-seats input").count() == 1
    host.fill("#setup-seats input", "Ana")
    host.select_option("#setup-options [name=mode]", "coop")
    host.select_option("#setup-options [name=level]", "2")
    host.select_option("#setup-options [name=first_dicekeeper]", "oldest")
    host.click("#setup-form button[type=submit]")
    host.wait_for_selector("#receipt-card:not([hidden]) a[download]")

    table = live_server.app.extensions["companion"].table
    view = table.public_view()
    assert view["options"]["mode"] == "coop" and view["options"]["level"] == 2
    assert view["options"]["exchange_treasures"] is True  # the mode's default
    commitment = view["commitment"]
    assert host.text_content("#receipt-commitment") == commitment
    with host.expect_download() as download:
        host.click("#receipt a[download]")
    receipt = tmp_path / "receipt.txt"
    download.value.save_as(receipt)
    assert commitment in receipt.read_text()

    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/")
    page.wait_for_selector("#coop-card:not([hidden])")
    assert page.text_content("#coop-target") == "Target 15 (level 2)"
    assert page.text_content("#coop-escaped").startswith("Escaped 0")

    host.once("dialog", lambda dialog: dialog.accept())  # ending early is confirmed
    host.click("#end-card button[data-command=end_game]")
    wait_until(page, "document.querySelector('#coop').textContent.includes('The team loses')")
    assert not errors, errors
    context.close()

    capsys.readouterr()
    db = data_dir / "events.sqlite"
    assert main(["verify", str(db), "--commitment", str(receipt)]) == 0
    assert capsys.readouterr().out.startswith("ok: game 1 (chac, Ana)")


def test_phones_exchange_treasures_and_see_the_teams_cards_chac_coop_4(app, host):
    """CHAC-COOP-4 through the seat pages: the offer is listed for the player on the same
    space, the other phone answers it; CHAC-COOP-1: every phone sees both hands' values."""
    start_game(host, ["Ana", "Ben"], seed=3, mode="coop", first_dicekeeper="oldest")
    phones = [seat_client(app, 0), seat_client(app, 1)]
    for phone in phones:
        choice = phone.get("/api/seat").json["legal"][0]
        assert phone.post("/api/seat/command", json=choice).status_code == 200
    for command in (
        {"type": "first_dicekeeper", "keeper": 0},
        {"type": "dice", "values": [6, 6, 6, 6, 6]},
    ):
        assert host.post("/api/host/command", json=command).status_code == 200
    ana, ben = phones
    assert ana.post("/api/seat/command", json={"type": "move", "to": "Z1"}).status_code == 200
    assert ana.post("/api/seat/command", json={"type": "search"}).status_code == 200
    move = {"type": "set_space", "player": 1, "to": "Z1"}
    assert host.post("/api/host/command", json=move).status_code == 200
    legal = ana.get("/api/seat").json["legal"]
    assert {"type": "exchange", "seat": 0, "with": 1} in legal
    card = ana.get("/api/seat").json["view"]["you"]["cards"][0]
    offer = {"type": "exchange", "with": 1, "cards": [card["id"]], "ask": 0}
    assert ana.post("/api/seat/command", json=offer).status_code == 200
    answer = ben.post("/api/seat/command", json={"type": "accept_exchange", "cards": []})
    assert answer.status_code == 200, answer.json
    view = ana.get("/api/seat").json["view"]
    assert view["you"]["cards"] == []
    assert view["seats"][1]["adventurer"]["card_values"] == [card["value"]]
    assert ben.get("/api/seat").json["view"]["you"]["cards"] == [card]
