"""The public view and the seat views: what the table page, the seat pages and the OLED read.

Inka hides almost nothing; what the companion holds that players do not see (the seed it was
set up with) must stay out of every view.
"""

from __future__ import annotations

import json
import random

from companion.game.random_play import random_command

from .helpers import GAME, Play


def test_the_public_view_shows_order_statues_blockers_phase_points_and_log():
    p = Play(first=1)
    p.do("collect_statue", 1)
    p.do("place_blocker", 1, on="tile")
    view = p.view()
    assert view["game"] == "inka" and view["stage"] == "play"
    assert view["order"] == [1, 2, 0] and view["first"] == 1
    assert (view["turn"], view["phase"], view["phase_name"], view["points"]) == (
        1,
        4,
        "place the blocking counter",
        0,
    )
    assert view["seats"][1] == {
        "seat": 1,
        "name": "Ben",
        "colour": "yellow",
        "statues": 1,
        "blocker": "tile",
        "started": True,
    }
    assert view["seats"][0]["statues"] == 0 and view["seats"][0]["blocker"] == "off"
    assert view["log"][-2:] == [
        "Ben collects a yellow statue (1 of 3): 2 points left.",
        "Ben puts the blocking counter on a stepping tile; 2 points unused.",
    ]
    assert len(view["log"]) <= 20 and view["log_count"] >= len(view["log"])
    json.dumps(view)


def test_a_seat_view_is_the_public_view_and_who_you_are():
    p = Play()
    public = p.view()
    for seat in range(3):
        view = GAME.seat_view(p.state, seat)
        you = view.pop("you")
        assert view == public
        assert you == {
            "seat": seat,
            "name": ["Ana", "Ben", "Cleo"][seat],
            "colour": ["red", "yellow", "green"][seat],
            "your_turn": seat == 0,
        }


def test_the_seed_never_shows_in_any_view():
    """Two tables set up alike but with different secret seeds look the same to everyone,
    command after command, to the end of a game."""
    a = GAME.setup({}, ["Ana", "Ben", "Cleo"], 11)
    b = GAME.setup({}, ["Ana", "Ben", "Cleo"], 98765)
    rng = random.Random(5)
    while not GAME.is_over(a):
        for state in (a, b):
            views = [GAME.public_view(state)] + [GAME.seat_view(state, s) for s in range(3)]
            assert "98765" not in json.dumps(views)
        assert GAME.public_view(a) == GAME.public_view(b)
        assert [GAME.seat_view(a, s) for s in range(3)] == [GAME.seat_view(b, s) for s in range(3)]
        command = random_command(GAME, a, rng, 3)
        for state in (a, b):
            for event in GAME.apply(state, command):
                GAME.fold(state, event)
    assert GAME.public_view(a) == GAME.public_view(b)
