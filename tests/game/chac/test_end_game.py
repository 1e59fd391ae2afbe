"""The host ends the game early: scored as at the rules' end (CHAC-END-2), with the reveal
(CHAC-FAIR-1)."""

from __future__ import annotations

from companion.game.chac import ChacGame, verify_reveal

from .helpers import Play

GAME = ChacGame()


def test_ending_early_scores_only_the_escaped_and_reveals_chac_end_2_chac_fair_1():
    """CHAC-END-2: adventurers still inside do not escape and score nothing; CHAC-FAIR-1: the
    caskets and the hidden state are revealed as at a normal end."""
    p = Play(seats=3)
    p.to_actions()
    p.place(0, "C29")
    p.give_ids(0, p.cards_worth(3, 2))
    p.do("move", 0, to="exit")
    p.pass_until(1)
    p.give_ids(1, p.cards_worth(5, 4))  # rich, but still inside
    assert p.view()["reveal"] is None
    end = next(c for c in p.legal(None) if c.type == "end_game")
    p.do(end.type, end.seat, **end.args)
    view = p.view()
    assert view["phase"] == "over" and GAME.is_over(p.state)
    assert view["result"]["scores"] == {"0": 6} and view["result"]["winners"] == [0]
    assert view["result"]["caskets"] == p.state.hidden["caskets"]
    assert verify_reveal(view["commitment"], view["reveal"])
    adventurers = [s["adventurer"] for s in view["seats"]]
    assert [a["fate"] for a in adventurers] == ["escaped", "ended", "ended"]
    assert [a["status"] for a in adventurers] == ["escaped", "eliminated", "eliminated"]
    assert adventurers[1]["cards"] == 0 and adventurers[1]["space"] is None
    assert "The host ends the game." in view["log"]
    assert p.prompt_texts() == ["Game over: Anna wins with 6."]
    assert p.legal(None) == [] and p.legal(1) == []


def test_only_the_host_ends_the_game_and_at_any_moment_chac_end_1():
    """Players cannot end the game; the host can, even with a roll pending (CHAC-END-1)."""
    p = Play(start=False)
    assert "end_game" in [c.type for c in p.legal(None)]  # even before the first round
    p = Play()
    assert all(c.type != "end_game" for s in range(2) for c in p.legal(s))
    p.refuse("end_game", 0, "")
    p.to_actions()
    p.place(0, "C17")
    p.do("move", 0, to="B")
    assert p.view()["roll"]["purpose"] == "bridge"
    assert "end_game" in [c.type for c in p.legal(None)]
    p.do("end_game", None)
    view = p.view()
    assert view["roll"] is None and view["phase"] == "over"
    assert view["result"]["winners"] == [] and view["result"]["scores"] == {}
    p.refuse("end_game", None, "CHAC-END-1")


def test_ending_early_in_physical_mode_asks_for_the_escaped_players_values_chac_end_2():
    """CHAC-END-2 in physical mode: the escaped player enters their values as usual."""
    p = Play(seats=2, options={"treasure_mode": "physical"})
    p.to_actions()
    p.place(0, "Z1")
    p.do("search", 0)
    p.place(0, "C29")
    p.do("move", 0, to="exit")
    p.do("end_game", None)
    assert p.state.phase == "score"
    assert p.prompt_texts() == ["Anna: enter your treasure card values"]
    assert p.legal(None) == [] and [c.type for c in p.legal(0)] == ["score"]
    p.refuse("end_game", None, "CHAC-END-2")
    p.do("score", 0, values=[4], caskets=[])
    view = p.view()
    assert view["phase"] == "over" and view["result"]["scores"] == {"0": 4}
    assert view["seats"][1]["adventurer"]["fate"] == "ended"
    assert verify_reveal(view["commitment"], view["reveal"])


def test_ending_before_anyone_entered_ends_with_no_winner_chac_end_2():
    """Ended during setup: nobody entered, so nobody wins (CHAC-END-2)."""
    p = Play(start=False)
    p.do("choose_adventurer", 0, adventurer=p.state.seats[0].dealt[0])
    p.do("end_game", None)
    view = p.view()
    assert view["phase"] == "over" and view["result"]["winners"] == []
    assert view["seats"][0]["adventurer"]["fate"] == "ended"
    assert view["seats"][1]["adventurer"] is None
