"""The seat page on a 390x844 phone in Debian's Chromium: a first-timer chooses an adventurer
knowing its ability, reads a readable map with thumb-sized targets, sees what just happened to
them without scrolling, plays a second game on the page left open, and gets the scores."""

from __future__ import annotations

import pytest
from test_browser import shot, wait_until, watch_errors
from webplay import host_client, seat_client, start_game, to_first_roll, write_glyph_pictures

pytestmark = pytest.mark.browser

PHONE_390 = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
FOUR = ["Ana", "Ben", "Caro", "Dan"]


def in_viewport(page, selector: str) -> bool:
    """The element is on screen now, whole, without scrolling."""
    return page.evaluate(
        """sel => { const n = document.querySelector(sel); if (!n || n.hidden) return false;
            const r = n.getBoundingClientRect();
            return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""",
        selector,
    )


def boxes(page, selector: str) -> list[dict]:
    return page.evaluate(
        """sel => [...document.querySelectorAll(sel)].map((n) => {
            const r = n.getBoundingClientRect();
            return {x: r.x, y: r.y, w: r.width, h: r.height,
                    name: n.dataset.target || n.dataset.spaceLabel || n.textContent};
        })""",
        selector,
    )


def overlap(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and (a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])
    )


def open_seat(browser, base: str, app, seat: int, errors: list[str]):
    page = browser.new_context(**PHONE_390).new_page()
    watch_errors(page, errors)
    page.goto(base + app.extensions["companion"].access.join_path(seat))
    page.wait_for_selector("#status[data-state=live]")
    return page


def test_a_first_turn_on_a_390_px_phone(live_server, browser):
    """CHAC-SET-1 (choose with the ability shown), CHAC-LL-1 (load level 2 before the first
    round), then a turn: map targets >= 44 px, labels readable and not hidden, and the outcome
    of each of my actions on screen without scrolling."""
    app = live_server.app
    base = f"http://127.0.0.1:{live_server.port}"
    errors: list[str] = []
    host = host_client(app)
    start_game(host, names=FOUR)
    ana = open_seat(browser, base, app, 0, errors)

    # The dealt pair, each with what its ability does.
    dealt = seat_client(app, 0).get("/api/seat").json["view"]["you"]["dealt_abilities"]
    choices = ana.locator("#actions button[data-command=choose_adventurer]")
    assert choices.count() == 2
    words = {"sprint": "Sprint:", "stamina": "Stamina:", "linguistics": "Linguistics:"}
    words |= {"swimming": "Swimming:", "lock_picking": "Lock Picking:", "leap": "Leap:"}
    for i, (name, ability) in enumerate(dealt.items()):
        text = choices.nth(i).text_content()
        assert name in text and words[ability] in text
    shot(ana, "phone-choose")
    choices.nth(0).click()
    wait_until(ana, "document.querySelector('#actions-card').hidden")
    load = ana.locator("#mine .fact", has_text="load level").locator("b").text_content()
    assert load == "2"

    for seat in range(1, 4):
        phone = seat_client(app, seat)
        assert (
            phone.post(
                "/api/seat/command", json=phone.get("/api/seat").json["legal"][0]
            ).status_code
            == 200
        )
    assert (
        host.post("/api/host/command", json={"type": "first_dicekeeper", "keeper": 0}).status_code
        == 200
    )
    # A roll prompt says who rolls.
    wait_until(ana, "document.querySelector('#prompt').textContent.includes('roll 5 dice')")
    assert ana.text_content("#prompt").startswith("Ana, the dicekeeper: roll 5 dice")
    assert (
        host.post("/api/host/command", json={"type": "dice", "values": [6] * 5}).status_code == 200
    )
    ana.wait_for_selector("[data-target='Z1'].target-hit")
    adventurer = seat_client(app, 0).get("/api/seat").json["view"]["seats"][0]["adventurer"]
    prompt = ana.text_content("#prompt")
    assert prompt.startswith(f"Ana ({adventurer['first_name']}): ") and "actions left" in prompt

    # The map: thumb-sized targets, readable labels the tokens leave free, the boulder's
    # word inside its stone, the walls beside the zone spaces, not across them.
    ana.locator(".map-wrap").scroll_into_view_if_needed()
    shot(ana, "phone-map")
    targets = boxes(ana, "#map .target-hit")
    assert targets and all(t["w"] >= 44 and t["h"] >= 44 for t in targets), targets
    labels = boxes(ana, "#map [data-space-label]")
    assert min(label["h"] for label in labels) >= 11, labels
    entrance = next(label for label in labels if label["name"] == "E")
    tokens = boxes(ana, "#map [data-adventurer] circle")
    assert len(tokens) == 4
    middle = {"x": entrance["x"] + entrance["w"] * 0.25, "y": entrance["y"] + 2}
    middle |= {"w": entrance["w"] * 0.5, "h": entrance["h"] - 4}
    assert not any(overlap(middle, t) for t in tokens), (entrance, tokens)
    word = boxes(ana, "#map [data-boulder-label]")[0]
    stone = boxes(ana, "#map circle[data-boulder]")[0]
    assert stone["x"] <= word["x"] and word["x"] + word["w"] <= stone["x"] + stone["w"]
    zones = boxes(ana, "#map circle.sp-zone")
    walls = boxes(ana, "#map [data-wall]")
    assert len(zones) == 4 and not any(overlap(w, z) for w in walls for z in zones)

    # My move, tapped on the map: what happened shows where I look, without scrolling.
    ana.click("[data-target='Z1'].target-hit")
    moved = f"{adventurer['first_name']} moves to Z1"
    wait_until(ana, f"document.querySelector('#outcome').textContent.includes('{moved}')")
    assert in_viewport(ana, "#outcome")
    ana.click("#outcome")  # tapped away
    assert ana.locator("#outcome").is_hidden()
    ana.click("#actions button[data-command=search]")
    wait_until(ana, "document.querySelector('#outcome').textContent.includes('You drew')")
    assert in_viewport(ana, "#outcome")
    shot(ana, "phone-outcome")

    # Round 2's load phase: discarding asks for the cards to be tapped first (CHAC-LL-1).
    for seat in range(4):
        assert (
            seat_client(app, seat).post("/api/seat/command", json={"type": "pass"}).status_code
            == 200
        )
    assert host.post("/api/host/command", json={"type": "walls"}).status_code == 200
    boulder = host.get("/api/host").json["prompts"][0]
    assert boulder["purpose"] == "boulder"
    dice = {"type": "dice", "values": [1] * boulder["dice"]}
    assert host.post("/api/host/command", json=dice).status_code == 200
    discard = ana.locator("#actions button[data-command=discard]")
    discard.wait_for()
    assert discard.is_disabled()
    ana.click("#actions .tcard")
    assert ana.locator("#actions button[data-command=discard]").text_content().endswith("(1)")
    assert ana.locator("#actions button[data-command=discard]").is_enabled()

    # Walls closed to their last step (CHAC-WALL-3) still stop beside the zone spaces.
    ana.evaluate(
        """async () => {
            const view = (await (await fetch("/api/seat")).json()).view;
            view.walls = {...view.walls, left: 3, right: 3, closed: true};
            await Board.draw(document.getElementById("map"), view, {minScale: 46});
        }"""
    )
    walls = boxes(ana, "#map [data-wall]")
    assert [w["w"] > 10 for w in walls] == [True, True]
    zones = boxes(ana, "#map circle.sp-zone")
    assert not any(overlap(w, z) for w in walls for z in zones), (walls, zones)
    assert not errors, errors


def test_a_second_game_on_pages_left_open_then_the_scores(live_server, browser, data_dir):
    """CHAC-GLYPH-2: decipher shows the glyph in a second game without a reload (decipher ids
    restart every game); at the end (CHAC-END-2) the seat page shows the scores and the
    checked reveal (CHAC-FAIR-1), no glyph, and nobody's replacement is said to wait."""
    write_glyph_pictures(data_dir)
    app = live_server.app
    base = f"http://127.0.0.1:{live_server.port}"
    errors: list[str] = []
    host = host_client(app)
    start_game(host)
    ana = open_seat(browser, base, app, 0, errors)
    table_page = browser.new_context(**PHONE_390).new_page()
    watch_errors(table_page, errors)
    table_page.goto(f"{base}/")

    for game in (1, 2):
        if game == 2:
            start_game(host, seed=2)
        to_first_roll(app)
        assert (
            host.post("/api/host/command", json={"type": "dice", "values": [6] * 5}).status_code
            == 200
        )
        ana.click("#actions button[data-command=move]")  # from the entrance: zone 1 only
        ana.click("#actions button[data-command=decipher]")
        ana.wait_for_selector("#glyph-img", timeout=5000)
        if game == 1:
            ana.wait_for_selector("#glyph-img", state="detached", timeout=8000)
    shot(ana, "phone-glyph-second-game")

    # The host ends the game while the glyph is still up: it goes, the scores come.
    assert host.post("/api/host/command", json={"type": "end_game"}).status_code == 200
    ana.wait_for_selector("#scores-card:not([hidden]) #reveal-check[data-checked=true]")
    assert ana.locator("#glyph").is_hidden() and ana.locator("#glyph-img").count() == 0
    assert "did not escape" in ana.text_content("#scores")
    # Ana's own fate, big and on screen: her adventurer is out, the game is over.
    wait_until(ana, "document.querySelector('#outcome').textContent.includes('is out of the game')")
    assert ana.get_attribute("#outcome", "data-tone") == "bad"
    assert in_viewport(ana, "#outcome")
    ana.evaluate("window.scrollTo(0, 0)")
    assert in_viewport(ana, "#scores-card h2")
    shot(ana, "phone-scores")
    table_page.wait_for_selector("#scores-card:not([hidden])")
    # The table page on the same phone keeps the map's names readable too (it scrolls).
    assert min(label["h"] for label in boxes(table_page, "#map [data-space-label]")) >= 11
    assert "replacement waiting" not in table_page.text_content("#people")
    assert "replacement" not in ana.text_content("#mine").lower()
    assert not errors, errors


def test_falling_into_the_lava_is_shown_big_on_my_phone(live_server, browser):
    """CHAC-LAVA-1: I turn a slab over, tap its number, it is a trap: my phone says at once,
    on screen, that my adventurer fell into the lava and is out."""
    app = live_server.app
    base = f"http://127.0.0.1:{live_server.port}"
    errors: list[str] = []
    host = host_client(app)
    start_game(host)
    to_first_roll(app)
    assert (
        host.post("/api/host/command", json={"type": "dice", "values": [6] * 5}).status_code == 200
    )
    place = {"type": "set_space", "player": 0, "to": "C9"}  # a host's correction
    assert host.post("/api/host/command", json=place).status_code == 200
    ana = open_seat(browser, base, app, 0, errors)
    for space in ("C10", "L(3,0)", "L(2,0)"):  # the last one a slab, turned over
        ana.click(f"#actions button[data-command=move] >> text='Move to {space}'")
    trap = seat_client(app, 0).get("/api/seat").json["view"]["traps"]["1"]
    ana.click(f"#actions .row button >> text='{trap}'")
    wait_until(ana, "document.querySelector('#outcome').textContent.includes('is out of the game')")
    assert "falls into the lava" in ana.text_content("#outcome")
    assert ana.get_attribute("#outcome", "data-tone") == "bad"
    assert in_viewport(ana, "#outcome")
    shot(ana, "phone-lava")
    assert not errors, errors
