"""The host picks the game at setup, and the form is generated from that game's declared
options and seat range; a game's own setup fields come from the page part its bundle ships."""

from __future__ import annotations

import pytest

from companion.game import GAMES, load_game

DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def test_the_games_list_names_each_games_page_parts(host):
    games = {g["name"]: g for g in host.get("/api/host/games").json}
    assert set(games) == set(GAMES)
    assert "host.js" in games["chac"]["parts"]
    part = host.get("/parts/chac/host.js")
    assert part.status_code == 200 and part.mimetype == "text/javascript"
    assert b"Parts.define" in part.data


@pytest.mark.parametrize(
    "path", ["/parts/chac/game.py", "/parts/chac/..%2fgame.py", "/parts/nope/host.js"]
)
def test_only_a_registered_games_page_parts_are_served(client, path):
    assert client.get(path).status_code == 404


def sign_in(browser, live_server):
    page = browser.new_context(**DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"http://127.0.0.1:{live_server.port}/host")
    page.fill("#pin", live_server.app.extensions["companion"].access.pin)
    page.click("#login-form button")
    page.wait_for_selector("#setup-options select")
    return page, errors


@pytest.mark.browser
def test_the_host_sets_up_moctezuma_from_its_own_options(live_server, browser):
    host, errors = sign_in(browser, live_server)
    game = load_game("moctezuma")
    host.select_option("#setup-game", label=game.title)
    host.wait_for_selector("#setup-options [name=curse_rule]")
    # One field per declared option, each with its sentence; none of Chac's fields remain.
    for option in game.options:
        assert host.locator(f"#setup-options [name={option.name}]").count() == 1
        assert option.help in host.text_content("#setup-options")
    assert (
        host.locator("#setup-options [name=mode], #setup-options [name=alcove_lava]").count() == 0
    )
    # Seats within the game's range: never fewer than two.
    for _ in range(3):
        host.click("#drop-seat")
    assert host.locator("#setup-seats input").count() == game.min_seats
    for i, name in enumerate(["Ana", "Ben"]):
        host.locator("#setup-seats input").nth(i).fill(name)
    host.select_option("#setup-options [name=curse_rule]", "any")
    host.select_option("#setup-options [name=carry_points]", "true")
    host.click("#setup-form button[type=submit]")
    host.wait_for_selector("#seats figure >> nth=1")

    table = live_server.app.extensions["companion"].table
    assert table.game_name == "moctezuma" and table.seats == ["Ana", "Ben"]
    options = table.public_view()["options"]
    assert options["curse_rule"] == "any" and options["carry_points"] is True
    assert options["return_order"] == "drawn"  # its default, untouched
    assert not errors, errors


@pytest.mark.browser
def test_inka_seats_stop_at_its_most_players(live_server, browser):
    host, errors = sign_in(browser, live_server)
    host.select_option("#setup-game", "inka")
    host.wait_for_selector("#setup-options [name=strict_phases]")
    for _ in range(4):
        host.click("#add-seat")
    assert host.locator("#setup-seats input").count() == load_game("inka").max_seats
    assert not errors, errors


@pytest.mark.browser
def test_the_game_starts_only_once_its_setup_has_loaded(live_server, browser):
    # Names typed into a form whose game has not loaded yet would start nothing.
    page = browser.new_context(**DESKTOP).new_page()
    held, released = [], []

    def hold(route):
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/parts/**", hold)
    page.goto(f"http://127.0.0.1:{live_server.port}/host")
    page.fill("#pin", live_server.app.extensions["companion"].access.pin)
    page.click("#login-form button")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the game's page part was never asked for"
    for button in ("#setup-start", "#add-seat", "#drop-seat"):
        assert page.locator(button).is_disabled(), button
    assert page.locator("#setup-seats input").count() == 0
    released.append(True)
    for route in held:
        route.continue_()
    page.wait_for_selector("#setup-start:enabled")
    assert page.locator("#setup-seats input").count() == 3
    page.click("#drop-seat")  # once the seats are shown, one can be removed
    assert page.locator("#setup-seats input").count() == 2
