"""Actions: movement, the walls room, the lava room, alcoves, the river, the bridge, the exit."""

from __future__ import annotations

from .helpers import Play


def test_moves_cross_dashed_edges_only_not_diagonally_chac_move_1():
    """CHAC-MOVE-1: moves cross dashed edges only not diagonally."""
    p = Play(seats=2)
    p.to_actions()
    p.refuse("move", 0, "CHAC-MOVE-1", to="Z2")  # not adjacent to the entrance
    p.refuse("move", 0, "", to="Q7")  # no such space
    p.do("move", 0, to="Z1")
    p.place(0, "C7")
    p.refuse("move", 0, "CHAC-MOVE-1", to="L(3,2)")  # diagonal
    p.do("move", 0, to="C8")
    p.do("move", 0, to="C9")
    assert p.adv(0).space == "C9" and p.adv(0).actions == 2
    p.pass_until(1)
    p.place(1, "C9")  # any number of adventurers may share a space
    assert p.adv(1).space == p.adv(0).space == "C9"


def test_every_move_costs_an_action_chac_move_1():
    """CHAC-MOVE-1: every move costs an action."""
    p = Play({0: "Bill Baker"})
    p.to_actions(1, 1, 1, 1, 2)
    p.do("move", 0, to="Z1")
    assert p.state.actor() == 1, "Bill's only action is spent"


def test_the_first_adventurer_next_to_the_lava_room_reveals_it_chac_move_2():
    """CHAC-MOVE-2: the first adventurer on a space sharing an edge with the lava room reveals
    it; C4, which touches the room only at a corner, does not."""
    p = Play()
    p.to_actions()
    p.place(0, "C3")
    assert not p.view()["lava"]["revealed"]
    p.do("move", 0, to="C4")
    assert not p.view()["lava"]["revealed"], "C4 touches the lava room only at a corner"
    p.do("move", 0, to="C5")
    assert p.view()["lava"]["revealed"]
    assert "The lava room is revealed: take the masking card off." in p.view()["log"]


def test_search_takes_the_zone_deck_and_may_repeat_chac_walls_1():
    """CHAC-WALLS-1: search takes the zone deck and may repeat."""
    p = Play()
    p.to_actions()
    p.place(0, "Z2")
    top = list(reversed(p.state.decks["Z2"]))[:3]
    for _ in range(3):
        p.do("search", 0)
    assert p.adv(0).cards == top
    assert p.view()["decks"]["Z2"] == 7 and p.view()["decks"]["Z1"] == 10
    p.place(0, "C4")
    p.refuse("search", 0, "CHAC-WALLS-1")
    p.refuse("decipher", 0, "CHAC-WALLS-1")


def test_decipher_shows_the_zone_glyph_only_to_the_player_chac_glyph_2():
    """CHAC-GLYPH-2: decipher shows the zone glyph only to the player."""
    p = Play()
    p.to_actions()
    p.place(0, "Z3")
    p.do("decipher", 0)
    first = p.seat_view(0)["you"]["decipher"]
    assert first["zone"] == 3 and first["number"] == p.state.hidden["traps"]["3"]
    p.do("decipher", 0)
    assert p.seat_view(0)["you"]["decipher"]["id"] != first["id"], "each peek is a new one"
    assert p.seat_view(1)["you"]["decipher"] is None
    assert "decipher" not in p.view()


def test_a_trap_slab_collapses_with_the_adventurer_and_is_gone_for_good_chac_lava_1():
    """CHAC-LAVA-1: a trap slab collapses with the adventurer and is gone for good."""
    p = Play(seats=2)
    p.to_actions()
    p.place(0, "C6")
    p.do("move", 0, to="L(3,2)", number=p.trap())
    assert p.view()["seats"][0]["adventurer"]["status"] == "eliminated"
    assert p.view()["seats"][0]["adventurer"]["fate"] == "lava"
    assert p.view()["lava"]["slabs"]["L(3,2)"] == {"state": "fallen", "number": p.trap()}
    p.pass_until(1)
    p.place(1, "C6")
    p.refuse("move", 1, "CHAC-LAVA-1", to="L(3,2)")


def test_sun_spaces_are_never_traps_and_hold_no_treasure_chac_lava_1():
    """CHAC-LAVA-1: sun spaces are never traps and hold no treasure."""
    p = Play()
    p.to_actions()
    p.place(0, "C8")
    p.do("move", 0, to="L(3,0)")  # sun space A: no number asked, no fall
    assert p.adv(0).space == "L(3,0)" and p.state.slab_wait is None
    assert "L(3,0)" not in p.view()["lava"]["slabs"]
    p.refuse("take", 0, "CHAC-LAVA-2")


def test_a_turned_slab_number_is_typed_and_remembered_chac_lava_3():
    """CHAC-LAVA-3: a turned slab number is typed and remembered."""
    p = Play(seats=2)
    p.to_actions()
    p.place(0, "C6")
    safe = p.safe()
    p.do("move", 0, to="L(3,2)")
    assert p.view()["slab_wait"] == {"seat": 0, "space": "L(3,2)"}
    p.refuse("pass", 0, "CHAC-LAVA-3")
    p.refuse("slab", 0, "CHAC-LAVA-3", number=15)
    p.refuse("slab", 1, "CHAC-LAVA-3", number=safe)
    p.do("slab", 0, number=safe)
    p.do("move", 0, to="C6")
    p.do("move", 0, to="L(3,2)")  # already turned: no number asked again
    assert p.adv(0).space == "L(3,2)" and p.state.slab_wait is None
    p.refuse("move", 0, "CHAC-LAVA-3", to="L(3,3)", number=safe)  # a number is on one slab


def test_a_slab_treasure_is_taken_once_chac_lava_2():
    """CHAC-LAVA-2: a slab treasure is taken once."""
    p = Play()
    p.to_actions()
    p.place(0, "C6")
    p.do("move", 0, to="L(3,2)", number=p.safe())
    p.do("take", 0)
    p.refuse("take", 0, "CHAC-LAVA-2")
    assert len(p.adv(0).cards) == 1 and p.view()["decks"]["L"] == 9


def test_alcove_needs_faces_1_2_3_and_rerolls_cost_an_action_chac_alc_1():
    """CHAC-ALC-1: alcove needs faces 1 2 3 and rerolls cost an action."""
    p = Play(seats=2)
    p.to_actions()
    p.place(0, "C9")
    p.refuse("alcove", 0, "CHAC-ALC-1")  # no alcove beside C9
    p.place(0, "C10")
    p.refuse("reroll", 0, "CHAC-ALC-1", dice=[0])  # nothing rolled yet this turn
    p.do("alcove", 0)
    assert p.prompt_texts()[0].endswith("Roll 5 dice for the alcove")
    p.dice(1, 2, 5, 5, 6)
    assert p.view()["alcove"]["missing"] == 1
    assert p.adv(0).actions == 4
    p.do("reroll", 0, dice=[2, 3])
    assert p.prompt_texts()[0].endswith("Roll 2 dice for the alcove")
    p.dice(3, 6)
    assert p.adv(0).actions == 3, "success costs no extra action"
    assert p.state.values[p.adv(0).cards[0]] == 4
    assert not next(a for a in p.view()["alcoves"] if a["space"] == "C10")["card"]
    p.refuse("alcove", 0, "CHAC-ALC-1")  # emptied


def test_chasm_alcove_needs_1_to_5_and_attempts_do_not_carry_over_chac_alc_1():
    """CHAC-ALC-1: chasm alcove needs 1 to 5 and attempts do not carry over."""
    p = Play(seats=2)
    p.to_actions()
    p.place(0, "C28")
    p.do("alcove", 0)
    p.dice(1, 2, 3, 4, 6)
    assert p.view()["alcove"]["missing"] == 1
    p.do("move", 0, to="C27")
    p.do("move", 0, to="C28")
    p.refuse("reroll", 0, "CHAC-ALC-1", dice=[4])  # another action ended the attempt
    p.do("alcove", 0)
    p.dice(5, 4, 3, 2, 1)
    assert p.state.values[p.adv(0).cards[0]] == 6


def test_river_is_entered_by_dashed_edges_and_flows_one_way_chac_river_1():
    """CHAC-RIVER-1: river is entered by dashed edges and flows one way."""
    p = Play()
    p.to_actions()
    p.place(0, "C17")
    p.refuse("move", 0, "CHAC-RIVER-1", to="R1")
    p.place(0, "C16")
    p.do("move", 0, to="R1")
    p.refuse("move", 0, "CHAC-RIVER-1", to="C16")  # no way back out
    p.refuse("move", 0, "CHAC-RIVER-1", to="R0")  # no upstream move
    p.do("move", 0, to="R2")
    p.place(0, "R5")
    p.refuse("search", 0, "CHAC-RIVER-2")  # exiting is the only action there


def test_no_search_on_the_last_river_space_chac_river_1():
    """CHAC-RIVER-1: no search on the last river space."""
    p = Play()
    p.to_actions()
    p.place(0, "R4")
    p.do("move", 0, to="R5")
    assert "search" not in [c.type for c in p.legal(0)]
    p.refuse("search", 0, "CHAC-RIVER-2")


def test_river_exit_dice_count_cards_taken_this_turn_chac_river_2():
    """CHAC-RIVER-2: river exit dice count cards taken this turn."""
    p = Play({0: "Lea Rice"})
    p.place(0, "R3")
    p.to_actions(6, 6, 6, 6, 6)
    p.give(0, 3)
    p.do("search", 0)  # a fourth card: load level 3 now
    p.do("move", 0, to="R4")
    p.do("move", 0, to="R5")
    p.do("river_exit", 0)
    assert p.view()["roll"] == {"purpose": "river", "dice": 3, "seat": 0}
    p.dice(2, 3, 4)
    assert p.adv(0).space == "C27"


def test_river_exit_with_a_1_and_too_few_cards_eliminates_chac_river_2():
    """CHAC-RIVER-2: river exit with a 1 and too few cards eliminates."""
    p = Play()
    p.place(0, "R5")
    p.give(0, 2)
    p.to_actions()
    p.do("river_exit", 0)
    p.dice(1, 6)
    assert p.view()["seats"][0]["adventurer"]["status"] == "eliminated"
    assert p.view()["seats"][0]["adventurer"]["fate"] == "river"


def test_river_exit_one_may_give_up_instead_of_rerolling_chac_river_2():
    """CHAC-RIVER-2: river exit one may give up instead of rerolling."""
    p = Play()
    p.place(0, "R5")
    p.give(0, 3)
    p.to_actions()
    p.do("river_exit", 0)
    p.dice(1, 6)
    assert "discard 3 cards to reroll" in p.prompt_texts()[0]
    p.refuse("river_reroll", 0, "CHAC-RIVER-2", cards=p.adv(0).cards[:2])
    p.do("river_give_up", 0)
    assert p.view()["seats"][0]["adventurer"]["status"] == "eliminated"
    assert p.view()["seats"][0]["adventurer"]["fate"] == "river"


def _on_bridge_test(p: Play, seat: int, dice: tuple[int, ...]) -> None:
    p.place(seat, "C17")
    p.do("move", seat, to="B")
    assert p.view()["roll"] == {"purpose": "bridge", "dice": p.state.planks, "seat": seat}
    p.dice(*dice)


def test_bridge_dice_below_the_load_level_break_planks_chac_bridge_1():
    """CHAC-BRIDGE-1: bridge dice below the load level break planks."""
    p = Play(seats=2)
    p.to_actions()
    p.give(0, 4)  # load level 3
    _on_bridge_test(p, 0, (1, 2, 3, 4, 6))
    assert p.view()["planks"] == 3
    p.do("move", 0, to="C24")  # leaving the bridge is a normal move
    assert p.state.roll is None and p.adv(0).space == "C24"


def test_bridge_load_is_summed_over_everyone_on_it_chac_bridge_1():
    """CHAC-BRIDGE-1: bridge load is summed over everyone on it."""
    p = Play(seats=2)
    p.to_actions()
    _on_bridge_test(p, 0, (6, 6, 6, 6, 6))
    p.pass_until(1)
    _on_bridge_test(p, 1, (3, 3, 4, 4, 6))  # load 2 + 2 = 4: the 3s break
    assert p.view()["planks"] == 3


def test_bridge_falls_with_everyone_on_it_chac_bridge_1():
    """CHAC-BRIDGE-1: bridge falls with everyone on it."""
    p = Play(seats=2)
    p.to_actions()
    _on_bridge_test(p, 0, (6, 6, 6, 6, 6))
    p.pass_until(1)
    p.do("set_planks", None, planks=2)
    _on_bridge_test(p, 1, (1, 1))
    assert [s["adventurer"]["status"] for s in p.view()["seats"]] == ["eliminated"] * 2
    assert [s["adventurer"]["fate"] for s in p.view()["seats"]] == ["bridge"] * 2
    assert p.view()["planks"] == 0
    # CHAC-END-1: nobody is left in the temple; replacements waiting outside do not count.
    assert p.state.phase == "over"


def test_nobody_may_step_onto_a_fallen_bridge_chac_bridge_1():
    """CHAC-BRIDGE-1: nobody may step onto a fallen bridge."""
    p = Play()
    p.to_actions()
    p.do("set_planks", None, planks=0)
    p.place(0, "C17")
    p.refuse("move", 0, "CHAC-BRIDGE-1", to="B")


def test_sabotage_repeats_the_bridge_test_chac_bridge_2():
    """CHAC-BRIDGE-2: sabotage repeats the bridge test."""
    p = Play()
    p.to_actions()
    p.refuse("sabotage", 0, "CHAC-BRIDGE-2")
    _on_bridge_test(p, 0, (6, 6, 6, 6, 6))
    p.do("sabotage", 0)
    assert p.view()["roll"]["purpose"] == "bridge"
    p.dice(1, 1, 6, 6, 6)
    assert p.view()["planks"] == 3 and p.adv(0).actions == 3


def test_leaving_the_temple_from_the_last_space_is_final_chac_exit_1():
    """CHAC-EXIT-1: leaving the temple from the last space is final."""
    p = Play(seats=2)
    p.to_actions()
    p.place(0, "C28")
    p.refuse("move", 0, "CHAC-EXIT-1", to="exit")
    p.do("move", 0, to="C29")
    p.do("move", 0, to="exit")
    seat = p.view()["seats"][0]
    assert seat["adventurer"]["status"] == "escaped" and seat["adventurer"]["space"] is None
    assert seat["adventurer"]["fate"] == "escaped"
    assert seat["replacement"] == "none"
    assert p.state.actor() == 1
    p.finish_actions()
    p.do("walls", None)
    p.do("set_boulder", None, to="C14")
    p.dice(1)
    assert p.state.phase != "replace", "an escaped player brings in no replacement"
