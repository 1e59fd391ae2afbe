"""The glyph viewer's server side: the picture of a decipher is handed out once (CHAC-GLYPH-2)."""

from __future__ import annotations

import base64

from webplay import decipher, seat_client, start_game, write_glyph_pictures

from companion.game.chac.hidden import deal_hidden
from web.app import create_app
from web.glyphs import GlyphCatalog


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
    answer = phone.post("/api/seat/glyph", json={}).json
    assert picture_of(answer) == pictures[zone_one_trap]
    assert answer["seconds"] == 5
    # a reload, a second phone on the same seat, and a restart do not show it again
    assert phone.post("/api/seat/glyph", json={}).status_code == 410
    assert seat_client(app, 0).post("/api/seat/glyph", json={}).status_code == 410
    restarted = create_app(app.extensions["companion"].table, data_dir)
    assert seat_client(restarted, 0).post("/api/seat/glyph", json={}).status_code == 410
    restarted.extensions["companion"].broadcaster.close()


def test_chac_glyph_2_other_seats_never_get_the_picture(app, host, data_dir):
    pictures = write_glyph_pictures(data_dir)
    start_game(host, seed=11)
    decipher(app)
    for seat in (1, 2):
        phone = seat_client(app, seat)
        response = phone.post("/api/seat/glyph", json={})
        assert response.status_code == 404
        body = phone.get("/api/seat").data
        assert not any(base64.b64encode(p) in body for p in pictures.values())
    assert app.test_client().post("/api/seat/glyph", json={}).status_code == 403


def test_chac_glyph_2_deciphering_again_shows_it_again(app, host, data_dir):
    write_glyph_pictures(data_dir)
    start_game(host, seed=11)
    decipher(app)
    phone = seat_client(app, 0)
    assert phone.post("/api/seat/glyph", json={}).status_code == 200
    assert phone.post("/api/seat/command", json={"type": "decipher"}).status_code == 200
    assert phone.post("/api/seat/glyph", json={}).status_code == 200
    assert phone.post("/api/seat/glyph", json={}).status_code == 410


def test_chac_glyph_2_without_a_picture_the_player_peeks_at_the_clue_tile(app, host, data_dir):
    start_game(host, seed=11)
    decipher(app)
    answer = seat_client(app, 0).post("/api/seat/glyph", json={}).json
    assert answer["picture"] is None
    assert "clue tile of zone 1" in answer["message"]


def test_catalog_reads_dir_glyphs_n_png(data_dir):
    catalog = GlyphCatalog(data_dir)
    assert catalog.available() == [] and catalog.picture(3) is None
    pictures = write_glyph_pictures(data_dir)
    assert catalog.available() == list(range(1, 15))
    assert catalog.picture(3) == pictures[3]
    assert catalog.picture(15) is None and catalog.picture(0) is None
