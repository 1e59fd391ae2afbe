"""The worked examples of the publisher's rulebook (seed 001), played through the engine."""

from __future__ import annotations

from companion.game.chac import ChacGame

from .helpers import Play

GAME = ChacGame()


def test_lea_in_zone_4_searches_deciphers_and_leaves_chac_walls_1_glyph_2():
    """Lea, on zone 4 with 3 actions: search, decipher, then move into the corridor
    (CHAC-WALLS-1, CHAC-GLYPH-2, CHAC-MOVE-1)."""
    p = Play({0: "Lea Rice"})
    p.to_actions(1, 1, 2, 3, 4)  # three dice at or above load level 2
    p.place(0, "Z4")
    assert p.prompt_texts() == ["Lea: 3 actions left"]
    top = p.state.decks["Z4"][-1]
    p.do("search", 0)
    assert p.adv(0).cards == [top]
    assert p.view()["decks"]["Z4"] == 9
    assert p.seat_view(0)["you"]["cards"] == [{"id": top, "value": p.state.values[top]}]
    p.do("decipher", 0)
    glyph = p.seat_view(0)["you"]["decipher"]
    assert glyph["zone"] == 4 and glyph["number"] == p.view()["traps"]["4"]
    assert p.seat_view(1)["you"]["decipher"] is None
    assert p.prompt_texts() == ["Lea: 1 action left"]
    p.do("move", 0, to="C4")
    assert p.adv(0).space == "C4"
    # Her Sprint (no action needed) is still unused, so her turn waits for her to end it.
    assert p.prompt_texts() == ["Lea: no actions left (ability still possible)"]
    p.do("pass", 0)
    assert p.state.actor() == 1


def test_bill_jumps_onto_a_slab_and_takes_its_treasure_chac_lava_1_lava_2():
    """Bill, 2 actions: onto a solid slab (CHAC-LAVA-1, CHAC-LAVA-3), then takes its treasure
    (CHAC-LAVA-2); play passes to the left."""
    p = Play({0: "Bill Baker"})
    p.to_actions(1, 1, 1, 2, 2)
    p.place(0, "C6")
    assert p.view()["lava"]["revealed"]
    safe = next(n for n in range(1, 15) if n not in p.state.hidden["traps"].values())
    p.do("move", 0, to="L(3,2)")
    assert p.prompt_texts() == ["Bill: type the number on slab L(3,2)"]
    p.do("slab", 0, number=safe)
    assert p.adv(0).space == "L(3,2)"
    assert p.view()["lava"]["slabs"]["L(3,2)"] == {"state": "number", "number": safe}
    card = p.state.decks["L"][-1]
    p.do("take", 0)
    assert p.adv(0).cards == [card]
    assert p.view()["lava"]["slabs"]["L(3,2)"]["state"] == "emptied"
    assert p.view()["decks"]["L"] == 9
    assert p.state.actor() == 1


def test_martin_at_the_river_exit_with_9_cards_fails_his_reroll_chac_river_2():
    """Martin carries 9 cards (load level 4, CHAC-LL-1): 4 dice, two 1s, 6 cards let go to
    reroll both, one 1 again: swept into the waterfall (CHAC-RIVER-2)."""
    p = Play({0: "Martin Fletcher"})
    p.place(0, "R5")
    p.give(0, 9)
    p.to_actions(4, 4, 1, 1, 1)
    assert p.view()["seats"][0]["adventurer"]["load_level"] == 4
    p.refuse("pass", 0, "CHAC-RIVER-2")
    p.refuse("move", 0, "CHAC-RIVER-2", to="C27")
    p.do("river_exit", 0)
    assert p.prompt_texts() == ["Martin: Roll 4 dice for the river exit"]
    p.dice(1, 3, 1, 5)
    assert p.view()["river"] == {"seat": 0, "rerollable": 2, "final": 0}
    p.refuse("river_reroll", 0, "CHAC-RIVER-2", cards=p.adv(0).cards[:3])
    discarded = p.adv(0).cards[:6]
    p.do("river_reroll", 0, cards=discarded)
    assert len(p.adv(0).cards) == 3
    assert p.prompt_texts() == ["Martin: Roll 2 dice for the river exit"]
    p.dice(4, 1)
    martin = p.view()["seats"][0]["adventurer"]
    assert martin["status"] == "eliminated" and martin["cards"] == 0
    assert p.view()["discard"] == 9


def test_martin_whose_reroll_succeeds_climbs_out_beside_the_last_river_space_chac_river_2():
    """CHAC-RIVER-2: martin whose reroll succeeds climbs out beside the last river space."""
    p = Play({0: "Martin Fletcher"})
    p.place(0, "R5")
    p.give(0, 9)
    p.to_actions(4, 4, 1, 1, 1)
    p.do("river_exit", 0)
    p.dice(1, 3, 1, 5)
    p.do("river_reroll", 0, cards=p.adv(0).cards[:6])
    p.dice(4, 2)
    assert p.adv(0).space == "C27" and p.adv(0).status == "alive"
    assert p.adv(0).actions == 1, "remaining actions may be used in the corridor"


def test_puccio_searches_moves_and_searches_the_riverbed_chac_river_1():
    """Puccio, 3 actions in the river: search (lying down), move downstream, search; his next
    turn must start with a move (CHAC-RIVER-1)."""
    p = Play({0: "Puccio Cortese"})
    p.place(0, "R1")
    p.to_actions(1, 1, 3, 4, 5)
    p.do("search", 0)
    assert p.view()["seats"][0]["adventurer"]["lying"]
    p.refuse("search", 0, "CHAC-RIVER-1")
    p.refuse("move", 0, "CHAC-RIVER-1", to="R0")  # no upstream moves
    p.do("move", 0, to="R2")
    p.do("search", 0)
    assert len(p.adv(0).cards) == 2
    assert p.view()["decks"]["R"] == 8
    p.finish_actions()
    p.do("walls", None)
    p.dice(1)  # the boulder stays
    p.to_actions(6, 6, 6, 6, 6)
    p.pass_until(0)
    p.refuse("search", 0, "CHAC-RIVER-1")
    p.do("move", 0, to="R3")
    p.do("search", 0)
    assert len(p.adv(0).cards) == 3


def _next_round(p: Play, boulder: tuple[int, ...]) -> None:
    p.to_actions(1, 1, 1, 1, 1)
    p.finish_actions()
    if p.state.phase == "walls":
        p.do("walls", None)
    p.dice(*boulder)


def test_fifth_round_boulder_rolls_5_dice_and_moves_3_chac_boul_1():
    """In round 5 the boulder rolls 5 dice; 3 dice at 3 or more move it 3 spaces
    (CHAC-BOUL-1)."""
    p = Play()
    for r in range(1, 5):
        assert p.state.round == r
        _next_round(p, (1,) * min(r, 5))
    assert p.state.round == 5 and p.view()["boulder"]["index"] == 0
    p.to_actions(1, 1, 1, 1, 1)
    p.finish_actions()
    if p.state.phase == "walls":
        p.do("walls", None)
    assert p.prompt_texts() == ["Roll 5 dice for the boulder"]
    p.dice(1, 2, 4, 5, 6)
    assert p.view()["boulder"]["space"] == "C3"


def _seed_with_walls(left: int, right: int) -> int:
    for seed in range(5000):
        cards = GAME.setup({}, ["a", "b"], seed).hidden["walls"][:3]
        moved = (
            sum(c in ("left", "both") for c in cards),
            sum(c in ("right", "both") for c in cards),
        )
        if moved == (left, right):
            return seed
    raise AssertionError("no such seed")


def test_three_wall_cards_move_the_left_wall_twice_and_the_right_once_chac_wall_2():
    """Three revealed wall cards with two orange and one grey arrow between them move the left
    wall twice and the right wall once (CHAC-WALL-2)."""
    p = Play(seed=_seed_with_walls(2, 1))
    p.to_actions(1, 1, 1, 1, 1)
    p.finish_actions()
    assert p.prompt_texts() == ["Reveal the next 3 wall cards"]
    p.do("walls", None)
    walls = p.view()["walls"]
    assert (walls["left"], walls["right"]) == (2, 1)
    assert walls["last_revealed"] == p.state.hidden["walls"][:3]
    assert walls["cards_left"] == 15
    assert p.prompt_texts() == ["Roll 1 die for the boulder"]
