"""A turn: action points, moving, researching the kings, exploring temples, the round's chit."""

from __future__ import annotations

import json

from companion.game.protocol import Command

from .helpers import GAME, Play


def test_five_points_a_turn_and_a_sixth_is_refused_moct_turn_1():
    """MOCT-TURN-1: 5 action points; an action costing more than is left is refused."""
    p = Play()
    assert p.view()["points"] == 5
    for to in (1, 2, 3):  # Library -> temple 1 -> 2 -> 3: 3 points, actions repeated
        p.do("move", 0, to=to)
    assert p.view()["points"] == 2
    p.do("move", 0, to=4)
    said = p.refused("MOCT-TURN-1", "explore", 0, size=2)
    assert "1 left" in said
    p.do("move", 0, to=5)  # the 5th point ends the turn by itself
    assert p.view()["turn"] == 1 and p.view()["points"] == 5
    assert p.refused("MOCT-TURN-1", "move", 0, to=0).startswith("It is Ben's turn")


def test_points_left_are_lost_or_carried_moct_turn_1():
    """MOCT-TURN-1 (chosen): points left at the end of a turn are lost; with carry_points they
    come back on the player's next turn."""
    p = Play()
    p.do("move", 0, to=1)
    p.end_turns(2)
    assert p.view()["turn"] == 0 and p.view()["points"] == 5
    q = Play(options={"carry_points": True})
    q.do("move", 0, to=1)
    q.end_turns(2)
    assert q.view()["points"] == 9


def test_a_turn_ended_by_its_last_point_carries_nothing_moct_turn_1():
    """MOCT-TURN-1 (chosen): with carry_points, a turn that ends by itself when its last point
    is spent has nothing left to carry: the player's next turn has the usual 5."""
    q = Play(options={"carry_points": True})
    for to in (1, 2, 3, 4, 5):  # the 5th move spends the last point and ends the turn
        q.do("move", 0, to=to)
    assert q.view()["turn"] == 1
    q.end_turns(1)
    assert q.view()["turn"] == 0 and q.view()["points"] == 5


def test_moving_goes_to_adjacent_locations_only_moct_move_1():
    """MOCT-MOVE-1 (chosen): the Library touches every temple, temple n touches n-1 and n+1
    in a ring; anything else is refused. Without the ring temples touch only the Library."""
    p = Play()
    assert [c.args["to"] for c in GAME.legal(p.state, 0) if c.type == "move"] == list(range(1, 11))
    p.do("move", 0, to=10)
    assert p.view()["locations"][10]["next_to"] == [0, 1, 9]
    p.refused("MOCT-MOVE-1", "move", 0, to=5)
    p.refused("MOCT-MOVE-1", "move", 0, to=11)
    p.do("move", 0, to=1)
    assert p.view()["seats"][0]["place"] == "temple 1"
    q = Play(options={"temple_ring": False})
    q.do("move", 0, to=3)
    q.refused("MOCT-MOVE-1", "move", 0, to=4)


def test_the_host_corrects_a_researchers_location_moct_move_1():
    """MOCT-MOVE-1: the host can put a researcher where it really stands, costing no points;
    players cannot."""
    p = Play()
    p.do("place", None, player=1, at=7)
    assert p.view()["seats"][1]["at"] == 7 and p.view()["points"] == 5
    p.refused("MOCT-MOVE-1", "place", None, player=1, at=12)
    p.refused("", "place", 0, player=1, at=3)


def test_research_peeks_privately_at_chosen_chits_moct_res_1():
    """MOCT-RES-1: at the Library, 2 points peek at 2 chits and 3 points at 5, the player's
    choice; the faces go to that seat's view and record sheet only."""
    p = Play(seats=3)
    public_before = p.view()
    p.do("research", 0, size=2, chits=[3, 9])
    seen = p.seat_view(0)["you"]["research"]
    assert seen == [{"space": 3, "face": p.state.chit(3)}, {"space": 9, "face": p.state.chit(9)}]
    assert p.seat_view(0)["you"]["record"]["chits"] == seen
    assert p.view()["points"] == 3
    for other in (1, 2):
        assert p.seat_view(other)["you"]["research"] is None
        assert p.seat_view(other)["you"]["record"]["chits"] == []
    assert p.view()["chits"] == public_before["chits"]
    p.do("research", 0, size=5, chits=[0, 1, 2, 4, 14])
    assert len(p.seat_view(0)["you"]["record"]["chits"]) == 7
    assert p.view()["turn"] == 1  # 2 + 3 points: the turn is over


def test_research_needs_the_library_and_the_right_number_moct_res_1():
    p = Play()
    p.refused("MOCT-RES-1", "research", 0, size=2, chits=[0])
    p.refused("MOCT-RES-1", "research", 0, size=2, chits=[0, 0])
    p.refused("MOCT-RES-1", "research", 0, size=5, chits=[0, 1])
    p.refused("MOCT-RES-1", "research", 0, size=3, chits=[0, 1, 2])
    p.refused("MOCT-RES-1", "research", 0, size=2, chits=[0, 15])
    p.do("move", 0, to=2)
    assert "at the Library" in p.refused("MOCT-RES-1", "research", 0, size=2, chits=[0, 1])


def test_peeking_at_a_face_up_chit_is_refused_moct_res_1():
    """MOCT-RES-1: only face-down chits can be peeked at."""
    p = Play()
    p.end_turns(2)  # round 1 over: chit 0 is face up
    assert p.view()["chits"][0]["face_up"]
    assert "face up" in p.refused("MOCT-RES-1", "research", 0, size=2, chits=[0, 1])


def test_explore_draws_privately_keeps_one_and_returns_the_rest_in_order_moct_expl_1():
    """MOCT-EXPL-1: at a temple, 3 points draw 5 cards; the player sees them alone, keeps one
    treasure card, and the others go to the bottom in the order they were drawn."""
    p = Play(seats=3)
    p.do("move", 0, to=4)
    drawn = p.top(4, 5)
    p.do("explore", 0, size=5)
    mine = p.seat_view(0)["you"]["drawn"]
    assert mine["temple"] == 4 and mine["choose"] and len(mine["cards"]) == 5
    assert [c.get("points", c.get("name")) for c in mine["cards"]] == drawn
    assert p.view()["exploring"] == {"seat": 0, "temple": 4, "cards": 5}
    for other in (1, 2):
        assert p.seat_view(other)["you"]["drawn"] is None
    assert p.view()["points"] == 1
    p.refused("MOCT-EXPL-1", "move", 0, to=0)  # first keep a card
    pick = next(i for i, c in enumerate(drawn) if isinstance(c, int))
    p.do("keep", 0, card=pick)
    rest = drawn[:pick] + drawn[pick + 1 :]
    assert p.top(4, 12)[-4:] == rest  # the bottom four, in the order drawn
    assert p.seat_view(0)["you"]["hand"] == [{"temple": 4, "points": drawn[pick]}]
    assert p.view()["seats"][0]["cards"] == 1 and p.view()["seats"][0]["card_temples"] == [4]
    assert p.view()["locations"][4]["cards_left"] == 11
    assert "points" not in json.dumps(p.seat_view(1)["you"]["hand"])


def test_two_cards_for_two_points_and_the_shuffled_return_option_moct_expl_1():
    """MOCT-EXPL-1: 2 points draw 2 cards; with return_order shuffled the rest still go to the
    bottom (all of them, in some order)."""
    p = Play(options={"return_order": "shuffled"})
    p.do("move", 0, to=6)
    p.do("explore", 0, size=5)
    drawn = [c.get("points", c.get("name")) for c in p.seat_view(0)["you"]["drawn"]["cards"]]
    pick = next(i for i, c in enumerate(drawn) if isinstance(c, int))
    p.do("keep", 0, card=pick)
    assert sorted(map(str, p.top(6, 12)[-4:])) == sorted(map(str, drawn[:pick] + drawn[pick + 1 :]))
    p.refused("MOCT-TURN-1", "explore", 0, size=2)  # 1 point left
    q = Play()
    q.do("move", 0, to=6)
    q.do("explore", 0, size=2)
    assert len(q.seat_view(0)["you"]["drawn"]["cards"]) == 2 and q.view()["points"] == 2


def test_exploring_away_from_a_temple_is_refused_moct_expl_1():
    """MOCT-EXPL-1: Explore is done at a temple; at the Library it is refused."""
    p = Play()
    assert "not at the Library" in p.refused("MOCT-EXPL-1", "explore", 0, size=2)
    p.refused("MOCT-EXPL-1", "keep", 0, card=0)  # nothing drawn to keep


def test_the_name_card_is_never_kept_but_recorded_moct_expl_2():
    """MOCT-EXPL-2: keeping the name card is refused; the player has seen whose temple it is
    (their record sheet says so) and it goes to the bottom with the rest."""
    p = Play(seats=3)
    deck = p.state.decks[3]
    name = next(c for c in deck if isinstance(c, str))
    deck.remove(name)
    deck.append(name)  # the name card on top
    p.do("move", 0, to=3)
    p.do("explore", 0, size=2)
    assert "name card" in p.refused("MOCT-EXPL-2", "keep", 0, card=0)
    assert p.seat_view(0)["you"]["record"]["names"] == [{"temple": 3, "name": name}]
    assert p.seat_view(1)["you"]["record"]["names"] == []
    others = json.dumps([p.view(), p.seat_view(1), p.seat_view(2)])
    kind = "clue" if name == "Clue" else "king"
    for secret in ({"kind": kind, "name": name}, {"temple": 3, "name": name}):
        assert json.dumps(secret) in json.dumps(p.seat_view(0))
        assert json.dumps(secret) not in others
    p.do("keep", 0, card=1)
    assert p.state.decks[3][0] == name  # at the bottom


def test_a_short_deck_gives_what_it_has_moct_expl_3():
    """MOCT-EXPL-3 (chosen): a deck with fewer cards than asked gives what it has; with no
    treasure among them nothing is kept, and the points are spent (or given back with
    refund_empty_explore)."""
    for refund, points in ((False, 1), (True, 4)):
        p = Play(options={"refund_empty_explore": refund})
        p.state.decks[8][:] = ["Clue"]
        p.do("move", 0, to=8)
        p.do("explore", 0, size=5)
        assert p.seat_view(0)["you"]["drawn"]["cards"] == [{"kind": "clue", "name": "Clue"}]
        assert not p.seat_view(0)["you"]["drawn"]["choose"]
        assert p.view()["exploring"] is None and p.view()["points"] == points
        assert p.state.decks[8] == ["Clue"] and p.state.seats[0].kept == []
    q = Play()
    q.state.decks[2][:] = [1, 3]
    q.do("move", 0, to=2)
    q.do("explore", 0, size=5)
    assert len(q.seat_view(0)["you"]["drawn"]["cards"]) == 2


def test_a_chit_is_turned_after_every_round_in_order_moct_round_1():
    """MOCT-ROUND-1: after each player's turn one chit is turned face up for all: column 1 top
    to bottom, then column 2, then Moctezuma's third."""
    p = Play(seats=3)
    p.end_turns(2)
    assert p.view()["chits_turned"] == 0 and p.view()["round"] == 1
    p.end_turns(1)
    chits = p.view()["chits"]
    assert chits[0]["face_up"] and chits[0]["face"] == p.state.hidden["chits"][0]
    assert p.view()["round"] == 2 and p.view()["turn"] == 0
    p.end_turns(3 * 13)
    assert [c["face_up"] for c in p.view()["chits"]] == [True] * 14 + [False]
    assert not GAME.is_over(p.state)


def test_record_sheet_auto_or_manual_and_notes_moct_rec_1():
    """MOCT-REC-1: the record sheet fills itself in (auto) or holds only notes (manual); a
    player's notes are theirs alone and may be written at any time."""
    p = Play(options={"record_sheet": "manual"})
    p.do("research", 0, size=2, chits=[5, 6])
    assert len(p.seat_view(0)["you"]["research"]) == 2  # the peek itself is still shown
    assert p.seat_view(0)["you"]["record"]["chits"] == []
    p.do("note", 1, text="  Tizoc looks cursed ")
    assert p.seat_view(1)["you"]["record"]["notes"] == ["Tizoc looks cursed"]
    assert "Tizoc looks" not in json.dumps([p.view(), p.seat_view(0)])
    p.refused("MOCT-REC-1", "note", 1, text=" ")
    p.refused("MOCT-REC-1", "note", 1, text="x" * 501)


def test_commands_read_as_plain_words():
    """describe(): what a button or the log says."""
    assert GAME.describe(Command("move", 0, {"to": 0})) == "Move to the Library (1 point)"
    assert GAME.describe(Command("explore", 0, {"size": 5})) == "Explore: draw 5 cards (3 points)"
    assert (
        GAME.describe(Command("research", 0, {"size": 2})) == "Research: peek at 2 chits (2 points)"
    )
    assert GAME.describe(Command("keep", 0, {"card": 0})) == "Keep card 1"
    p = Play()
    assert [prompt.text for prompt in GAME.prompts(p.state)] == [
        "Ana at the Library: 5 action points left"
    ]


def test_the_log_tells_the_table_what_happened_in_plain_words():
    """The public log, worded when the view is made, counts every line."""
    p = Play(seats=2)
    p.do("move", 0, to=3)
    p.do("place", None, player=1, at=7)
    p.end_turns(2)
    p.do("end_game")
    log = p.view()["log"]
    assert log[:4] == [
        "A new game for Ana, Ben.",
        "Ana plays first: 5 action points.",
        "Ana moves to temple 3.",
        "The host puts Ben's researcher on temple 7.",
    ]
    assert log[4:7] == [
        "Ben's turn: 5 action points.",
        f"Round 1 is over: Itzcoatl's chit in column 1 is {p.state.hidden['chits'][0]}.",
        "Ana's turn: 5 action points.",
    ]
    assert log[7].startswith("The host ends the game. ") and p.view()["log_count"] == 8
