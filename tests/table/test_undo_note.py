"""An undo leaves a line in the log everyone reads, "Undone by the host: ...", in its place
among the game's own lines, and the line outlives a restart."""

import json
from pathlib import Path

from companion.game.protocol import Command
from companion.table import Table

FIRST_ROUND = Path(__file__).resolve().parents[2] / "examples" / "first-round.json"


def to_lea_in_zone_1(table: Table) -> None:
    scenario = json.loads(FIRST_ROUND.read_text())
    assert table.new_game("chac", {}, scenario["seats"], scenario["seed"]).ok
    for raw in scenario["commands"][:5]:
        assert table.submit(Command.from_json(raw)).ok


def test_an_undo_is_told_in_every_views_log_and_survives_a_restart(tmp_path):
    db = tmp_path / "log.db"
    with Table.open(db) as table:
        to_lea_in_zone_1(table)
        count = table.public_view()["log_count"]
        assert table.submit(Command("move", 0, {"to": "Z2"})).ok
        assert table.undo().ok
        public, seat = table.public_view(), table.seat_view(1)
        note = "Undone by the host: Lea moves to Z2."
        assert public["log"][-1] == note and seat["log"][-1] == note
        assert public["log_count"] == count + 1
        assert public["seats"][0]["adventurer"]["space"] == "Z1"  # the move itself is gone
        assert table.submit(Command("search", 0)).ok
        after = table.public_view()["log"]
        assert after[-2:] == [note, "Lea searches zone 1 and draws a card."]
    with Table.open(db) as table:
        assert table.public_view()["log"] == after


def test_undos_in_a_row_keep_their_order_before_what_follows(tmp_path):
    with Table.open(tmp_path / "log.db") as table:
        to_lea_in_zone_1(table)
        assert table.submit(Command("move", 0, {"to": "Z2"})).ok
        assert table.submit(Command("move", 0, {"to": "Z3"})).ok
        assert table.undo().ok
        assert table.undo().ok
        assert table.submit(Command("search", 0)).ok
        assert table.public_view()["log"][-3:] == [
            "Undone by the host: Lea moves to Z3.",
            "Undone by the host: Lea moves to Z2.",
            "Lea searches zone 1 and draws a card.",
        ]
        view = table.public_view()
        assert view["log_count"] == len(view["log"])  # early in the game: every line shown
