"""No hidden value reaches a page that may not see it: many random games are played through the
pages' API, and every response is scanned for the secrets of the moment (CHAC-FAIR-1,
CHAC-GLYPH-2)."""

from __future__ import annotations

import base64
import json

import pytest
from webplay import host_client, seat_client, write_glyph_pictures

from companion.game import load_game
from companion.game.chac.hidden import deal_hidden
from companion.game.random_play import play_random_game
from web.app import Limits, create_app

GAMES = [
    (["Ana", "Ben", "Caro"], 101, "digital"),
    (["Ana", "Ben"], 202, "digital"),
    (["Ana", "Ben", "Caro", "Dan", "Eve"], 303, "digital"),
    (["Ana", "Ben", "Caro", "Dan"], 404, "physical"),
    (["Ana", "Ben", "Caro", "Dan", "Eve", "Fay"], 505, "digital"),
    (["Ana", "Ben", "Caro"], 606, "physical"),
]


def compact(value) -> str:
    return json.dumps(value, separators=(",", ":"))


class Scanner:
    """The secrets of the moment, and the check that a response shows none of them."""

    def __init__(self, seed: int, pictures: dict[int, bytes]):
        self.salt, self.hidden = deal_hidden(seed)
        self.pictures = {n: base64.b64encode(p).decode() for n, p in pictures.items()}
        self.checked = 0

    def check(self, body: str, view: dict, allowed_picture: int | None = None) -> None:
        self.checked += 1
        if view.get("phase") == "over":
            return  # the reveal (CHAC-FAIR-1) makes everything public
        assert self.salt not in body, "the commitment's salt leaked"
        assert '"caskets"' not in body, "casket values leaked"
        walls = self.hidden["walls"]
        shown = len(walls) - view["walls"]["cards_left"]
        if len(walls) - shown >= 3:
            assert compact(walls[shown:]) not in body, "the wall deck order leaked"
        for deck in self.hidden["decks"].values():
            assert compact(deck) not in body, "a treasure deck order leaked"
        for number, picture in self.pictures.items():
            if number != allowed_picture:
                assert picture not in body, f"glyph picture {number} leaked"


@pytest.mark.slow
@pytest.mark.parametrize(("names", "seed", "mode"), GAMES)
def test_random_games_never_show_a_secret_to_the_wrong_page(table, data_dir, names, seed, mode):
    pictures = write_glyph_pictures(data_dir)
    app = create_app(
        table, data_dir, limits=Limits(reads=(1e6, 1e6), writes=(1e6, 1e6)), fixed_seeds=True
    )
    scanner = Scanner(seed, pictures)
    played = play_random_game(load_game("chac"), names, seed, {"treasure_mode": mode})
    host = host_client(app)
    response = host.post(
        "/api/host/new-game",
        json={"seats": names, "seed": seed, "options": {"treasure_mode": mode}},
    )
    assert response.status_code == 200
    public = app.test_client()
    phones = [seat_client(app, seat) for seat in range(len(names))]
    shown_glyphs = 0
    for command in played.commands:
        body = command.to_json()
        if command.seat is None:
            response = host.post("/api/host/command", json=body)
        else:
            response = phones[command.seat].post("/api/seat/command", json=body)
        assert response.status_code == 200, (body, response.json)

        table_view = public.get("/api/table")
        view = table_view.json["view"]
        scanner.check(table_view.get_data(as_text=True), view)
        assert "you" not in view
        host_view = host.get("/api/host")
        scanner.check(host_view.get_data(as_text=True), view)
        hands = {}
        for seat, phone in enumerate(phones):
            mine = phone.get("/api/seat")
            you = mine.json["view"]["you"]
            assert you["seat"] == seat
            scanner.check(mine.get_data(as_text=True), view)
            hands[seat] = {card["id"] for card in you.get("cards") or []}
            if command.type == "decipher" and command.seat == seat:
                glyph = phone.post("/api/seat/reveal/glyph", json={})
                assert glyph.status_code == 200
                scanner.check(glyph.get_data(as_text=True), view, you["decipher"]["number"])
                shown_glyphs += 1
        # another player's cards: their ids appear only on their own page
        for seat, phone in enumerate(phones):
            text = phone.get("/api/seat").get_data(as_text=True)
            for other, cards in hands.items():
                if other != seat and view["phase"] != "over":
                    assert not any(f'"id":"{card}"' in text for card in cards)
        if view["phase"] != "over":
            for text in (table_view.get_data(as_text=True), host_view.get_data(as_text=True)):
                assert '"cards":[{' not in text, "card values on a shared page"
    assert view["phase"] == "over"
    # CHAC-FAIR-1: the reveal is shown, and checked against the commitment
    assert public.get("/api/table").json["reveal_checked"] is True
    assert shown_glyphs == sum(c.type == "decipher" for c in played.commands)
    assert scanner.checked > 100
    app.extensions["companion"].broadcaster.close()
