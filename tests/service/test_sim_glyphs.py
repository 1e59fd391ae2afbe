"""The simulated table has a glyph picture for every number, so Decipher shows a glyph on a
laptop (CHAC-GLYPH-2) without a calibration run; a catalog the owner made is kept."""

from __future__ import annotations

from tablehttp import Phone, host

from companion.game.chac import catalog
from companion.game.chac.tile_art import render_face


def test_decipher_on_the_simulated_table_shows_a_glyph_picture(start_service, tmp_path):
    data_dir = tmp_path / "data"
    own = render_face(3, "number")  # any picture that is not the stand-in glyph
    catalog.save_glyph(data_dir, 5, own)
    running = start_service()
    assert catalog.stored_numbers(data_dir) == list(catalog.GLYPH_NUMBERS)
    assert (catalog.load_glyph(data_dir, 5) == own).all()  # the owner's picture stays

    host_phone = host(running.base, running.pin)
    status, _ = host_phone.post("/api/host/new-game", {"seats": ["Ana", "Ben"], "options": {}})
    assert status == 200
    joins = host_phone.get("/api/host")[1]["joins"]
    phones = [Phone(running.base) for _ in joins]
    for phone, join in zip(phones, joins, strict=True):
        phone.get("/" + join["url"].split("/", 3)[3])
        choice = phone.get("/api/seat")[1]["legal"][0]
        assert phone.post("/api/seat/command", choice)[0] == 200
    assert host_phone.post("/api/host/command", {"type": "first_dicekeeper", "keeper": 0})[0] == 200
    assert host_phone.post("/api/host/command", {"type": "dice", "values": [6] * 5})[0] == 200
    ana = phones[0]
    assert ana.post("/api/seat/command", {"type": "move", "to": "Z1"})[0] == 200
    assert ana.post("/api/seat/command", {"type": "decipher"})[0] == 200
    decipher = ana.get("/api/seat")[1]["view"]["you"]["decipher"]
    status, answer = ana.post("/api/seat/reveal/glyph", {"id": decipher["id"]})
    assert status == 200, answer
    assert answer["picture"].startswith("data:image/png;base64,")
