"""Inka through a phone's API: on its turn a seat is offered the steps the panel's menu
offers, each labelled as the game describes it, and a step the rules refuse is answered with
the rule's sentence and changes nothing (INKA-TURN-1, INKA-STAT-1, INKA-END-1)."""

from __future__ import annotations

from webplay import NAMES, seat_client

from companion.game import load_game
from companion.game.protocol import Command


def to_first_turn(app, host) -> None:
    """A new 3-player game, colours red, yellow, green; Ana begins; counters and tiles placed."""
    answer = host.post("/api/host/new-game", json={"game": "inka", "seats": NAMES, "options": {}})
    assert answer.status_code == 200, answer.json
    for seat, colour in enumerate(("red", "yellow", "green")):
        phone = seat_client(app, seat)
        step = {"type": "choose_colour", "colour": colour}
        assert phone.post("/api/seat/command", json=step).status_code == 200
    assert host.post("/api/host/command", json={"type": "first_player", "player": 0}).json["ok"]
    for step in ["place_counter"] * 3 + ["place_tile"] * 13:
        table = app.extensions["companion"].table
        phone = seat_client(app, table.prompts()[0].seat)
        assert phone.post("/api/seat/command", json={"type": step}).status_code == 200


def test_inka_turn_1_the_seat_in_turn_is_offered_the_panel_steps_in_the_game_words(app, host):
    to_first_turn(app, host)
    payload = seat_client(app, 0).get("/api/seat").json
    inka = load_game("inka")
    offers = [Command.from_json(c) for c in payload["offers"]]
    assert payload["offer_labels"] == [inka.describe(c) for c in offers]
    labels = set(payload["offer_labels"])
    assert {"Move a tile (1 pt)", "Red statue (1 pt)", "End turn"} <= labels
    # offered so that the phone can say why not, as the OLED does; not legal
    assert {"Yellow statue (1 pt)", "Leave by an exit", "Block a target tile"} <= labels
    assert not {"Yellow statue (1 pt)", "Leave by an exit"} & set(payload["labels"])
    waiting = seat_client(app, 1).get("/api/seat").json
    assert waiting["offers"] == waiting["legal"] == []


def test_inka_stat_1_end_1_a_refused_step_is_said_in_a_sentence_and_changes_nothing(app, host):
    to_first_turn(app, host)
    table = app.extensions["companion"].table
    ana = seat_client(app, 0)
    before = table.public_view()
    statue = ana.post("/api/seat/command", json={"type": "collect_statue", "colour": "yellow"})
    assert statue.status_code == 409
    assert statue.json["error"] == "Ana collects only red statues, not yellow ones."
    assert statue.json["rule"] == "INKA-STAT-1"
    out = ana.post("/api/seat/command", json={"type": "exit"})
    assert out.status_code == 409 and out.json["rule"] == "INKA-END-1"
    assert "0 of 3 statues" in out.json["error"]
    assert table.public_view() == before
    # a seat whose turn it is not has no such steps at all
    ben = seat_client(app, 1).post("/api/seat/command", json={"type": "collect_statue"})
    assert ben.status_code == 409
    assert ben.json["error"].startswith("That is not one of your actions now")
