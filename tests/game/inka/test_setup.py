"""Setting up Inka: players and colours, the youngest first, starting spaces and the 13
stepping tiles placed in turn (INKA-SET-1, INKA-SET-2)."""

from __future__ import annotations

import pytest

from companion.game.protocol import RuleError

from .helpers import GAME, Play


@pytest.mark.parametrize("names", [["Ana"], ["A", "B", "C", "D", "E"], []])
def test_inka_set_1_takes_two_to_four_players(names):
    with pytest.raises(RuleError) as info:
        GAME.setup({}, names, 1)
    assert info.value.rule == "INKA-SET-1"
    assert "2 to 4 players" in str(info.value)


def test_inka_set_1_each_player_chooses_a_different_colour():
    p = Play(start=False)
    assert p.prompt_texts() == [
        "Ana: choose your colour",
        "Ben: choose your colour",
        "Cleo: choose your colour",
        "Host: who is the youngest player? They begin.",
    ]
    assert [c.args["colour"] for c in GAME.legal(p.state, 1)] == ["red", "yellow", "green", "blue"]
    p.do("choose_colour", 0, colour="green")
    assert "green" not in [c.args["colour"] for c in GAME.legal(p.state, 1)]
    assert p.refuse("choose_colour", 1, "INKA-SET-1", colour="green").args[0] == (
        "Ana already plays green."
    )
    p.refuse("choose_colour", 0, "INKA-SET-1", colour="red")
    p.refuse("choose_colour", 1, "INKA-SET-1", colour="purple")
    assert p.seat(0)["colour"] == "green" and p.seat(1)["colour"] is None


def test_inka_set_1_the_youngest_begins_and_play_goes_clockwise():
    """The host names the youngest; counters go onto starting spaces from them, clockwise."""
    p = Play(start=False)
    p.refuse("first_player", 1, "INKA-SET-1", player=1)  # the host names them, not a seat
    assert [c.args["player"] for c in GAME.legal(p.state, None)] == [0, 1, 2]
    p.do("first_player", None, player=1)
    assert p.view()["order"] == [1, 2, 0]
    assert GAME.legal(p.state, None) == []
    p.refuse("first_player", None, "INKA-SET-1", player=2)
    assert p.view()["stage"] == "setup"  # colours still to choose
    p.refuse("place_counter", 1, "INKA-SET-1")
    for seat, colour in enumerate(["red", "blue", "yellow"]):
        p.do("choose_colour", seat, colour=colour)
    assert p.view()["stage"] == "starts"
    assert p.prompt_texts() == ["Ben: put your counter on an empty starting space"]
    p.refuse("place_counter", 0, "INKA-SET-1")
    for seat in (1, 2, 0):
        assert p.legal_types(seat) == ["place_counter"]
        p.do("place_counter", seat)
        assert p.seat(seat)["started"]
    assert p.view()["stage"] == "tiles"


def test_inka_set_2_thirteen_stepping_tiles_placed_in_turn_from_the_first_player():
    """The companion says whose placement it is and how many tiles are left."""
    p = Play(start=False, first=2)
    for seat, colour in enumerate(["red", "blue", "yellow"]):
        p.do("choose_colour", seat, colour=colour)
    p.do("first_player", None, player=2)
    for seat in (2, 0, 1):
        p.do("place_counter", seat)
    placers = []
    for left in range(13, 0, -1):
        assert p.view()["tiles_left"] == left
        seat = p.view()["turn"]
        name = ["Ana", "Ben", "Cleo"][seat]
        assert p.prompt_texts() == [f"{name}: place a stepping tile ({left} of 13 left)"]
        wrong = (seat + 1) % 3
        p.refuse("place_tile", wrong, "INKA-SET-2")
        p.do("place_tile", seat)
        placers.append(seat)
    assert placers == [2, 0, 1] * 4 + [2]
    view = p.view()
    assert view["tiles_left"] == 0 and view["stage"] == "play"
    assert view["turn"] == 2 and view["turn_number"] == 1
    assert "Cleo places a stepping tile (0 left)." in view["log"]
    p.refuse("place_tile", 2, "INKA-SET-2")


def test_inka_set_2_tiles_wait_for_every_counter():
    p = Play(start=False)
    for seat, colour in enumerate(["red", "blue", "yellow"]):
        p.do("choose_colour", seat, colour=colour)
    p.do("first_player", None, player=0)
    p.refuse("place_tile", 0, "INKA-SET-2")


def test_options_are_declared_and_checked():
    assert [o.name for o in GAME.options] == ["strict_phases"]
    assert GAME.options[0].default is True and GAME.options[0].help
    assert Play(start=False).view()["options"] == {"strict_phases": True}
    with pytest.raises(RuleError, match="Unknown option 'dice'"):
        GAME.setup({"dice": 2}, ["a", "b"], 1)
    with pytest.raises(RuleError) as info:
        GAME.setup({"strict_phases": "yes"}, ["a", "b"], 1)
    assert info.value.rule == "INKA-TURN-1"
    with pytest.raises(RuleError, match="player name"):
        GAME.setup({}, ["a", " "], 1)


def test_the_declared_metadata_is_what_the_generic_parts_read():
    assert (GAME.name, GAME.title, GAME.min_seats, GAME.max_seats, GAME.uses_dice) == (
        "inka",
        "Inka",
        2,
        4,
        False,
    )
    assert GAME.options[0].to_json()["kind"] == "bool"
