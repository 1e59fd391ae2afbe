"""What Temple of Chac declares to be hosted: its setup options and its commands in words."""

from __future__ import annotations

import pytest

from companion.game.chac import ChacGame
from companion.game.chac.game import DEFAULT_OPTIONS, check_options
from companion.game.protocol import Command, RuleError

GAME = ChacGame()


def test_declared_defaults_are_the_engines_defaults():
    assert GAME.options, "a setup form needs options to offer"
    for option in GAME.options:
        assert option.default == DEFAULT_OPTIONS[option.name], option.name
        assert option.help.endswith("."), f"{option.name}: help is a sentence"


@pytest.mark.parametrize("option", ChacGame.options, ids=lambda o: o.name)
def test_every_declared_value_is_accepted_and_beyond_it_refused(option):
    """Each value the setup form would offer sets up a game; one outside it is refused."""
    base = {"mode": "coop"} if option.name in ("show_cards", "level") else {}
    if option.kind == "int":
        offered = range(option.low, option.high + 1)
        beyond = [option.low - 1, option.high + 1]
    elif option.kind == "bool":
        offered, beyond = [True, False], ["yes"]
    else:
        offered, beyond = option.choices, ["no such choice"]
    for value in offered:
        checked = check_options({**base, option.name: value})
        if value is not None:  # None: the mode's own default, filled in
            assert checked[option.name] == value
    for value in beyond:
        with pytest.raises(RuleError):
            check_options({**base, option.name: value})


def test_seat_counts_cover_solo_coop_and_six_players():
    """CHAC-COOP-1 allows one player in co-op; CHAC-SET-1 at most six."""
    assert (GAME.min_seats, GAME.max_seats) == (1, 6)
    GAME.setup({"mode": "coop"}, ["Solo"], 1)
    with pytest.raises(RuleError):
        GAME.setup({}, [f"P{i}" for i in range(GAME.max_seats + 1)], 1)


@pytest.mark.parametrize(
    ("command", "words", "menu"),
    [
        (Command("move", 0, {"to": "C12"}), "Move to C12", "Move to C12"),
        (Command("move", 0, {"to": "exit"}), "Move to the exit", "Leave the temple"),
        (Command("sprint", 0, {"to": "exit"}), "Sprint (free) to the exit", "Sprint out"),
        (Command("pass", 1), "Pass: end my turn", "End turn"),
        (Command("first_dicekeeper", None, {"keeper": 1}), "First dicekeeper: seat 2", None),
        (Command("decline_exchange", 0), "Decline the exchange", None),
        (Command("set_planks", None, {"planks": 2}), "set planks", None),
    ],
)
def test_commands_are_described_once_for_phones_and_panel(command, words, menu):
    assert GAME.describe(command) == words
    seats = ["Ana", "Ben"]
    expected_menu = "Ben keeps dice" if command.type == "first_dicekeeper" else menu
    assert GAME.menu_label(command, seats) == expected_menu
