"""The glyph viewer's server side: the picture of a decipher is handed out once (CHAC-GLYPH-2)."""

from __future__ import annotations

import base64

from webplay import decipher, seat_client, start_game, write_glyph_pictures

from companion.game.chac.glyphs import GlyphCatalog
from companion.game.chac.hidden import deal_hidden
from web.app import create_app


def picture_of(answer: dict) -> bytes:
    header, data = answer["picture"].split(",", 1)
    assert header == "data:image/png;base64"
    return base64.b64decode(data)


def test_chac_glyph_2_decipher_shows_the_zone_trap_picture_once(app, host, data_dir):
    pictures = write_glyph_pictures(data_dir)
    start_game(host, seed=11)
    view = decipher(app)
    zone_one_trap = deal_hidden(11)[1]["traps"]["1"]
    assert view["you"]["decipher"]["zone"] == 1
    phone = seat_client(app, 0)
    answer = phone.post("/api/seat/reveal/glyph", json={}).json
    assert picture_of(answer) == pictures[zone_one_trap]
    assert answer["seconds"] == 5
    # a reload, a second phone on the same seat, and a restart do not show it again
    assert phone.post("/api/seat/reveal/glyph", json={}).status_code == 410
    assert seat_client(app, 0).post("/api/seat/reveal/glyph", json={}).status_code == 410
    restarted = create_app(app.extensions["companion"].table, data_dir)
    assert seat_client(restarted, 0).post("/api/seat/reveal/glyph", json={}).status_code == 410
    restarted.extensions["companion"].broadcaster.close()


def test_chac_glyph_2_other_seats_never_get_the_picture(app, host, data_dir):
    pictures = write_glyph_pictures(data_dir)
    start_game(host, seed=11)
    decipher(app)
    for seat in (1, 2):
        phone = seat_client(app, seat)
        response = phone.post("/api/seat/reveal/glyph", json={})
        assert response.status_code == 404
        body = phone.get("/api/seat").data
        assert not any(base64.b64encode(p) in body for p in pictures.values())
    assert app.test_client().post("/api/seat/reveal/glyph", json={}).status_code == 403


def test_chac_glyph_2_deciphering_again_shows_it_again(app, host, data_dir):
    write_glyph_pictures(data_dir)
    start_game(host, seed=11)
    decipher(app)
    phone = seat_client(app, 0)
    assert phone.post("/api/seat/reveal/glyph", json={}).status_code == 200
    assert phone.post("/api/seat/command", json={"type": "decipher"}).status_code == 200
    assert phone.post("/api/seat/reveal/glyph", json={}).status_code == 200
    assert phone.post("/api/seat/reveal/glyph", json={}).status_code == 410


def test_chac_glyph_2_without_a_picture_the_player_peeks_at_the_clue_tile(app, host, data_dir):
    start_game(host, seed=11)
    decipher(app)
    answer = seat_client(app, 0).post("/api/seat/reveal/glyph", json={}).json
    assert answer["picture"] is None
    assert "clue tile of zone 1" in answer["message"]


def test_catalog_reads_dir_glyphs_n_png(data_dir):
    catalog = GlyphCatalog(data_dir)
    assert catalog.available() == [] and catalog.picture(3) is None
    pictures = write_glyph_pictures(data_dir)
    assert catalog.available() == list(range(1, 15))
    assert catalog.picture(3) == pictures[3]
    assert catalog.picture(15) is None and catalog.picture(0) is None


def test_a_reveal_the_game_does_not_offer_is_refused_and_hands_out_nothing(app, host, data_dir):
    """The seat route serves only the reveals the game on the table names: another name is a
    404 that claims nothing, so the glyph is still shown once afterwards (CHAC-GLYPH-2)."""
    write_glyph_pictures(data_dir)
    start_game(host, seed=11)
    decipher(app)
    phone = seat_client(app, 0)
    wrong = phone.post("/api/seat/reveal/peek", json={})
    assert wrong.status_code == 404 and "no private 'peek'" in wrong.json["error"]
    assert phone.post("/api/seat/reveal/glyph", json={}).status_code == 200


def test_a_game_without_private_reveals_shows_none(app, host):
    response = host.post(
        "/api/host/new-game", json={"game": "inka", "seats": ["Ana", "Ben"], "options": {}}
    )
    assert response.status_code == 200, response.json
    answer = seat_client(app, 0).post("/api/seat/reveal/glyph", json={})
    assert answer.status_code == 404
    assert answer.json["error"] == "This game has nothing to show privately."


def test_hand_outs_are_owner_only(app, host, data_dir):
    """The record of what was shown sits beside the secrets, owner-only."""
    write_glyph_pictures(data_dir)
    start_game(host, seed=11)
    decipher(app)
    assert seat_client(app, 0).post("/api/seat/reveal/glyph", json={}).status_code == 200
    assert (data_dir / "reveals_shown.json").stat().st_mode & 0o077 == 0
