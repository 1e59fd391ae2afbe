"""A 3-player game of Inka set up and played to a winner from the button panel alone (the
rig of conftest.py: gpiozero MockFactory buttons, luma's dummy OLED, the real Table). Every
step checks what the OLED shows."""

from __future__ import annotations

from companion.panel import NOTICE_S


def status_of(rig):
    screen = rig.home()
    assert screen.name == "status", screen.text
    return screen


def test_a_three_player_game_of_inka_from_the_panel_alone(rig):
    """INKA-SET-1, INKA-SET-2, INKA-TURN-1, INKA-STAT-1, INKA-END-1 on the buttons and OLED."""
    assert rig.table.new_game("inka", {}, ["Ana", "Ben", "Cy"], seed=1).ok
    rig.press("OK")  # the first prompt: Ana's colour
    rig.pick("Play red")
    assert "Ben" in rig.shown().text
    rig.press("OK")
    rig.pick("Play green")
    rig.press("OK")
    rig.pick("Play blue")
    screen = rig.shown()
    assert "youngest" in screen.text
    rig.press("OK")
    rig.pick("Seat 2 begins")  # Ben is the youngest

    # INKA-SET-1: the counters onto starting spaces, from the youngest on.
    for name in ("Ben", "Cy", "Ana"):
        screen = status_of(rig)
        assert (
            "Setup: starts" in screen.text and "on a start" in screen.text and name in screen.text
        )
        rig.pick("Counter on start")
    # INKA-SET-2: the 13 stepping tiles placed in turn, the OLED counting down.
    order = ("Ben (green)", "Cy (blue)", "Ana (red)")
    for placed in range(13):
        screen = status_of(rig)
        assert screen.find(order[placed % 3]) is not None, screen.text
        assert f"{13 - placed} of 13 tiles left" in screen.text
        rig.pick("Place a tile")

    # Ben's turn: three points, phase 2.
    screen = status_of(rig)
    assert "Turn 1" in screen.text and "Phase 2 of 4" in screen.text
    assert screen.find("Ben (green)") and screen.find("3 pts")
    assert screen.ink_height("3 pts") >= 10  # legible at arm's length
    rig.pick("Move a tile (1 pt)")
    rig.pick("Green statue (1 pt)")
    assert rig.shown().find("1 left") is not None  # the menu's bar counts the points
    screen = status_of(rig)
    assert "Phase 3 of 4" in screen.text and "1 pt" in screen.text
    assert "Statues 1/3" in screen.text
    # Undo (hold BACK) takes the statue back, and its point.
    rig.press("BACK", hold=True)
    screen = rig.wait(NOTICE_S)
    assert "2 pts" in screen.text and "Statues 0/3" in screen.text
    rig.pick("Green statue (1 pt)")
    rig.refused("Blue statue (1 pt)", "INKA-STAT-1", "only green statues")
    rig.refused("Leave by an exit", "INKA-END-1", "1 of 3 statues")
    rig.refused("Block a target tile", "INKA-TURN-1", "target tile")
    rig.refused("Move a tile (1 pt)", "INKA-TURN-1", "phase 2 before phase 3")
    rig.pick("Pass a snake (1 pt)")
    rig.refused("Diamond (1 pt)", "INKA-TURN-1", "0 points left")  # a fourth point
    rig.pick("Block a space")
    screen = status_of(rig)
    assert "Phase 4 of 4" in screen.text and "0 pts" in screen.text
    rig.pick("End turn")

    screen = status_of(rig)
    assert "Turn 2" in screen.text and screen.find("Cy (blue)")
    rig.pick("Passage (1 pt)")
    rig.pick("End turn")
    screen = status_of(rig)
    assert "Turn 3" in screen.text and screen.find("Ana (red)")
    rig.pick("Diamond (1 pt)")
    rig.pick("End turn")

    # Ben again: phase 1 first, the blocking counter lifted.
    screen = status_of(rig)
    assert "Turn 4" in screen.text and "Phase 1 of 4" in screen.text
    assert "Lift the blocker" in screen.text
    rig.pick("Lift blocker")
    rig.pick("Green statue (1 pt)")
    rig.pick("Green statue (1 pt)")
    assert "Statues 3/3" in status_of(rig).text
    rig.pick("Leave by an exit")

    screen = rig.home()
    assert rig.table.is_over() and rig.table.public_view()["result"] == {"winner": 1}
    assert "Game over" in screen.text and screen.find("Ben (green) wins")
