"""`companion simulate --option NAME=VALUE`: a game's setup options on the command line, read
against the options the game declares, for every registered game."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.game import GAMES, load_game
from companion.option_args import OptionError, option_value, parse_options, spelled


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_declared_option_is_typed_as_the_setup_form_offers_it(name):
    game = load_game(name)
    for option in game.options:
        assert parse_options(game, [f"{option.name}={spelled(option.default)}"]) == {
            option.name: option.default
        }
        for choice in option.choices:
            assert option_value(option, spelled(choice)) == choice


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_option_the_game_does_not_declare_is_refused_naming_its_options(name, capsys):
    game = load_game(name)
    assert main(["simulate", "--game", name, "--option", "no_such_option=1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"companion simulate: {game.title} has no option 'no_such_option'")
    assert all(option.name in err for option in game.options)


def test_values_outside_an_option_are_refused_saying_what_it_takes():
    game = load_game("chac")
    cases = {
        "level=9": "option level is a whole number from 1 to 4, not '9'",
        "sprint_into_river=perhaps": "option sprint_into_river is true or false, not 'perhaps'",
        "mode=solo": "option mode is one of standard, coop, not 'solo'",
        "mode": "write an option as NAME=VALUE, not 'mode'",
    }
    for pair, message in cases.items():
        with pytest.raises(OptionError, match=message):
            parse_options(game, [pair])


def test_options_reach_the_games_setup_which_refuses_what_does_not_go_together(capsys):
    """CHAC-COOP-1: card values are shown to all only in co-op mode; the game's own words."""
    assert main(["simulate", "--option", "show_cards=true", "--games", "1"]) == 2
    assert "only in co-op mode" in capsys.readouterr().err


def test_the_games_are_played_with_the_options_given(capsys):
    """CHAC-BOUL-1: the boulder moves for each die showing at least `boulder_min_face`; the
    same deals end in far fewer rounds when every die moves it."""
    rounds = {}
    for face in (1, 6):
        args = ["simulate", "--games", "10", "--seed", "3", "--players", "3", "--json"]
        assert main([*args, "--option", f"boulder_min_face={face}"]) == 0
        rounds[face] = json.loads(capsys.readouterr().out)["rounds"]["mean"]
    assert rounds[1] < rounds[6] - 2
