"""Hostile requests get a clear 4xx and change nothing: nested JSON, odd digits, NUL bytes,
foreign Host headers (DNS rebinding). bench/hostile.py sends 10,000 to the running companion."""

from __future__ import annotations

import pytest
from hostile import hostile_requests, request, send, server_error
from webplay import host_client, seat_client, start_game

from web.access import HOST_COOKIE, SEAT_COOKIE
from web.app import create_app

JSON_POSTS = [
    "/api/host/login",
    "/api/host/new-game",
    "/api/host/command",
    "/api/seat/command",
    "/api/host/calibration/start",
    "/api/host/calibration/corners",
    "/api/host/calibration/number",
]


def everything_shown(app) -> list:
    """What every page shows: the table's, each seat's and the host's view."""
    host = app.test_client()  # signed in without the PIN: hostile logins use up its tries
    host.set_cookie(HOST_COOKIE, app.extensions["companion"].access.open_host_session())
    views = [app.test_client().get("/api/table").json, host.get("/api/host").json]
    seats = len(app.extensions["companion"].table.seats)
    views += [seat_client(app, seat).get("/api/seat").json for seat in range(seats)]
    return views


@pytest.mark.parametrize("path", JSON_POSTS)
def test_deeply_nested_json_is_a_400_on_every_json_post(app, host, table, path):
    start_game(host)
    before = everything_shown(app)
    client = host if path.startswith("/api/host") else seat_client(app, 0)
    for depth in (20, 2500):
        for nested in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth):
            response = client.post(path, data=nested, content_type="application/json")
            assert response.status_code == 400, (path, depth)
            assert "JSON object" in response.json["error"] or "nested" in response.json["error"]
        inside = '{"pin": ' + "[" * depth + "]" * depth + "}"
        response = client.post(path, data=inside, content_type="application/json")
        assert response.status_code == 400, (path, depth)
    assert everything_shown(app) == before


def test_the_tile_number_takes_ascii_digits_only(host):
    host.post("/api/host/calibration/start", json={"step": "glyphs"})
    for typed in ("²", "①", "７", "1²", "٣"):
        response = host.post("/api/host/calibration/number", json={"number": typed})
        assert response.status_code == 400, typed
        assert "number, 1-14" in response.json["error"]
    # plain digits pass the field's check (no tile is waiting, so nothing is stored)
    response = host.post("/api/host/calibration/number", json={"number": " 7 "})
    assert response.status_code == 200 and response.json["ok"] is False


def test_a_dns_rebinding_request_is_refused(app, host, table):
    """A page on evil.example whose name now points at the companion: its requests carry its
    own name in Host (and look same-origin to the browser)."""
    start_game(host)
    before = everything_shown(app)
    rebound = {
        "Host": "evil.example:8080",
        "Origin": "http://evil.example:8080",
        "Sec-Fetch-Site": "same-origin",
    }
    client = app.test_client()
    pin = app.extensions["companion"].access.pin
    response = client.post("/api/host/login", json={"pin": pin}, headers=rebound)
    assert response.status_code == 421
    assert HOST_COOKIE not in response.headers.get("Set-Cookie", "")
    assert client.get("/api/table", headers={"Host": "evil.example"}).status_code == 421
    assert client.get("/", headers={"Host": "chac.local.evil.example"}).status_code == 421
    assert everything_shown(app) == before


def test_the_companions_own_names_and_addresses_are_answered(table, data_dir):
    app = create_app(table, data_dir, names=["chac.local"])
    client = app.test_client()
    for host in ("localhost", "127.0.0.1:8080", "192.168.1.20:8080", "[::1]:8080", "CHAC.local"):
        assert client.get("/api/table", headers={"Host": host}).status_code == 200, host
    for foreign in ("chac.example", "[::1", "127.0.0.1.evil.example"):
        assert client.get("/api/table", headers={"Host": foreign}).status_code == 421, foreign
    app.extensions["companion"].broadcaster.close()


def test_a_nul_byte_in_the_request_line_gets_an_answer(live_server):
    for line in (
        b"GET /\x00 HTTP/1.1",
        b"GET /api/table\x00 HTTP/1.1",
        b"GET\x00/ HTTP/1.1",
        b"POST /api/host/login\x00 HTTP/1.1",
        b"GET /join/%00 HTTP/1.1",
    ):
        raw = line + b"\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        status = send(live_server.port, raw)
        assert status is not None and 400 <= status < 500, (line, status)
    assert send(live_server.port, request("GET", b"/api/table")) == 200


def test_hundreds_of_hostile_requests_get_4xx_and_change_no_view(live_server):
    """A sample of bench/hostile.py's requests, with and without valid cookies."""
    app = live_server.app
    host = host_client(app)
    start_game(host)
    before = everything_shown(app)
    access = app.extensions["companion"].access
    cookies = {
        "host": f"{HOST_COOKIE}={access.open_host_session()}",
        "seat": f"{SEAT_COOKIE}={access.seat_token(0)}",
    }
    failures = []
    for hostile in hostile_requests(400, cookies, seed=35):
        status = send(live_server.port, hostile.raw)
        if server_error(status):
            failures.append((hostile.what, status))
    assert failures == [], failures
    assert everything_shown(app) == before
