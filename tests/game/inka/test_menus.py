"""Inka from menus alone: what the panel's buttons and a seat page's big buttons offer is each
prompted seat's legal commands, labelled by `describe`. A whole game is playable that way."""

from __future__ import annotations

import random

import pytest

from companion.game.inka import InkaGame
from companion.game.protocol import Command
from companion.game.random_play import random_command
from companion.screens.canvas import WIDTH, Canvas
from companion.table import Table

GAME = InkaGame()


def menu(table: Table) -> tuple[int | None, dict[str, Command]]:
    """The first prompt's seat and its menu: label -> command, as a panel would build it."""
    seat = table.prompts()[0].seat
    entries = table.legal(seat)
    labels = [GAME.describe(c) for c in entries]
    assert len(set(labels)) == len(labels), labels  # no two entries look alike
    return seat, dict(zip(labels, entries, strict=True))


def choose(table: Table, label: str) -> None:
    seat, entries = menu(table)
    assert label in entries, (label, seat, list(entries))
    assert table.submit(entries[label]).ok


def test_a_three_player_game_set_up_and_won_from_menus_alone(tmp_path):
    """Setup (INKA-SET-1, INKA-SET-2), turns with their points (INKA-TURN-1) and an exit
    (INKA-END-1), every step a menu entry of the prompted seat."""
    with Table.open(tmp_path / "log.db") as table:
        assert table.new_game("inka", {}, ["Ana", "Ben", "Cleo"], seed=1).ok
        for label in ["Play red", "Play yellow", "Play green", "Seat 2 begins"]:
            choose(table, label)
        for _ in range(3):
            choose(table, "Counter on start")
        for left in range(13, 0, -1):
            assert f"({left} of 13 left)" in table.prompts()[0].text
            choose(table, "Place a tile")
        assert table.prompts()[0].text == "Ben: 3 points left (move stepping tiles)"
        turns = [
            ["Yellow statue (1 pt)", "Yellow statue (1 pt)", "Block a tile", "End turn"],
            ["Move a tile (1 pt)", "Green statue (1 pt)", "End turn"],
            ["Pass a snake (1 pt)", "Passage (1 pt)", "Diamond (1 pt)", "End turn"],
            ["Lift blocker", "Yellow statue (1 pt)", "Leave by an exit"],
        ]
        for turn in turns:
            for label in turn:
                choose(table, label)
        view = table.public_view()
        assert view["result"] == {"winner": 1} and table.is_over()
        assert table.prompts()[0].text == "Game over: Ben wins, out of the temple with 3 statues."


@pytest.mark.parametrize("seed", range(3))
def test_every_prompt_has_a_menu_and_every_label_fits_an_oled_row(seed):
    """From setup to the winner, the prompted seat (or the host) always has entries, and each
    label fits a menu row of the 128-pixel OLED without being cut."""
    rng = random.Random(seed)
    state = GAME.setup({}, ["Ana", "Ben", "Cleo", "Dan"], seed)
    seen: set[str] = set()
    while not GAME.is_over(state):
        prompt = GAME.prompts(state)[0]
        entries = GAME.legal(state, prompt.seat)
        assert entries, prompt
        seen.update(GAME.describe(c) for c in entries)
        for event in GAME.apply(state, random_command(GAME, state, rng, 4)):
            GAME.fold(state, event)
    assert len(seen) >= 12
    for label in seen:
        text = Canvas("menu").text((3, 20), label, 16, anchor="lm", width=WIDTH - 10)
        assert text.text == label, label
