"""Seat tokens, the host PIN and join links: unguessable, persistent, revocable."""

from __future__ import annotations

import re

from webplay import seat_client, start_game

from web.access import SEAT_COOKIE, Access, base_url, host_pin, host_url, join_url
from web.app import create_app


def test_tokens_are_unguessable_and_distinct(data_dir):
    access = Access.load(data_dir)
    tokens = [access.seat_token(s) for s in range(6)]
    assert len(set(tokens)) == 6
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", token)  # 16 random bytes = 128 bits
    assert re.fullmatch(r"\d{6}", access.pin)


def test_tokens_and_pin_survive_a_restart(data_dir):
    first = Access.load(data_dir)
    session = first.open_host_session()
    again = Access.load(data_dir)
    assert again.pin == first.pin
    assert [again.seat_token(s) for s in range(6)] == [first.seat_token(s) for s in range(6)]
    assert again.is_host(session)
    assert (data_dir / "access.json").stat().st_mode & 0o077 == 0  # owner only


def test_join_link_sets_an_httponly_strict_cookie_and_opens_the_seat_page(app, host, web):
    start_game(host)
    client = app.test_client()
    response = client.get(web.access.join_path(1))
    assert response.status_code == 303 and response.headers["Location"].endswith("/seat")
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{SEAT_COOKIE}={web.access.seat_token(1)}")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/api/seat").json["seat"] == 1


def test_a_seat_beyond_the_game_is_refused(app, host, web):
    start_game(host)  # three seats
    phone = app.test_client()
    phone.get(web.access.join_path(4))
    assert phone.get("/api/seat").status_code == 403


def test_reissued_tokens_lock_out_old_links(app, host, web):
    start_game(host)
    phone = seat_client(app, 0)
    old_path = web.access.join_path(0)
    assert host.post("/api/host/reissue").status_code == 200
    assert phone.get("/api/seat").status_code == 403
    assert app.test_client().get(old_path).status_code == 404
    assert seat_client(app, 0).get("/api/seat").status_code == 200


def test_a_restarted_app_accepts_the_same_phones(app, host, table, data_dir):
    start_game(host)
    phone = seat_client(app, 2)
    restarted = create_app(table, data_dir)
    again = restarted.test_client()
    again.set_cookie(SEAT_COOKIE, phone.get_cookie(SEAT_COOKIE).value)
    assert again.get("/api/seat").json["seat"] == 2
    restarted.extensions["companion"].broadcaster.close()


def test_urls_for_the_screens(data_dir):
    access = Access.load(data_dir)
    assert join_url(data_dir, 2, port=8080, host="10.0.0.7") == (
        f"http://10.0.0.7:8080/join/{access.seat_token(2)}"
    )
    assert host_url(9000, host="10.0.0.7") == "http://10.0.0.7:9000/host"
    assert host_pin(data_dir) == access.pin
    assert base_url(8080).startswith("http://") and base_url(8080).endswith(":8080")
