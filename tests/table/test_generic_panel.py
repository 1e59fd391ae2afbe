"""A registered game that brings no screens of its own is playable from the panel: the OLED
shows whose turn it is and the prompt, and the menu offers its legal commands in its words."""

from __future__ import annotations

import pytest

from companion.panel import Panel
from companion.table import Table
from hardware.buttons import ButtonEvent


@pytest.fixture
def table(tmp_path):
    table = Table.open(tmp_path / "companion.db")
    yield table
    table.close()


def press(panel, button):
    panel.handle(ButtonEvent(button, "press", 0.0))
    return panel.screen()


def test_a_game_without_screens_is_played_from_the_buttons(table):
    assert table.new_game("tiny", {"cards": 2}, ["Ana", "Ben"], seed=3).ok
    panel = Panel(table)
    home = panel.screen()
    assert "Seat 1" in home.text and "Draw, roll or pass." in home.text

    menu = press(panel, "MENU")
    assert menu.name == "menu"
    assert [t.text for t in menu.texts if t.text in ("Draw a card", "Roll for points", "Pass")] == [
        "Draw a card",
        "Roll for points",
        "Pass",
    ]
    press(panel, "OK")  # Draw a card
    assert table.seat_view(0)["hand"] and not table.seat_view(1)["hand"]
    assert "Seat 2" in panel.screen().text

    press(panel, "MENU")
    press(panel, "DOWN")
    press(panel, "OK")  # Roll for points: the table now waits for two dice
    roll = panel.screen()
    assert roll.name == "roll" and "Roll 2 dice" in roll.text
    press(panel, "MENU")  # type them with the buttons
    for _ in range(2):
        press(panel, "UP")
        press(panel, "OK")
    assert table.public_view()["scores"] == [0, 2]


def test_the_game_over_screen_of_a_game_without_screens(table):
    assert table.new_game("tiny", {"cards": 1}, ["Ana"], seed=3).ok
    panel = Panel(table)
    press(panel, "MENU")
    press(panel, "OK")  # draws the last card
    assert table.is_over()
    assert "Game over" in panel.screen().text
