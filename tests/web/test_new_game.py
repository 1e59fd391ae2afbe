"""A new game from the host page: hidden cards from the OS's randomness only, a board chosen by
name from the boards the companion ships or the owner installed."""

from __future__ import annotations

import pytest
from webplay import NAMES, corrected_board, host_client

from web.app import create_app


@pytest.fixture
def real_app(table, data_dir):
    """The app as the companion serves it: no fixed seeds."""
    app = create_app(table, data_dir)
    yield app
    app.extensions["companion"].broadcaster.close()


def test_the_host_cannot_give_a_real_game_its_seed(real_app, table):
    host = host_client(real_app)
    for seed in (1, 0, "1"):
        response = host.post("/api/host/new-game", json={"seats": NAMES, "seed": seed})
        assert response.status_code == 400
        assert "cannot be given a seed" in response.json["error"]
        assert not table.has_game
    assert table.version == 0


def test_games_without_a_seed_are_dealt_differently(real_app, table):
    """Two games with the same players and options get different commitments: the deal
    comes from the OS's randomness, not from anything the host sent."""
    host = host_client(real_app)
    commitments = set()
    for _ in range(3):
        assert host.post("/api/host/new-game", json={"seats": NAMES}).status_code == 200
        commitments.add(table.public_view()["commitment"])
    assert len(commitments) == 3
    payload = real_app.test_client().get("/api/table").json
    assert "fixed_seed" not in payload


def test_every_page_says_so_when_the_host_may_fix_the_seed(app, host):
    """Tests and benchmarks replay recorded games: the pages then say the cards are known."""
    assert host.post("/api/host/new-game", json={"seats": NAMES, "seed": 4}).status_code == 200
    for payload in (app.test_client().get("/api/table").json, host.get("/api/host").json):
        assert "not secret" in payload["fixed_seed"]


def test_a_board_is_chosen_by_name(host, table, data_dir):
    path = corrected_board(data_dir / "boards")
    options = {"board": "our-board"}
    assert host.post("/api/host/new-game", json={"seats": NAMES, "options": options}).json["ok"]
    assert table.public_view()["board"]["file"] == str(path)
    options = {"board": "default"}
    assert host.post("/api/host/new-game", json={"seats": NAMES, "options": options}).json["ok"]
    assert table.public_view()["board"]["file"] is None


def test_a_board_path_is_refused_without_telling_whether_the_file_exists(
    host, table, tmp_path, data_dir
):
    existing = corrected_board(tmp_path)
    (data_dir / "boards").mkdir()
    (data_dir / "boards" / "zero.toml").symlink_to("/dev/zero")  # not a regular file
    answers = set()
    for board in (
        str(existing),
        "/nonexistent/board.toml",
        "/dev/zero",
        "../our-board",
        "our-board",
        "zero",
        "",
        7,
    ):
        response = host.post(
            "/api/host/new-game", json={"seats": NAMES, "options": {"board": board}}
        )
        assert response.status_code == 400, board
        answers.add(response.json["error"])
    assert answers == {"There is no such board; the boards here are: default."}
    assert not table.has_game
