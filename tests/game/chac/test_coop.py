"""Co-operative play and the variants of seed 002 (CHAC-COOP-1..5), each a setup option."""

from __future__ import annotations

import json
import random

import pytest

from companion.game.chac import ChacGame
from companion.game.chac.state import coop_target
from companion.game.protocol import RuleError
from companion.game.random_play import random_command

from .helpers import Play

GAME = ChacGame()
# Co-op with the first dicekeeper picked by the host, so a test can start at once.
COOP = {"mode": "coop", "first_dicekeeper": "oldest"}


def test_target_table_by_players_and_level_chac_coop_1():
    """CHAC-COOP-1: 10 a player at level 1, 5 more each level (1 player: 10..25; 6: 60..75)."""
    table = {n: [coop_target(n, level) for level in (1, 2, 3, 4)] for n in range(1, 7)}
    assert table[1] == [10, 15, 20, 25] and table[2] == [20, 25, 30, 35]
    assert table[6] == [60, 65, 70, 75]


def test_coop_options_default_to_the_variants_and_are_checked_chac_coop_1():
    """CHAC-COOP-1: co-op turns the variants on unless the host says otherwise; standard play
    keeps the publisher's rules; bad values and a one-player standard game are refused."""
    coop = Play(seats=1, options={"mode": "coop", "level": 3}, start=False).view()["options"]
    assert coop["show_cards"] and coop["exchange_treasures"] and coop["swimming_helps_adjacent"]
    assert coop["pass_dice"] == "closest_to_exit" and coop["first_dicekeeper"] == "triplets"
    plain = Play(start=False).view()["options"]
    assert plain["mode"] == "standard" and not plain["show_cards"]
    assert plain["pass_dice"] == "left" and plain["first_dicekeeper"] == "oldest"
    for bad, rule in (
        ({"mode": "solo"}, "CHAC-COOP-1"),
        ({"mode": "coop", "level": 5}, "CHAC-COOP-1"),
        ({"show_cards": True}, "CHAC-COOP-1"),
        ({"pass_dice": "right"}, "CHAC-COOP-2"),
        ({"first_dicekeeper": "youngest"}, "CHAC-COOP-3"),
        ({"exchange_treasures": "yes"}, "CHAC-COOP-4"),
        ({"swimming_helps_adjacent": 1}, "CHAC-COOP-5"),
    ):
        with pytest.raises(RuleError) as info:
            GAME.setup(bad, ["A", "B"], 1)
        assert info.value.rule == rule, bad
    with pytest.raises(RuleError) as info:
        GAME.setup({}, ["Solo"], 1)
    assert info.value.rule == "CHAC-COOP-1" and "co-op" in str(info.value)


def _escape_with(p: Play, seat: int, cards: list[str]) -> None:
    p.place(seat, "C29")
    p.give_ids(seat, cards)
    p.do("move", seat, to="exit")


def test_the_team_wins_when_the_escaped_treasure_reaches_the_target_chac_coop_1():
    """CHAC-COOP-1: two players, level 1 (target 20): 12 + 9 escaped (one adventurer lost) is
    a win for both; the table shows the target and the haul so far."""
    p = Play(seats=2, options={**COOP, "level": 1})
    p.to_actions()
    assert p.view()["coop"]["target"] == 20
    assert p.view()["coop"]["escaped"] == {"value": 0, "caskets": 0, "cards": 0}
    cards = p.cards_worth(4, 3) + p.cards_worth(3, 3)
    _escape_with(p, 0, cards[:3])
    assert p.view()["coop"]["escaped"] == {"value": 12, "caskets": 0, "cards": 3}
    assert p.view()["coop"]["escaped_adventurers"] == 1
    _escape_with(p, 1, cards[3:])
    view = p.view()
    assert view["phase"] == "over"
    assert view["result"]["coop"] == {"level": 1, "target": 20, "total": 21, "won": True}
    assert view["result"]["winners"] == [0, 1]
    assert p.prompt_texts() == ["Game over: the team wins, 21 of 20."]


def test_the_team_loses_short_of_the_target_or_with_nobody_out_chac_coop_1():
    """CHAC-COOP-1: 21 escaped is not enough at level 2 (target 25): all lose together; so do
    they when nobody escaped."""
    p = Play(seats=2, options={**COOP, "level": 2})
    p.to_actions()
    cards = p.cards_worth(4, 3) + p.cards_worth(3, 3)
    _escape_with(p, 0, cards[:3])
    _escape_with(p, 1, cards[3:])
    assert p.view()["result"]["coop"]["won"] is False and p.view()["result"]["winners"] == []
    assert p.prompt_texts() == ["Game over: the team loses, 21 of 25."]
    p = Play(seats=1, options={**COOP, "level": 1})
    p.to_actions()
    p.do("end_game", None)
    assert p.view()["result"]["coop"] == {"level": 1, "target": 10, "total": 0, "won": False}


def test_one_player_plays_co_op_alone_chac_coop_1():
    """CHAC-COOP-1: a one-player game exists in co-op: 10 treasure out at level 1 wins."""
    p = Play(seats=1, options={**COOP, "level": 1})
    p.to_actions()
    _escape_with(p, 0, p.cards_worth(5, 2))
    assert p.view()["result"]["coop"]["won"] and p.view()["result"]["winners"] == [0]


def test_card_values_are_shown_to_all_in_co_op_unless_turned_off_chac_coop_1():
    """CHAC-COOP-1: in co-op every adventurer's card values are public (caskets stay unknown)
    by default; with show_cards off, and in standard play, no view shows another's values."""
    p = Play(seats=2, options=COOP)
    p.to_actions()
    casket = p.cards_worth("casket", 1)
    p.give_ids(1, p.cards_worth(4, 1) + casket)
    entry = p.view()["seats"][1]["adventurer"]
    assert entry["card_values"] == [4, "casket"]
    assert p.view()["coop"]["carried"] == {"value": 4, "caskets": 1, "cards": 2}
    text = json.dumps(p.view())
    assert json.dumps(p.state.hidden["caskets"]) not in text
    for options in ({**COOP, "show_cards": False}, {}):
        p = Play(seats=2, options=options)
        p.to_actions()
        p.give_ids(1, p.cards_worth(4, 1))
        assert "card_values" not in p.view()["seats"][1]["adventurer"]
        assert "card_values" not in p.seat_view(0)["seats"][1]["adventurer"]
        assert p.seat_view(0)["you"]["cards"] == []
        assert (p.view()["coop"] or {}).get("carried") is None


def test_the_dice_go_to_the_adventurer_nearest_the_exit_chac_coop_2():
    """CHAC-COOP-2: at the round's end the dice go to the player nearest the exit (fewest
    moves), not to the left; on a tie the table chooses among the nearest only."""
    p = Play(seats=3, options={**COOP, "pass_dice": "closest_to_exit"}, keeper=0)
    p.to_actions()
    p.place(2, "C20")
    p.finish_actions()
    p.do("walls", None)
    p.dice(1)
    assert p.state.dicekeeper == 2 and p.state.round == 2
    p.to_actions()
    p.place(0, "C22")
    p.place(1, "C22")
    p.place(2, "C5")
    p.finish_actions()
    p.do("walls", None)
    p.dice(1, 1)
    assert p.view()["phase"] == "pass"
    assert p.prompt_texts() == ["Table: the dice go to the nearest the exit: Anna or Ben?"]
    assert [c.args["keeper"] for c in p.legal(None) if c.type == "pass_dice"] == [0, 1]
    p.refuse("pass_dice", None, "CHAC-COOP-2", keeper=2)
    p.refuse("pass_dice", 1, "CHAC-COOP-2", keeper=1)
    p.do("pass_dice", None, keeper=1)
    assert p.state.dicekeeper == 1 and p.state.round == 3


def test_the_first_dicekeeper_rolls_the_highest_triplet_chac_coop_3():
    """CHAC-COOP-3: players roll 5 dice in turn, clockwise, until someone rolls three of a
    kind; the highest triplet starts; tied triplets roll again. The host may not pick."""
    p = Play(seats=3, options={"mode": "coop", "first_dicekeeper": "triplets"}, start=False)
    texts = p.prompt_texts()
    assert texts[0] == "Anna: Roll 5 dice for the first dicekeeper (three of a kind)"
    assert "Cleo: choose your first adventurer" in texts
    p.refuse("first_dicekeeper", None, "CHAC-COOP-3", keeper=0)
    assert all(c.type != "first_dicekeeper" for c in p.legal(None))
    for i in range(3):
        p.do("choose_adventurer", i, adventurer=p.state.seats[i].dealt[0])
    assert p.state.phase == "setup", "nobody holds the dice yet"
    p.dice(1, 2, 3, 4, 5)  # Anna: nothing
    p.dice(1, 2, 3, 4, 6)  # Ben: nothing
    p.dice(1, 1, 2, 3, 4)  # Cleo: nothing: everyone again
    assert p.view()["roll"]["seat"] == 0
    p.dice(4, 4, 4, 1, 2)  # Anna: three 4s
    p.dice(1, 2, 3, 4, 5)  # Ben: nothing
    p.dice(4, 4, 6, 4, 4)  # Cleo: four 4s: a tie on 4s with Anna
    assert p.view()["triplets"]["contenders"] == [0, 2]
    assert p.view()["roll"]["seat"] == 0
    p.dice(2, 2, 2, 5, 6)  # Anna: 2s
    p.dice(3, 3, 3, 1, 1)  # Cleo: 3s, the highest
    assert p.state.dicekeeper == 2 and p.state.round == 1 and p.view()["triplets"] is None
    assert "Cleo rolled the highest triplet and is the first dicekeeper." in p.view()["log"]


def test_exchanging_treasures_on_the_same_space_both_agreeing_chac_coop_4():
    """CHAC-COOP-4: one action swaps cards with an adventurer on the same space once the other
    player accepts; declining changes no cards and costs nothing; other spaces are refused;
    without the option it is refused."""
    p = Play(seats=2, options={**COOP, "exchange_treasures": True})
    p.to_actions(2, 2, 2, 6, 6)
    mine, theirs = p.cards_worth(5, 1), p.cards_worth(1, 2)
    p.give_ids(0, mine)
    p.give_ids(1, theirs)
    p.place(0, "C20")
    p.place(1, "C21")
    p.refuse("exchange", 0, "CHAC-COOP-4", **{"with": 1, "cards": mine, "ask": 1})
    p.place(1, "C20")
    assert {"with": 1} in [c.args for c in p.legal(0) if c.type == "exchange"]
    p.do("exchange", 0, **{"with": 1, "cards": mine, "ask": 2})
    assert p.view()["exchange"] == {"seat": 0, "with": 1, "cards": 1, "ask": 2}
    ben, anna = p.adv(1).first_name, p.adv(0).first_name
    assert p.prompt_texts() == [f"{ben}: {anna} offers 1 card for 2 of yours: accept or decline?"]
    p.refuse("move", 0, "CHAC-COOP-4", to="C21")
    p.refuse("accept_exchange", 1, "CHAC-COOP-4", cards=theirs[:1])
    p.do("decline_exchange", 1)
    assert p.adv(0).cards == mine and p.adv(0).actions == 5
    p.do("exchange", 0, **{"with": 1, "cards": mine, "ask": 2})
    p.do("accept_exchange", 1, cards=theirs)
    assert sorted(p.adv(0).cards) == sorted(theirs) and p.adv(1).cards == mine
    assert p.adv(0).actions == 4
    p = Play(seats=2)
    p.to_actions()
    p.give_ids(0, p.cards_worth(5, 1))
    p.place(0, "C20")
    p.place(1, "C20")
    p.refuse("exchange", 0, "CHAC-COOP-4", **{"with": 1, "cards": p.adv(0).cards, "ask": 0})


def _river_exit_with_a_one(p: Play, exiting: int, helper_space: str) -> None:
    p.give(exiting, 3)  # enough to reroll the 1: the exit waits for a decision
    p.place(exiting, "R5")
    p.place(1 - exiting, helper_space)
    p.pass_until(exiting)
    p.do("river_exit", exiting)
    p.dice(1, 5)


def test_swimming_helps_a_neighbour_leave_the_river_chac_coop_5():
    """CHAC-COOP-5: with the option, a swimmer on the same or a neighbouring river space ignores
    a 1 for the adventurer exiting; from farther, or without the option, it is refused."""
    p = Play({1: "Tatiana Bregovic"}, seats=2, options={**COOP, "swimming_helps_adjacent": True})
    p.to_actions()
    _river_exit_with_a_one(p, 0, "R4")
    assert "swim" in [c.type for c in p.legal(1)]
    p.do("swim", 1)
    assert p.adv(0).space == "C27" and p.adv(1).ability_used
    assert "Tatiana swims to help" in " ".join(p.view()["log"])
    p = Play({1: "Tatiana Bregovic"}, seats=2, options={**COOP, "swimming_helps_adjacent": True})
    p.to_actions()
    _river_exit_with_a_one(p, 0, "R2")
    assert "swim" not in [c.type for c in p.legal(1)]
    p.refuse("swim", 1, "CHAC-COOP-5")
    p = Play({1: "Tatiana Bregovic"}, seats=2)
    p.to_actions()
    _river_exit_with_a_one(p, 0, "R4")
    assert "swim" not in [c.type for c in p.legal(1)]
    p.refuse("swim", 1, "CHAC-RIVER-2")


@pytest.mark.parametrize("seed", [4, 5])
def test_random_co_op_games_keep_secrets_and_end_chac_coop_1(seed):
    """CHAC-COOP-1..5 in random play: games end; without show_cards no public view carries
    another seat's card ids or values; casket values stay hidden until the end."""
    seats = 1 + seed % 6
    rng = random.Random(seed)
    options = {"mode": "coop", "show_cards": False}
    state = GAME.setup(options, [f"P{i}" for i in range(seats)], seed)
    while not GAME.is_over(state):
        view = GAME.public_view(state)
        assert "card_values" not in json.dumps(view)
        assert view["reveal"] is None
        for event in GAME.apply(state, random_command(GAME, state, rng, seats)):
            GAME.fold(state, event)
    assert GAME.public_view(state)["result"]["coop"]["target"] == coop_target(seats, 1)


def test_simulate_prints_the_win_rate_by_level_and_players_chac_coop_1(capsys):
    """CHAC-COOP-1: `companion simulate --option mode=coop` plays the same deals at every level
    and reports the team's win rate by level and player count."""
    from companion.cli import main

    assert main(["simulate", "--option", "mode=coop", "--games", "3", "--seed", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 12 and sorted(report["levels"]) == ["1", "2", "3", "4"]
    for by_players in report["levels"].values():
        assert sum(cell["games"] for cell in by_players.values()) == 3
        assert all(0 <= cell["win_rate"] <= 1 for cell in by_players.values())
    coop_level_2 = ["--option", "mode=coop", "--option", "level=2"]
    assert main(["simulate", *coop_level_2, "--players", "1", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "win rate (games) | 1 player" in out
    assert [line.split(" |")[0] for line in out.splitlines()[2:]] == ["level 2"]
