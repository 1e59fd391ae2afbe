"""What a phone is told is in players' words: no rule IDs, no command names, and at the end
the seat page gets the scores and the checked reveal; no glyph is handed out after the end."""

from __future__ import annotations

from webplay import (
    decipher,
    host_client,
    seat_client,
    start_game,
    to_first_roll,
    write_glyph_pictures,
)


def test_a_refused_move_tells_the_player_why_without_the_rule_id(app, host, table):
    """CHAC-MOVE-1: a space that is not next to the adventurer is refused; the phone reads
    the reason, the rule ID stays in "rule" for whoever looks it up."""
    start_game(host)
    to_first_roll(app)
    assert (
        host.post("/api/host/command", json={"type": "dice", "values": [6] * 5}).status_code == 200
    )
    before = table.version
    answer = seat_client(app, 0).post("/api/seat/command", json={"type": "move", "to": "Z3"})
    assert answer.status_code == 409
    assert answer.json["error"] == "Z3 is not next to E across a dashed line."
    assert answer.json["rule"] == "CHAC-MOVE-1"
    assert table.version == before
    # the host still sees the rule ID, to look it up in the rules
    host_answer = host.post("/api/host/command", json={"type": "move", "seat": 0, "to": "Z3"})
    assert host_answer.json["error"].endswith(f"({host_answer.json['rule']})")


def test_a_command_the_seat_does_not_have_is_refused_in_plain_words(app, host):
    start_game(host)
    ana = seat_client(app, 0)
    for kind in ("no_such_command", "walls"):
        answer = ana.post("/api/seat/command", json={"type": kind})
        assert answer.status_code == 409
        assert answer.json["error"] == (
            "That is not one of your actions now; the buttons show what you can do."
        )


def test_chac_glyph_2_no_glyph_is_handed_out_once_the_game_is_over(app, host, data_dir):
    write_glyph_pictures(data_dir)
    start_game(host)
    decipher(app)
    assert host.post("/api/host/command", json={"type": "end_game"}).status_code == 200
    answer = seat_client(app, 0).post("/api/seat/reveal/glyph", json={})
    assert answer.status_code == 410
    assert "over" in answer.json["error"]


def test_chac_fair_1_the_seat_page_gets_the_scores_and_the_checked_reveal(app, host):
    start_game(host)
    to_first_roll(app)
    ben = seat_client(app, 1)
    assert "reveal_checked" not in ben.get("/api/seat").json
    assert host_client(app).post("/api/host/command", json={"type": "end_game"}).status_code == 200
    payload = ben.get("/api/seat").json
    assert payload["reveal_checked"] is True
    assert payload["view"]["result"] is not None and payload["view"]["reveal"] is not None


def test_an_undo_leaves_a_line_in_the_log_every_page_reads(app, host, client):
    start_game(host)
    to_first_roll(app)
    assert (
        host.post("/api/host/command", json={"type": "dice", "values": [6] * 5}).status_code == 200
    )
    ana = seat_client(app, 0)
    assert ana.post("/api/seat/command", json={"type": "move", "to": "Z1"}).status_code == 200
    moved = client.get("/api/table").json["view"]["log"][-1]
    assert host.post("/api/host/undo").status_code == 200
    for page in (client.get("/api/table"), ana.get("/api/seat"), host.get("/api/host")):
        assert page.json["view"]["log"][-1] == f"Undone by the host: {moved}"
