"""The SQLite event log: what it records, and how it refuses files and writes it cannot trust."""

import os
import sqlite3

import pytest

from companion.game.protocol import Command
from companion.store import NotALogError, Store, StoreError
from companion.table import Table


def play(table: Table, *commands: Command) -> None:
    for command in commands:
        outcome = table.submit(command)
        assert outcome.ok, outcome.reason


def test_log_file_is_wal_with_full_sync_and_marked_as_ours(tmp_path):
    store = Store(tmp_path / "log.db")
    db = store._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()
    raw = sqlite3.connect(tmp_path / "log.db")
    assert raw.execute("PRAGMA application_id").fetchone()[0] == 0x43484143
    raw.close()


def test_history_keeps_undone_commands_and_undo_markers(tmp_path):
    with Table.open(tmp_path / "log.db") as table:
        table.new_game("tiny", {}, ["Ana", "Ben"], seed=5)
        play(table, Command("draw", 0), Command("pass", 1))
        assert table.undo().ok
        play(table, Command("draw", 1))
    store = Store(tmp_path / "log.db", readonly=True)
    game = store.current_game()
    kinds = [(e.kind, (e.command or {}).get("type")) for e in store.history(game.id)]
    assert kinds == [
        ("setup", None),
        ("command", "draw"),
        ("command", "pass"),
        ("undo", None),
        ("command", "draw"),
    ]
    history = store.history(game.id)
    assert history[3].undoes == history[2].id
    assert [e.command["type"] for e in store.active_commands(game.id)] == ["draw", "draw"]
    assert history[1].events[0]["type"] == "drew"
    store.close()


def test_a_new_game_becomes_current_and_earlier_games_stay_in_the_file(tmp_path):
    with Table.open(tmp_path / "log.db") as table:
        table.new_game("tiny", {}, ["Ana", "Ben"], seed=1)
        play(table, Command("draw", 0))
        first_version = table.version
        table.new_game("tiny", {"cards": 3}, ["Cy", "Di", "Ed"], seed=2)
        assert table.version > first_version
        assert table.public_view()["deck"] == 3
    with Table.open(tmp_path / "log.db") as table:
        assert table.seats == ["Cy", "Di", "Ed"]
        assert table.public_view()["hand_sizes"] == [0, 0, 0]
    store = Store(tmp_path / "log.db", readonly=True)
    assert [(g.name, g.seats) for g in store.games()] == [
        ("tiny", ["Ana", "Ben"]),
        ("tiny", ["Cy", "Di", "Ed"]),
    ]
    store.close()


def test_versions_keep_increasing_across_restarts(tmp_path):
    with Table.open(tmp_path / "log.db") as table:
        table.new_game("tiny", {}, ["Ana"], seed=1)
        play(table, Command("pass", 0))
        before = table.version
    with Table.open(tmp_path / "log.db") as table:
        assert table.version == before
        assert table.submit(Command("pass", 0)).version == before + 1


def test_a_file_that_is_not_a_database_is_refused_clearly(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("shopping list: dice, candles\n" * 100)
    with pytest.raises(NotALogError, match="not a Chac Companion log"):
        Table.open(path)
    assert path.read_text().startswith("shopping list")


def test_another_programs_database_is_not_taken_for_a_log(tmp_path):
    path = tmp_path / "other.db"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE contacts (name TEXT)")
    other.commit()
    other.close()
    with pytest.raises(NotALogError, match="not a Chac Companion log"):
        Table.open(path)


def test_a_damaged_log_is_reported_not_replayed(tmp_path):
    path = tmp_path / "log.db"
    with Table.open(path) as table:
        table.new_game("tiny", {"cards": 40}, ["Ana", "Ben"], seed=1)
        for _ in range(60):
            play(table, Command("pass", table.public_view()["turn"]))
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 3 * page
    data[page + 10 : 3 * page] = b"\xa5" * (2 * page - 10)  # scribble over the tables' pages
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=r"damaged|not a Chac Companion log"):
        Table.open(path)


def test_a_folder_is_not_a_log(tmp_path):
    with pytest.raises(StoreError, match="folder"):
        Table.open(tmp_path)


def test_a_full_disk_refuses_the_command_and_changes_nothing(tmp_path):
    path = tmp_path / "log.db"
    table = Table.open(path)
    table.new_game("tiny", {"cards": 1000}, ["Ana", "Ben"], seed=9)
    play(table, Command("draw", 0))
    views = (table.public_view(), table.seat_view(0), table.seat_view(1))
    version = table.version
    # SQLite's own page limit gives exactly the error a full disk gives (SQLITE_FULL).
    pages = table._store._db.execute("PRAGMA page_count").fetchone()[0]
    table._store._db.execute(f"PRAGMA max_page_count={pages}")
    refused = None
    for _ in range(500):  # the log grows until the next page is needed
        turn = table.public_view()["turn"]
        views = (table.public_view(), table.seat_view(0), table.seat_view(1))
        version = table.version
        outcome = table.submit(Command("draw", turn))
        if not outcome.ok:
            refused = outcome
            break
    assert refused is not None, "the page limit was never reached"
    assert "disk" in refused.reason and "full" in refused.reason
    assert "Nothing changed" in refused.reason
    assert refused.version == version == table.version
    assert (table.public_view(), table.seat_view(0), table.seat_view(1)) == views
    table.close()
    with Table.open(path) as reopened:
        assert reopened.version == version
        assert (reopened.public_view(), reopened.seat_view(0), reopened.seat_view(1)) == views


def test_a_read_only_store_refuses_writes(tmp_path):
    with Table.open(tmp_path / "log.db") as table:
        table.new_game("tiny", {}, ["Ana"], seed=1)
    store = Store(tmp_path / "log.db", readonly=True)
    with pytest.raises(StoreError, match="reading only"):
        store.add_undo(store.current_game().id, 1)
    store.close()


def test_a_missing_file_opened_for_reading_is_reported(tmp_path):
    with pytest.raises(StoreError, match="no log file"):
        Store(tmp_path / "absent.db", readonly=True)
    assert not (tmp_path / "absent.db").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="file permissions do not bind root")
def test_a_log_the_companion_may_not_write_is_refused_clearly(tmp_path):
    path = tmp_path / "log.db"
    with Table.open(path) as table:
        table.new_game("tiny", {}, ["Ana"], seed=1)
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(StoreError, match=r"cannot be written|cannot be opened"):
            Table.open(path)
    finally:
        tmp_path.chmod(0o755)
        path.chmod(0o644)
