"""Statues and exits: the first out with all three statues wins (INKA-END-1)."""

from __future__ import annotations

from .helpers import GAME, Play


def _three_statues(p: Play, seat: int) -> None:
    for _ in range(3):
        p.do("collect_statue", seat)


def test_inka_end_1_no_exit_before_the_third_statue():
    p = Play()
    assert "exit" not in p.legal_types(0)
    error = p.refuse("exit", 0, "INKA-END-1")
    assert str(error) == "Ana has 0 of 3 statues: exits are for a player holding all 3."
    p.do("collect_statue", 0)
    p.do("collect_statue", 0)
    p.refuse("exit", 0, "INKA-END-1")


def test_inka_end_1_the_first_out_with_three_statues_wins_and_the_game_ends():
    p = Play()
    _three_statues(p, 0)
    assert p.view()["points"] == 0
    assert "exit" in p.legal_types(0)  # moving is free: no points needed to reach an exit
    p.do("exit", 0)
    view = p.view()
    assert GAME.is_over(p.state)
    assert view["stage"] == "over" and view["result"] == {"winner": 0}
    assert view["turn"] is None and view["phase"] is None
    assert p.prompt_texts() == ["Game over: Ana wins, out of the temple with 3 statues."]
    assert view["log"][-1] == "Ana leaves the temple by an exit with all 3 statues and wins!"
    assert all(GAME.legal(p.state, s) == [] for s in (None, 0, 1, 2))
    p.refuse("end_turn", 1, "INKA-END-1")


def test_inka_end_1_no_exit_once_the_blocking_counter_is_down():
    """The counter moves in phase 3; the blocking counter comes after it (INKA-TURN-1)."""
    p = Play()
    _three_statues(p, 0)
    p.do("place_blocker", 0, on="space")
    assert "exit" not in p.legal_types(0)
    p.refuse("exit", 0, "INKA-TURN-1")
    p.do("end_turn", 0)
    p.do("end_turn", 1)
    p.do("end_turn", 2)
    p.do("lift_blocker", 0)
    p.do("exit", 0)
    assert p.view()["result"] == {"winner": 0}
