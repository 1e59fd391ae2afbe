"""The host PIN is shown to the people at the table (the OLED, and /sim on a simulated table),
never written to the companion's output or log, which under systemd is the system journal."""

from __future__ import annotations

import logging
import re

from servicekit import to_first_roll, wait_for


def test_the_pin_is_on_the_screen_and_the_sim_page_not_in_the_output(start_service, capsys, caplog):
    caplog.set_level(logging.DEBUG)
    running = start_service()
    service = running.service
    output = wait_for(lambda: capsys.readouterr().out)
    assert "Host page:" in output and "(PIN on the simulated table)" in output
    assert wait_for(lambda: f"PIN {running.pin}" in service.panel.screen().text)  # the OLED
    page = service.web.app.test_client().get("/sim", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert re.search(rf'id="sim-pin">{running.pin}<', page.text)
    to_first_roll(service.table)  # the OLED moves on to the game; /sim keeps the PIN
    page = service.web.app.test_client().get("/sim", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert f">{running.pin}<" in page.text
    assert running.pin not in output + capsys.readouterr().out
    assert running.pin not in caplog.text
