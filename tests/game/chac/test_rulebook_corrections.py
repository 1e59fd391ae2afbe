"""Rules the engine once read differently from the publisher's rulebook (seed 001)."""

from __future__ import annotations

from .helpers import Play


def test_nobody_may_enter_the_boulders_space_chac_boul_5():
    """CHAC-BOUL-5: with the boulder on C1, C2 -> C1 is refused (and so is passing it to C0);
    later, with the boulder on C4, C3 -> C4 is refused: nobody escapes the boulder for free."""
    p = Play({0: "Lea Rice"})
    p.to_actions()
    p.place(0, "C2")
    p.do("set_boulder", None, to="C1")
    error = p.refuse("move", 0, "CHAC-BOUL-5", to="C1")
    assert "C1" in str(error)
    p.refuse("sprint", 0, "CHAC-BOUL-5", to="C1")
    assert "C1" not in [c.args.get("to") for c in p.legal(0)]
    p.do("move", 0, to="C3")
    p.do("set_boulder", None, to="C2")
    p.refuse("set_space", None, "CHAC-BOUL-5", player=1, to="C2")
    p.place(1, "Z4")
    p.pass_until(1)
    p.do("set_boulder", None, to="C4")
    p.refuse("move", 1, "CHAC-BOUL-5", to="C4")
    assert "C4" not in [c.args.get("to") for c in p.legal(1)]


def test_the_river_cannot_be_left_onto_the_boulder_chac_boul_5():
    """CHAC-BOUL-5: with the boulder lying where the river is left, nobody climbs out onto it;
    the adventurer on the last river space can only end the turn."""
    p = Play()
    p.to_actions()
    p.place(0, "R5")
    p.place(1, "C28")
    p.do("set_boulder", None, to="C27")
    p.refuse("river_exit", 0, "CHAC-BOUL-5")
    assert [c.type for c in p.legal(0)] == ["pass"]
    p.do("pass", 0)
    assert p.state.actor() == 1


def test_sprint_may_not_dive_into_the_river_unless_the_option_allows_chac_abil_sprint():
    """CHAC-ABIL-SPRINT: Sprint from C15 into R0 is refused by default (seed 000: it does not
    work in the river); the option `sprint_into_river` allows the dive."""
    p = Play({0: "Lea Rice"})
    p.to_actions(1, 1, 1, 1, 1)  # no actions: only the free Sprint
    p.place(0, "C15")
    p.refuse("sprint", 0, "CHAC-ABIL-SPRINT", to="R0")
    assert ("sprint", "R0") not in [(c.type, c.args.get("to")) for c in p.legal(0)]
    p = Play({0: "Lea Rice"}, options={"sprint_into_river": True})
    p.to_actions(1, 1, 1, 1, 1)
    p.place(0, "C15")
    assert ("sprint", "R0") in [(c.type, c.args.get("to")) for c in p.legal(0)]
    p.do("sprint", 0, to="R0")
    assert p.adv(0).space == "R0" and p.view()["seats"][0]["adventurer"]["ability_used"]


def test_only_the_dicekeeper_or_the_host_reveals_the_walls_chac_wall_2():
    """CHAC-WALL-2: seat 1 may not resolve the walls while seat 0 holds the dice; the
    dicekeeper may (it is offered to them), and so may the host."""
    p = Play(keeper=0)
    p.to_actions()
    p.finish_actions()
    assert p.state.phase == "walls"
    p.refuse("walls", 1, "CHAC-WALL-2")
    assert "walls" not in [c.type for c in p.legal(1)]
    assert "walls" in [c.type for c in p.legal(0)]
    p.do("walls", 0)
    assert p.state.phase == "boulder" and p.view()["walls"]["cards_left"] == 15
    p = Play(keeper=1)
    p.to_actions()
    p.finish_actions()
    p.refuse("walls", 0, "CHAC-WALL-2")
    p.do("walls", None)
    assert p.state.phase == "boulder"


def test_stamina_is_used_before_the_dicekeeper_rolls_chac_abil_stamina():
    """CHAC-ABIL-STAMINA: once load levels are set (everyone ready) and before the dicekeeper
    rolls, Stamina lowers the load level by one, from 2 to 1 as well; once the action dice
    are in, it is too late."""
    p = Play({1: "Bill Baker"})
    assert p.state.phase == "roll", "nobody carries cards: load levels are set at once"
    assert "stamina" in [c.type for c in p.legal(1)]
    p.do("stamina", 1)
    assert p.view()["seats"][1]["adventurer"]["load_level"] == 1
    p.dice(1, 1, 1, 1, 1)
    assert p.adv(1).actions == 5 and p.adv(0).actions == 0
    p = Play({1: "Mustafa Ibrahin"})
    p.dice(2, 2, 2, 2, 2)
    p.refuse("stamina", 1, "CHAC-ABIL-STAMINA")


def test_trap_numbers_are_public_the_glyphs_secret_chac_glyph_1():
    """CHAC-GLYPH-1: the four trap numbers are public from setup (the clue tiles lie number
    side up); which glyph a trap number has is shown only to the seat that deciphers it."""
    p = Play(start=False)
    traps = p.view()["traps"]
    assert sorted(traps) == ["1", "2", "3", "4"] and len(set(traps.values())) == 4
    assert all(1 <= n <= 14 for n in traps.values())
    assert traps == {z: n for z, n in p.state.hidden["traps"].items()}
    p.do("choose_adventurer", 0, adventurer=p.state.seats[0].dealt[0])
    p.do("choose_adventurer", 1, adventurer=p.state.seats[1].dealt[0])
    p.do("first_dicekeeper", None, keeper=0)
    p.to_actions()
    p.place(0, "Z3")
    p.do("decipher", 0)
    assert p.seat_view(0)["you"]["decipher"]["number"] == traps["3"]
    assert p.seat_view(1)["you"]["decipher"] is None
    assert all(s.get("decipher") is None for s in p.view()["seats"])
