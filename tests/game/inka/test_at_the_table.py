"""Inka through the Table, as the companion plays it: the event log, undo and restart
(INKA-UNDO-1), and a refused step that changes nothing."""

from __future__ import annotations

import random

from companion.game.inka import InkaGame
from companion.game.protocol import Command
from companion.game.random_play import random_command
from companion.table import Table

GAME = InkaGame()
SEATS = ["Ana", "Ben", "Cleo"]


def views(table: Table) -> tuple:
    return table.public_view(), [table.seat_view(s) for s in range(len(table.seats))]


def game_views(table: Table) -> tuple:
    """The views without their log, which also tells of undos."""

    def strip(view: dict) -> dict:
        return {k: v for k, v in view.items() if k not in ("log", "log_count")}

    public, seats = views(table)
    return strip(public), [strip(v) for v in seats]


def play(table: Table, seed: int) -> list[tuple]:
    """A whole random game through the table; the game views after each command."""
    rng = random.Random(seed)
    shadow = GAME.setup({}, SEATS, seed)
    seen = [game_views(table)]
    while not GAME.is_over(shadow):
        command = random_command(GAME, shadow, rng, 3)
        assert table.submit(command).ok, command
        for event in GAME.apply(shadow, command):
            GAME.fold(shadow, event)
        seen.append(game_views(table))
    return seen


def test_inka_undo_1_every_step_undone_exactly_back_to_the_setup(tmp_path):
    """Undo after undo walks a whole 3-player game back through every state it passed, and
    the same commands again land on the same states."""
    with Table.open(tmp_path / "log.db") as table:
        table.new_game("inka", {}, SEATS, seed=3)
        seen = play(table, 3)
        assert table.is_over() and len(seen) > 20
        for expected in reversed(seen[:-1]):
            assert table.undo().ok
            assert game_views(table) == expected
        assert not table.undo().ok  # nothing left to undo
        assert table.public_view()["stage"] == "setup"
        assert play(table, 3) == seen


def test_inka_undo_1_the_undo_is_told_in_the_log_and_survives_a_restart(tmp_path):
    db = tmp_path / "log.db"
    with Table.open(db) as table:
        table.new_game("inka", {}, SEATS, seed=1)
        for seat, colour in enumerate(["red", "yellow", "green"]):
            assert table.submit(Command("choose_colour", seat, {"colour": colour})).ok
        assert table.submit(Command("first_player", None, {"player": 2})).ok
        assert table.submit(Command("place_counter", 2)).ok
        before = game_views(table)
        assert table.submit(Command("place_counter", 0)).ok
        assert table.undo().ok
        assert game_views(table) == before
        assert table.public_view()["log"][-1] == (
            "Undone by the host: Ana puts the playing counter on a starting space."
        )
        assert table.prompts()[0].text == "Ana: put your counter on an empty starting space"
        after = views(table)
    with Table.open(db) as again:
        assert views(again) == after


def test_a_restarted_table_lands_in_the_same_state_mid_game(tmp_path):
    db = tmp_path / "log.db"
    with Table.open(db) as table:
        table.new_game("inka", {"strict_phases": False}, SEATS, seed=9)
        rng = random.Random(9)
        shadow = GAME.setup({"strict_phases": False}, SEATS, 9)
        for _ in range(30):
            command = random_command(GAME, shadow, rng, 3)
            assert table.submit(command).ok
            for event in GAME.apply(shadow, command):
                GAME.fold(shadow, event)
        before = views(table)
        assert before[0] == GAME.public_view(shadow) and before[0]["stage"] == "play"
    with Table.open(db) as again:
        assert views(again) == before
        assert [c.to_json() for c in again.legal(shadow.turn)] == [
            c.to_json() for c in GAME.legal(shadow, shadow.turn)
        ]


def test_a_fourth_point_is_refused_at_the_table_with_its_reason(tmp_path):
    with Table.open(tmp_path / "log.db") as table:
        table.new_game("inka", {}, ["Ana", "Ben"], seed=2)
        for seat, colour in enumerate(["blue", "red"]):
            assert table.submit(Command("choose_colour", seat, {"colour": colour})).ok
        assert table.submit(Command("first_player", None, {"player": 0})).ok
        for seat in [0, 1] + [0, 1] * 6 + [0]:
            kind = "place_counter" if table.public_view()["stage"] == "starts" else "place_tile"
            assert table.submit(Command(kind, seat)).ok
        for kind in ("move_tile", "snake", "collect_statue"):
            assert table.submit(Command(kind, 0)).ok
        before, version = views(table), table.version
        outcome = table.submit(Command("diamond", 0))
        assert not outcome.ok and outcome.rule == "INKA-TURN-1"
        assert outcome.reason == (
            "Ana has 0 points left (3 of 3 spent this turn); this needs 1 point. (INKA-TURN-1)"
        )
        assert views(table) == before and table.version == version
