"""Special abilities: once per game per adventurer."""

from __future__ import annotations

from .helpers import Play


def test_sprint_is_a_free_move_once_per_game_chac_abil_sprint():
    """CHAC-ABIL-SPRINT: sprint is a free move once per game."""
    p = Play({0: "Lea Rice"})
    p.to_actions(1, 1, 1, 2, 2)
    p.do("sprint", 0, to="Z1")
    assert p.adv(0).space == "Z1" and p.adv(0).actions == 2
    assert p.view()["seats"][0]["adventurer"]["ability_used"]
    p.refuse("sprint", 0, "CHAC-ABIL-SPRINT", to="Z2")


def test_sprint_is_not_used_in_the_river_chac_abil_sprint():
    """CHAC-ABIL-SPRINT: sprint is not used in the river."""
    p = Play({0: "Lea Rice"})
    p.to_actions(1, 1, 1, 2, 2)
    p.place(0, "C15")
    p.do("move", 0, to="R0")
    p.refuse("sprint", 0, "CHAC-ABIL-SPRINT", to="R1")
    p.do("move", 0, to="R1")
    assert p.state.actor() == 1, "no action left and no Sprint in the river: the turn ends"


def test_sprint_works_with_no_action_left_chac_abil_sprint():
    """CHAC-ABIL-SPRINT: sprint works with no action left."""
    p = Play({0: "Martin Fletcher"})
    p.to_actions(1, 1, 1, 1, 2)
    p.place(0, "C27")
    p.do("move", 0, to="C28")
    assert p.state.actor() == 0, "his unused Sprint keeps the turn open"
    assert p.prompt_texts() == ["Martin: no actions left (ability still possible)"]
    p.do("sprint", 0, to="C29")
    assert p.adv(0).space == "C29" and p.state.actor() == 1


def test_stamina_lowers_the_load_level_for_this_round_only_chac_abil_stamina():
    """CHAC-ABIL-STAMINA: stamina lowers the load level for this round only."""
    p = Play({0: "Bill Baker"})
    p.give(0, 4)  # load level 3
    p.do("stamina", 0)
    assert p.view()["seats"][0]["adventurer"]["load_level"] == 2
    p.dice(1, 2, 2, 3, 6)
    assert p.adv(0).actions == 4
    p.refuse("stamina", 0, "CHAC-ABIL-STAMINA")
    p.finish_actions()
    p.do("walls", None)
    p.dice(1)
    assert p.view()["seats"][0]["adventurer"]["load_level"] == 3


def test_stamina_is_refused_during_actions_and_for_other_abilities_chac_abil_stamina():
    """CHAC-ABIL-STAMINA: stamina is refused during actions and for other abilities."""
    p = Play({0: "Bill Baker", 1: "Lea Rice"})
    p.refuse("stamina", 1, "CHAC-ABIL-STAMINA")
    p.to_actions()
    p.refuse("stamina", 0, "CHAC-ABIL-STAMINA")


def test_linguistics_peeks_beside_an_unturned_slab_chac_abil_ling():
    """CHAC-ABIL-LING: linguistics peeks beside an unturned slab."""
    p = Play({0: "Trevor Griffith"})
    p.to_actions()
    p.place(0, "C7")
    p.refuse("linguistics", 0, "CHAC-ABIL-LING", space="L(3,2)")  # diagonal
    p.do("linguistics", 0, space="L(3,1)")
    assert p.adv(0).actions == 5, "peeking costs no action"
    peek = p.seat_view(0)["you"]["peek"]
    assert peek == {"space": "L(3,1)", "traps": sorted(p.state.hidden["traps"].values())}
    assert p.seat_view(1)["you"]["peek"] is None
    p.refuse("linguistics", 0, "CHAC-ABIL-LING", space="L(3,1)")  # used up


def test_linguistics_not_on_a_turned_slab_chac_abil_ling():
    """CHAC-ABIL-LING: linguistics not on a turned slab."""
    p = Play({0: "Arely Tamay"})
    p.to_actions()
    p.place(0, "C6")
    p.do("move", 0, to="L(3,2)", number=p.safe())
    p.do("move", 0, to="C6")
    p.refuse("linguistics", 0, "CHAC-ABIL-LING", space="L(3,2)")


def test_lock_picking_succeeds_when_one_face_is_missing_chac_abil_lock():
    """CHAC-ABIL-LOCK: lock picking succeeds when one face is missing."""
    p = Play({0: "Markus Bassler"})
    p.to_actions(1, 1, 1, 1, 2)
    p.place(0, "C11")
    p.do("alcove", 0)
    p.dice(1, 2, 6, 6, 6)  # missing the 3; no action left
    assert p.state.actor() == 0
    assert "lock_pick" in [c.type for c in p.legal(0)]
    p.do("lock_pick", 0)
    assert p.state.values[p.adv(0).cards[0]] == 4
    assert p.state.actor() == 1


def test_lock_picking_needs_exactly_one_missing_face_chac_abil_lock():
    """CHAC-ABIL-LOCK: lock picking needs exactly one missing face."""
    p = Play({0: "Len Tso Yau"})
    p.to_actions()
    p.place(0, "C28")
    p.do("alcove", 0)
    p.dice(1, 2, 3, 6, 6)  # 4 and 5 missing
    p.refuse("lock_pick", 0, "CHAC-ABIL-LOCK")


def test_swimming_ignores_one_1_when_exiting_the_river_chac_abil_swim():
    """CHAC-ABIL-SWIM: swimming ignores one 1 when exiting the river."""
    p = Play({0: "Tatiana Bregovic"})
    p.place(0, "R5")
    p.to_actions()
    p.do("river_exit", 0)
    p.dice(1, 5)
    assert p.prompt_texts()[0].startswith("Tatiana: 1 one(s) in the river: swim")
    p.do("swim", 0)
    assert p.adv(0).space == "C27"


def test_swimming_after_a_reroll_and_only_once_chac_abil_swim():
    """CHAC-ABIL-SWIM: swimming after a reroll and only once."""
    p = Play({0: "Puccio Cortese"})
    p.place(0, "R5")
    p.give(0, 7)  # load level 4
    p.to_actions()
    p.do("river_exit", 0)
    p.dice(1, 1, 4, 4)
    p.do("river_reroll", 0, cards=p.adv(0).cards[:6])
    p.dice(1, 3)
    p.do("swim", 0)
    assert p.adv(0).space == "C27" and len(p.adv(0).cards) == 1
    p.refuse("swim", 0, "CHAC-RIVER-2")


def test_leap_is_a_diagonal_move_for_one_action_chac_abil_leap():
    """CHAC-ABIL-LEAP: leap is a diagonal move for one action."""
    p = Play({0: "Vincent Gerondeau"})
    p.to_actions()
    p.place(0, "Z3")
    p.refuse("leap", 0, "CHAC-ABIL-LEAP", to="C5")
    p.do("leap", 0, to="C4")  # out of the walls room
    assert p.adv(0).space == "C4" and p.adv(0).actions == 4
    p.refuse("leap", 0, "CHAC-ABIL-LEAP", to="L(3,3)")  # once per game


def test_leap_may_dive_into_but_not_out_of_the_river_chac_abil_leap():
    """CHAC-ABIL-LEAP: leap may dive into but not out of the river."""
    p = Play({0: "Nicole Lagger"})
    p.to_actions()
    p.place(0, "R4")
    p.refuse("leap", 0, "CHAC-ABIL-LEAP", to="C25")
    p.place(0, "C16")
    p.do("leap", 0, to="R2")
    assert p.adv(0).space == "R2"
