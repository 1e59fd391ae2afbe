"""The round: load levels, action dice, turn order, walls, boulder, replacements, the end."""

from __future__ import annotations

import pytest

from companion.game.chac import ChacGame
from companion.game.chac.state import load_level

from .helpers import Play

GAME = ChacGame()


@pytest.mark.parametrize(
    ("cards", "level"), [(0, 2), (3, 2), (4, 3), (6, 3), (7, 4), (9, 4), (10, 5), (12, 5)]
)
def test_load_level_from_cards_carried_chac_ll_1(cards, level):
    """CHAC-LL-1: load level from cards carried."""
    assert load_level(cards) == level


def test_discards_go_dicekeeper_first_then_clockwise_chac_ll_1():
    """CHAC-LL-1: discards go dicekeeper first then clockwise."""
    p = Play(seats=3, keeper=1)
    p.to_actions()
    for seat in range(3):
        p.give(seat, 2)
    p.finish_actions()
    p.do("walls", None)
    p.dice(1)  # round 2: seat 2 keeps the dice (CHAC-PASS-1)
    assert p.state.round == 2 and p.view()["dicekeeper"] == 2
    for seat in (2, 0, 1):
        assert p.state.actor() == seat
        assert p.prompt_texts()[0].endswith("discard cards or say ready (2 cards)")
        other = (seat + 1) % 3
        p.refuse("discard", other, "CHAC-LL-1", cards=p.adv(other).cards[:1])
        p.do("discard", seat, cards=p.adv(seat).cards[:1])
        p.do("ready", seat)
    assert [len(p.adv(s).cards) for s in range(3)] == [1, 1, 1]
    assert p.view()["discard"] == 3
    assert p.state.phase == "roll"
    p.refuse("discard", 0, "CHAC-LL-1", cards=p.adv(0).cards)


def test_a_player_over_12_cards_must_discard_down_to_12_chac_ll_1():
    """CHAC-LL-1: a player over 12 cards must discard down to 12."""
    p = Play({0: "Bill Baker"})
    p.to_actions()
    p.give(0, 14)
    p.finish_actions()
    p.do("walls", None)
    p.dice(1)
    assert p.prompt_texts() == ["Bill: discard down to 12 cards"]
    p.refuse("ready", 0, "CHAC-LL-1")
    p.do("discard", 0, cards=p.adv(0).cards[:2])
    p.do("ready", 0)
    assert p.view()["seats"][0]["adventurer"]["load_level"] == 5


def test_one_action_per_die_at_or_above_the_load_level_chac_act_1():
    """CHAC-ACT-1: one action per die at or above the load level."""
    p = Play(seats=3)
    p.give(1, 5)  # load level 3
    p.give(2, 11)  # load level 5
    p.to_actions(1, 2, 3, 4, 6)
    actions = [s["adventurer"]["actions"] for s in p.view()["seats"]]
    assert actions == [4, 3, 1]


def test_zero_actions_is_possible_and_that_turn_is_skipped_chac_act_1():
    """CHAC-ACT-1: zero actions is possible and that turn is skipped."""
    p = Play(seats=3)
    p.give(1, 11)
    p.to_actions(1, 2, 3, 4, 4)
    assert p.view()["seats"][1]["adventurer"]["actions"] == 0
    assert p.state.actor() == 0
    p.do("pass", 0)
    assert p.state.actor() == 2, "Ben, with 0 actions, is skipped"


def test_dicekeeper_acts_first_then_clockwise_and_only_on_their_turn_chac_act_2():
    """CHAC-ACT-2: dicekeeper acts first then clockwise and only on their turn."""
    p = Play(seats=4, keeper=2)
    p.to_actions(6, 6, 6, 6, 6)
    assert p.view()["turn"] == 2
    p.refuse("move", 3, "CHAC-ACT-2", to="Z1")
    order = []
    while p.state.phase == "actions":
        order.append(p.state.actor())
        p.do("move", p.state.actor(), to="Z1")
        p.do("pass", p.state.actor())
    assert order == [2, 3, 0, 1]


def test_wall_cards_are_revealed_three_at_a_time_and_walls_stop_at_3_chac_wall_2():
    """CHAC-WALL-2: wall cards are revealed three at a time and walls stop at 3."""
    p = Play()
    seen = []
    for _ in range(6):
        p.to_actions(1, 1, 1, 1, 1)
        p.finish_actions()
        if p.state.phase != "walls":
            break
        before = p.view()["walls"]["cards_left"]
        p.do("walls", None)
        assert p.view()["walls"]["cards_left"] == before - 3
        seen.extend(p.view()["walls"]["last_revealed"])
        assert 0 <= p.view()["walls"]["left"] <= 3 and 0 <= p.view()["walls"]["right"] <= 3
        p.dice(*([1] * min(p.state.round, 5)))
    assert seen == p.state.hidden["walls"][: len(seen)]
    assert p.view()["walls"]["closed"], "all five arrow cards close both walls"


def _seed_walls_close_by_round(rounds: int) -> int:
    for seed in range(20_000):
        walls = GAME.setup({}, ["a", "b"], seed).hidden["walls"]
        if all(c == "blank" for c in walls[3 * rounds :]):
            return seed
    raise AssertionError("no seed")


def test_walls_meeting_eliminate_everyone_in_the_walls_room_chac_wall_3():
    """CHAC-WALL-3: until the walls meet all four zones can be entered; then everybody in the
    walls room is eliminated and nobody can enter it."""
    p = Play(seats=3, seed=_seed_walls_close_by_round(3))
    for r in (1, 2, 3):
        p.to_actions(6, 6, 6, 6, 6)
        if r == 1:
            for space in ("Z1", "Z2", "Z3", "Z4", "C4"):  # every zone can be entered
                p.do("move", 0, to=space)
            p.pass_until(1)
            p.do("move", 1, to="Z1")
            p.do("move", 1, to="Z2")
        p.finish_actions()
        p.do("walls", None)
        if r < 3:
            assert not p.view()["walls"]["closed"]
            p.dice(*([1] * r))
    assert p.view()["walls"]["closed"]
    seats = p.view()["seats"]
    assert seats[1]["adventurer"]["status"] == "eliminated"  # in zone 2
    assert [s["adventurer"]["fate"] for s in seats] == [None, "walls", None]
    assert seats[0]["adventurer"]["status"] == "alive"  # in the corridor
    assert seats[2]["adventurer"]["status"] == "alive"  # still at the entrance
    p.dice(1, 1, 1)
    p.to_actions(6, 6, 6, 6, 6)
    assert p.state.actor() == 0  # round 4: Anna keeps the dice
    p.refuse("move", 0, "CHAC-WALL-3", to="Z4")
    p.pass_until(2)
    p.refuse("move", 2, "CHAC-WALL-3", to="Z1")


def test_boulder_rolls_min_round_5_dice_chac_boul_1():
    """CHAC-BOUL-1: boulder rolls min round 5 dice."""
    p = Play()
    for r in range(1, 8):
        p.to_actions(1, 1, 1, 1, 1)
        p.finish_actions()
        if p.state.phase == "walls":
            p.do("walls", None)
        prompt = GAME.prompts(p.state)[0]
        assert (prompt.kind, prompt.dice, prompt.purpose) == ("roll", min(r, 5), "boulder")
        p.refuse("dice", None, "", values=[1] * (min(r, 5) + 1))
        p.dice(*([1] * min(r, 5)))


def test_boulder_crushes_adventurers_on_spaces_it_enters_or_passes_chac_boul_2():
    """CHAC-BOUL-2: boulder crushes adventurers on spaces it enters or passes."""
    p = Play(seats=4)
    p.to_actions(1, 1, 1, 1, 1)
    p.place(0, "C1")
    p.place(1, "C2")
    p.place(2, "C4")
    p.finish_actions()
    p.do("walls", None)
    p.do("set_boulder", None, to="C1")  # a correction crushes like a roll
    assert p.view()["seats"][0]["adventurer"]["status"] == "eliminated"
    p.dice(3)  # one space: C2
    statuses = [s["adventurer"]["status"] for s in p.view()["seats"]]
    assert statuses == ["eliminated", "eliminated", "alive", "alive"]
    assert [s["adventurer"]["fate"] for s in p.view()["seats"]][:2] == ["boulder", "boulder"]
    assert p.view()["boulder"]["space"] == "C2"


def test_boulder_never_moves_back_chac_boul_2():
    """CHAC-BOUL-2: boulder never moves back."""
    p = Play()
    p.to_actions()
    p.do("set_boulder", None, to="C5")
    p.refuse("set_boulder", None, "CHAC-BOUL-2", to="C3")


def test_boulder_opens_sun_a_at_corner_1_and_sun_b_at_corner_2_chac_boul_3():
    """CHAC-BOUL-3: boulder opens sun a at corner 1 and sun b at corner 2."""
    p = Play()
    p.to_actions()
    p.do("set_boulder", None, to="C8")
    assert p.view()["sun_open"] == {"A": False, "B": False}
    p.finish_actions()
    p.do("walls", None)
    p.dice(5)
    assert p.view()["sun_open"] == {"A": True, "B": False}
    assert any("Sun space A opens" in line for line in p.view()["log"])
    p.to_actions()
    p.do("set_boulder", None, to="C16")  # passing corner 2 opens B too
    assert p.view()["sun_open"] == {"A": True, "B": True}


def test_boulder_reaching_the_last_space_seals_the_exit_and_ends_the_game_chac_boul_4():
    """CHAC-BOUL-4: boulder reaching the last space seals the exit and ends the game."""
    p = Play(seats=3)
    p.to_actions()
    p.place(0, "C29")
    p.do("move", 0, to="exit")
    p.pass_until(1)
    p.place(1, "C27")
    p.finish_actions()
    p.do("walls", None)
    p.do("set_boulder", None, to="C26")
    assert not p.view()["boulder"]["sealed"]
    p.dice(6)  # C27: Ben is crushed; the game goes on (Cleo is still inside)
    assert p.view()["seats"][1]["adventurer"]["status"] == "eliminated"
    p.do("decline_replacement", 1)
    p.to_actions()
    p.finish_actions()
    if p.state.phase == "walls":
        p.do("walls", None)
    p.do("set_boulder", None, to="C29")
    view = p.view()
    assert view["boulder"]["sealed"] and view["phase"] == "over"
    assert view["seats"][2]["adventurer"]["status"] == "eliminated"  # trapped inside
    fates = [s["adventurer"]["fate"] for s in view["seats"]]
    assert fates == ["escaped", "boulder", "sealed"]
    assert view["result"]["winners"] == [0]
    assert p.prompt_texts()[0].startswith("Game over: Anna wins")


def _kill_in_lava(p: Play, seat: int) -> None:
    p.place(seat, "C6")
    p.do("move", seat, to="L(3,2)", number=p.trap())


def test_replacement_comes_in_on_an_open_sun_space_with_no_cards_chac_repl_1():
    """CHAC-REPL-1: replacement comes in on an open sun space with no cards."""
    p = Play(seats=2)
    p.to_actions()
    p.give(0, 4)
    _kill_in_lava(p, 0)
    first = p.view()["seats"][0]["adventurer"]
    assert first["status"] == "eliminated" and first["cards"] == 0
    assert p.view()["discard"] == 4, "the eliminated adventurer's cards are discarded"
    p.finish_actions()
    p.do("walls", None)
    p.dice(1)
    assert p.state.round == 2, "no sun space open: no replacement this round"
    p.to_actions()
    p.finish_actions()
    p.do("walls", None)
    p.do("set_boulder", None, to="C9")
    p.dice(1, 1)
    assert p.state.phase == "replace"
    spare = p.state.seats[0].advs[1]
    assert p.prompt_texts() == ["Anna: bring in your replacement on sun space A?"]
    p.refuse("replace", 0, "CHAC-REPL-1", sun="B")
    p.refuse("replace", 1, "CHAC-REPL-1", sun="A")
    p.do("replace", 0, sun="A")
    seat = p.view()["seats"][0]
    assert seat["adventurer"]["name"] == spare.name
    assert seat["adventurer"]["space"] == "L(3,0)" and seat["adventurer"]["cards"] == 0
    assert seat["previous"]["status"] == "eliminated" and seat["replacement"] == "in play"
    assert p.state.round == 3
    # A second elimination leaves the player out.
    p.to_actions()
    p.pass_until(0)
    p.do("move", 0, to="L(3,1)", number=sorted(p.state.hidden["traps"].values())[1])
    assert p.view()["seats"][0]["out"]


def test_the_dice_pass_to_the_left_each_round_chac_pass_1():
    """CHAC-PASS-1: the dice pass to the left each round."""
    p = Play(seats=3, keeper=1)
    keepers = []
    for _ in range(4):
        keepers.append(p.view()["dicekeeper"])
        p.to_actions(1, 1, 1, 1, 1)
        p.finish_actions()
        if p.state.phase == "walls":
            p.do("walls", None)
        p.dice(*([1] * min(p.state.round, 5)))
    assert keepers == [1, 2, 0, 1]


def test_game_ends_when_no_adventurer_is_left_in_the_temple_chac_end_1():
    """CHAC-END-1: game ends when no adventurer is left in the temple."""
    p = Play(seats=2)
    p.to_actions()
    p.place(0, "C29")
    p.do("move", 0, to="exit")
    assert p.view()["seats"][0]["adventurer"]["status"] == "escaped"
    p.pass_until(1)
    p.place(1, "C29")
    p.do("move", 1, to="exit")
    assert p.view()["phase"] == "over", "nobody left inside: no walls or boulder any more"
    assert p.view()["result"]["winners"] == [0, 1]  # both carry nothing: a shared win


def test_game_ends_when_nobody_is_inside_though_a_replacement_waits_chac_end_1():
    """CHAC-END-1: the game ends as soon as nobody is in the temple, even with sun space A
    open and a replacement waiting: it never walks in to beat the player who escaped."""
    p = Play(seats=2)
    p.to_actions()
    p.place(0, "C20")
    p.place(1, "C22")
    p.do("set_boulder", None, to="C10")  # sun space A opens
    assert p.view()["sun_open"]["A"]
    p.place(0, "C29")
    p.give_ids(0, p.cards_worth(1, 1))
    p.do("move", 0, to="exit")
    p.pass_until(1)
    _kill_in_lava(p, 1)
    assert p.view()["seats"][1]["replacement"] == "waiting"
    view = p.view()
    assert view["phase"] == "over", "no walls, no boulder, no replacement: the game is over"
    assert view["result"]["winners"] == [0] and view["result"]["scores"] == {"0": 1}
    assert p.legal(1) == [] and p.legal(None) == []


def test_only_escaped_players_score_caskets_revealed_highest_wins_chac_end_2():
    """CHAC-END-2: only escaped players score caskets revealed highest wins."""
    p = Play(seats=3)
    p.to_actions()
    p.place(0, "C29")
    cards = p.cards_worth(5, 2) + p.cards_worth("casket", 1)
    p.give_ids(0, cards)
    p.do("move", 0, to="exit")
    p.pass_until(1)
    p.place(1, "C29")
    p.give_ids(1, p.cards_worth(4, 3))
    p.do("move", 1, to="exit")
    p.pass_until(2)
    p.give_ids(2, p.cards_worth(5, 5))  # rich but never gets out
    p.finish_actions()
    p.do("walls", None)
    p.do("set_boulder", None, to="C29")
    result = p.view()["result"]
    casket = p.state.hidden["caskets"][cards[2].split("-")[0]]
    assert result["scores"] == {"0": 10 + casket, "1": 12}
    assert result["winners"] == ([0] if 10 + casket > 12 else [1] if casket < 2 else [0, 1])
    assert "2" not in result["scores"]


def test_nobody_wins_when_nobody_escapes_chac_end_2():
    """CHAC-END-2: nobody wins when nobody escapes."""
    p = Play()
    p.to_actions()
    p.finish_actions()
    p.do("walls", None)
    p.do("set_boulder", None, to="C29")
    assert p.view()["result"]["winners"] == []
    assert p.prompt_texts() == ["Game over: nobody escaped, nobody wins."]


def test_physical_mode_asks_escaped_players_for_their_card_values_chac_end_2():
    """CHAC-END-2: physical mode asks escaped players for their card values."""
    p = Play(seats=2, options={"treasure_mode": "physical"})
    p.to_actions()
    p.place(0, "Z1")
    p.do("search", 0)
    p.do("search", 0)
    assert p.seat_view(0)["you"]["cards"] is None and p.seat_view(0)["you"]["card_count"] == 2
    p.place(0, "C29")
    p.do("move", 0, to="exit")
    p.pass_until(1)
    p.finish_actions()
    p.do("walls", None)
    p.do("set_boulder", None, to="C29")
    assert p.state.phase == "score"
    assert p.prompt_texts() == ["Anna: enter your treasure card values"]
    p.refuse("score", 0, "CHAC-END-2", values=[3])
    p.refuse("score", 1, "CHAC-END-2", values=[])
    p.refuse("score", 0, "CHAC-TREAS-2", values=[3], caskets=["Q"])
    p.do("score", 0, values=[3], caskets=["Z1"])
    result = p.view()["result"]
    assert result["scores"] == {"0": 3 + p.state.hidden["caskets"]["Z1"]}
    assert result["winners"] == [0]


def test_the_load_phase_skips_a_player_a_correction_took_out_chac_ll_1():
    """CHAC-LL-1 with a correction: the bridge corrected to 0 planks takes Cleo out during the
    load phase; her discard turn is skipped and the action roll follows."""
    p = Play(seats=3)
    p.to_actions()
    for seat in range(3):
        p.give(seat, 1)
    p.place(2, "B")
    p.finish_actions()
    p.do("walls", None)
    p.dice(1)
    assert p.state.phase == "load" and p.view()["dicekeeper"] == 1
    p.do("set_planks", None, planks=0)  # during Ben's turn to discard
    assert p.view()["seats"][2]["adventurer"]["status"] == "eliminated"
    assert p.state.actor() == 1
    p.do("ready", 1)
    assert p.state.actor() == 0, "Cleo's turn is skipped"
    p.do("ready", 0)
    assert p.state.phase == "roll"
