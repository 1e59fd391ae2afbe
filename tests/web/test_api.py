"""The JSON API through Flask's test client: access, validation, rejections that change nothing."""

from __future__ import annotations

from webplay import NAMES, corrected_board, host_client, seat_client, start_game, to_first_roll

from companion.game import GAMES


def test_the_table_view_is_public_and_says_when_there_is_no_game(client):
    payload = client.get("/api/table").json
    assert payload["game"] is None
    assert payload["view"] == {"game": None}


def test_host_actions_need_the_pin(client, web):
    response = client.post("/api/host/new-game", json={"seats": NAMES})
    assert response.status_code == 403
    assert "PIN" in response.json["error"]
    wrong = "0" * 6 if web.access.pin != "0" * 6 else "1" * 6
    assert client.post("/api/host/login", json={"pin": wrong}).status_code == 403
    assert client.get("/api/host").status_code == 403
    assert client.post("/api/host/login", json={"pin": web.access.pin}).status_code == 200
    assert client.get("/api/host").status_code == 200


def test_pin_guessing_is_slowed_down(client, web):
    codes = [client.post("/api/host/login", json={"pin": "x"}).status_code for _ in range(8)]
    assert codes[:5] == [403] * 5
    assert codes[5:] == [429] * 3
    # even the right PIN waits: a guesser cannot tell when they hit it
    assert client.post("/api/host/login", json={"pin": web.access.pin}).status_code == 429


def test_host_cookie_is_httponly_and_samesite_strict(client, web):
    response = client.post("/api/host/login", json={"pin": web.access.pin})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_new_game_rejects_bad_setups_and_changes_nothing(host, table):
    bad = [
        {"seats": "Ana, Ben"},
        {"seats": ["Ana", ""]},
        {"seats": ["Ana", "B" * 40]},
        {"seats": NAMES, "options": {"treasure_mode": "magic"}},
        {"seats": NAMES, "options": ["digital"]},
        {"seats": NAMES, "seed": -3},
        {"seats": ["Solo"]},  # CHAC-SET-1: 2 to 6 players
    ]
    for body in bad:
        response = host.post("/api/host/new-game", json=body)
        assert 400 <= response.status_code < 500, body
        assert response.json["error"], body
        assert not table.has_game
    assert table.version == 0


def test_house_rules_are_passed_to_the_game(host, table):
    """CHAC-ALC-1 and CHAC-BOUL-1 (chosen) are named options the host sets."""
    options = {"alcove_faces": {"lava": [1, 2], "chasm": [4, 5, 6]}, "boulder_min_face": 4}
    assert (
        host.post("/api/host/new-game", json={"seats": NAMES, "options": options}).status_code
        == 200
    )
    view = table.public_view()
    assert view["options"]["alcove_faces"] == {"lava": [1, 2], "chasm": [4, 5, 6]}
    assert view["options"]["boulder_min_face"] == 4
    deep = {"alcove_faces": {"lava": [[[1]]]}}
    assert (
        host.post("/api/host/new-game", json={"seats": NAMES, "options": deep}).status_code == 400
    )


def test_a_rule_violation_is_a_409_naming_the_rule_and_changes_nothing(app, host, table):
    start_game(host)
    to_first_roll(app)
    before = table.version
    response = host.post("/api/host/command", json={"type": "dice", "values": [1, 2, 7, 3, 4]})
    assert response.status_code == 409
    assert response.json["error"]
    assert table.version == before
    # the right number of dice, each 1-6, is taken
    response = host.post("/api/host/command", json={"type": "dice", "values": [6, 6, 6, 6, 6]})
    assert response.status_code == 200
    assert table.version > before


def test_malformed_posts_get_clear_4xx_json(app, host):
    start_game(host)
    seat = seat_client(app, 0)
    cases = [
        seat.post("/api/seat/command", data="not json", content_type="application/json"),
        seat.post("/api/seat/command", json=[1, 2]),
        seat.post("/api/seat/command", json={"seat": 0}),
        seat.post("/api/seat/command", data="type=pass", content_type="text/plain"),
        seat.post("/api/seat/command", json={"type": "pass", "pad": "x" * 20000}),
    ]
    assert [c.status_code for c in cases] == [400, 400, 400, 415, 413]
    assert all(c.is_json and c.json["error"] for c in cases)


def test_a_phone_acts_only_for_its_own_seat(app, host, table):
    start_game(host)
    ana = seat_client(app, 0)
    ben_choice = seat_client(app, 1).get("/api/seat").json["legal"][0]
    before = table.version
    response = ana.post("/api/seat/command", json=ben_choice)
    assert response.status_code == 403
    # and cannot send the table's own commands (dice, corrections)
    response = ana.post("/api/seat/command", json={"type": "first_dicekeeper", "keeper": 0})
    assert response.status_code == 409
    assert table.version == before


def test_cross_site_posts_are_refused(app, host, table):
    start_game(host)
    ana = seat_client(app, 0)
    choice = ana.get("/api/seat").json["legal"][0]
    before = table.version
    evil = ana.post("/api/seat/command", json=choice, headers={"Sec-Fetch-Site": "cross-site"})
    assert evil.status_code == 403
    evil = ana.post("/api/seat/command", json=choice, headers={"Origin": "http://evil.example"})
    assert evil.status_code == 403
    assert table.version == before
    ok = ana.post(
        "/api/seat/command",
        json=choice,
        headers={"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"},
    )
    assert ok.status_code == 200


def test_requests_per_client_are_rate_limited(app, host):
    start_game(host)
    ana = seat_client(app, 0)
    codes = [ana.post("/api/seat/command", json={"type": "pass"}).status_code for _ in range(30)]
    assert 429 in codes
    assert codes[0] != 429
    # another phone is not slowed down by Ana's
    assert seat_client(app, 1).get("/api/seat").status_code == 200


def test_made_up_cookies_do_not_escape_the_rate_limit(app, host):
    start_game(host)
    codes = []
    for i in range(30):
        client = app.test_client()
        client.set_cookie("companion_seat", f"made-up-{i}")
        codes.append(client.post("/api/seat/command", json={"type": "pass"}).status_code)
    assert codes[0] == 403 and 429 in codes


def test_undo_reverts_the_last_command(app, host, table):
    start_game(host)
    to_first_roll(app)
    assert (
        host.post("/api/host/command", json={"type": "dice", "values": [6] * 5}).status_code == 200
    )
    assert table.public_view()["phase"] == "actions"
    assert host.post("/api/host/undo").status_code == 200
    assert table.public_view()["phase"] != "actions"
    assert table.public_view()["last_dice"] is None


def test_host_corrects_positions_and_seats_cannot(app, host, table):
    start_game(host)
    to_first_roll(app)
    assert (
        host.post("/api/host/command", json={"type": "dice", "values": [6] * 5}).status_code == 200
    )
    fix = {"type": "set_space", "player": 1, "to": "C3"}
    assert seat_client(app, 1).post("/api/seat/command", json=fix).status_code == 409
    assert host.post("/api/host/command", json=fix).status_code == 200
    assert table.public_view()["seats"][1]["adventurer"]["space"] == "C3"
    boulder = {"type": "set_boulder", "to": "C2"}
    assert host.post("/api/host/command", json=boulder).status_code == 200
    assert table.public_view()["boulder"]["space"] == "C2"
    nowhere = host.post("/api/host/command", json={"type": "set_space", "player": 1, "to": "X9"})
    assert nowhere.status_code == 409 and "X9" in nowhere.json["error"]
    assert table.public_view()["seats"][1]["adventurer"]["space"] == "C3"


def test_seat_page_lists_only_its_own_legal_commands(app, host):
    start_game(host)
    for seat in range(3):
        payload = seat_client(app, seat).get("/api/seat").json
        assert payload["seat"] == seat
        assert payload["legal"] and all(c["seat"] == seat for c in payload["legal"])
        assert payload["view"]["you"]["seat"] == seat


def test_host_page_gives_join_urls_with_the_lan_address(app, host, web):
    start_game(host)
    joins = host.get("/api/host").json["joins"]
    assert [j["name"] for j in joins] == NAMES
    for seat, join in enumerate(joins):
        assert join["url"].endswith(f":8080/join/{web.access.seat_token(seat)}")
        assert not join["url"].startswith("http://localhost")
    svg = host.get("/api/host/qr/0.svg")
    assert svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    assert host.get("/api/host/qr/5.svg").status_code == 404


def test_camera_preview_shows_a_placeholder_without_a_camera(host):
    response = host.get("/api/host/camera")
    assert response.mimetype == "image/svg+xml"
    assert b"No camera attached" in response.data


def test_camera_preview_serves_the_frame_the_service_feeds(table, data_dir):
    from web.app import create_app

    frame = b"\xff\xd8\xff\xe0fake-jpeg"
    app = create_app(table, data_dir, camera_frame=lambda: frame)
    response = host_client(app).get("/api/host/camera")
    assert response.mimetype == "image/jpeg" and response.data == frame
    app.extensions["companion"].broadcaster.close()


def test_pages_render(app, host):
    client = app.test_client()
    assert b"Temple of Chac" in client.get("/").data
    assert client.get("/seat").status_code == 403  # no seat cookie yet
    start_game(host)
    assert b"seat.js" in seat_client(app, 1).get("/seat").data
    assert b"host.js" in client.get("/host").data
    assert client.get("/join/not-a-token").status_code == 404
    csp = client.get("/").headers["Content-Security-Policy"]
    assert (
        "script-src 'self'" in csp
        and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    )
    board = client.get("/api/table/board").json
    assert "L(0,0)" in board["spaces"] and board["spaces"]["C0"]["kind"] == "corridor"


def test_the_host_ends_the_game_early_and_undo_takes_it_back_chac_end_2(app, host, table):
    """The host page's end_game ends and scores the game (CHAC-END-2) with its reveal checked
    (CHAC-FAIR-1); a phone cannot send it; undo carries the game on."""
    start_game(host)
    to_first_roll(app)
    offered = host.get("/api/host").json["legal"]
    assert {"type": "end_game", "seat": None} in offered
    before = table.version
    ana = seat_client(app, 0)
    assert ana.post("/api/seat/command", json={"type": "end_game"}).status_code == 409
    assert table.version == before
    assert host.post("/api/host/command", json={"type": "end_game"}).status_code == 200
    payload = host.get("/api/host").json
    assert payload["over"] and payload["reveal_checked"] is True
    assert payload["view"]["result"]["winners"] == []
    assert [s["adventurer"]["fate"] for s in payload["view"]["seats"]] == ["ended"] * 3
    assert host.post("/api/host/undo").status_code == 200
    payload = host.get("/api/host").json
    assert not payload["over"] and payload["view"]["roll"]["purpose"] == "actions"


def test_the_map_layout_follows_the_games_board_file(client, host, table, data_dir):
    """A game on a corrected board the owner installed gets that board's map, not the
    default one."""
    default = client.get("/api/table/board").json
    assert "C30" not in default["spaces"]
    path = corrected_board(data_dir / "boards")
    start_game(host, board="our-board")
    assert table.public_view()["board"] == {"name": "Our corrected temple", "file": str(path)}
    response = client.get("/api/table/board")
    assert response.headers["Cache-Control"] == "no-cache"
    board = response.json
    assert board["name"] == "Our corrected temple" and board["exit_from"] == "C30"
    assert board["spaces"]["C30"]["kind"] == "corridor" and board["corridor"][-1] == "C30"
    path.unlink()  # the file went away during the game: a clear refusal, not a wrong map
    response = client.get("/api/table/board")
    assert response.status_code == 404 and "board file" in response.json["error"]
    start_game(host)
    assert client.get("/api/table/board").json == default


def test_the_host_is_offered_every_registered_game_with_its_setup_options(host, client):
    """The setup form is generated from what each game declares."""
    assert client.get("/api/host/games").status_code in (401, 403)  # the host's alone
    games = host.get("/api/host/games").json
    assert [g["name"] for g in games] == list(GAMES)
    chac = next(g for g in games if g["name"] == "chac")
    assert chac["title"] == "Temple of Chac" and chac["uses_dice"] is True
    mode = next(o for o in chac["options"] if o["name"] == "mode")
    assert mode["default"] == "standard" and mode["choices"] == ["standard", "coop"]
    assert all(o["help"] for o in chac["options"])
