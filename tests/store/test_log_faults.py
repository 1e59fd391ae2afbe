"""A damaged or shrunken event log stops the start with a message naming the file, the game and
the entry, keeps the file as it is, and exits with the code systemd does not restart on; the
owner's `companion log` commands then list, repair or replace it."""

from __future__ import annotations

import logging
import shutil
import sqlite3

import pytest
from logkit import free_port, play_into

from companion.cli import main as companion
from companion.log_check import EXIT_LOG_NEEDS_OWNER, check
from companion.runtime import service
from companion.store import NotALogError, Store, StoreError
from companion.table import Table


def start(data_dir) -> int:
    """`companion run --simulate` on `data_dir`, as far as it gets (these logs stop it)."""
    return service.main(simulate=True, host="127.0.0.1", port=free_port(), data_dir=str(data_dir))


def kept(data_dir) -> dict[str, bytes]:
    """The log and its note, byte for byte (a reader may add SQLite's empty side files)."""
    files = {}
    for name in ("events.sqlite", "events.sqlite-wal", "events.sqlite.acked"):
        path = data_dir / name
        if path.exists() and path.stat().st_size:
            files[name] = path.read_bytes()
    return files


@pytest.fixture
def data(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


def test_one_damaged_byte_in_an_event_stops_the_start_naming_game_and_entry(data, caplog):
    log = data / "events.sqlite"
    with Table.open(log) as table:
        versions = play_into(table, 20)
    store = Store(log, readonly=True)
    entry = next(e for e in store.history(1) if e.id == versions[10])
    text = next(x for x in store.raw_entries() if x[0] == entry.id)[5][0].encode()
    store.close()
    raw = log.read_bytes()
    assert raw.count(text) == 1
    log.write_bytes(raw.replace(text, b"\x01" + text[1:]))
    before = kept(data)

    with caplog.at_level(logging.ERROR):
        assert start(data) == EXIT_LOG_NEEDS_OWNER
    message = caplog.text
    assert str(log) in message and f"game 1, entry {entry.id}" in message
    assert "cannot be read" in message and "companion log repair" in message
    assert kept(data) == before  # the start wrote nothing

    assert companion(["log", "check", "--data-dir", str(data)]) == EXIT_LOG_NEEDS_OWNER
    assert companion(["log", "repair", "--data-dir", str(data), "--yes"]) == 0
    (copy,) = [c for c in data.glob("events.sqlite.before-repair-*") if c.name[-1].isdigit()]
    assert copy.read_bytes() == before["events.sqlite"]  # the damaged log, kept as it was
    assert check(log, replay_all=True).ok
    with Table.open(log) as table:  # carries on from the last good entry
        assert table.version == entry.id - 1
        assert table.has_game


def test_a_write_ahead_file_damaged_mid_way_is_not_taken_for_the_whole_history(data, tmp_path):
    """SQLite drops every commit after a damaged frame without a word; the note of the last
    acknowledged entry tells."""
    with Table.open(data / "events.sqlite") as table:
        versions = play_into(table, 30)
        copy = tmp_path / "copy"  # the files as a power cut leaves them: the WAL not folded in
        shutil.copytree(data, copy, ignore=shutil.ignore_patterns("companion.lock"))
    wal = bytearray((copy / "events.sqlite-wal").read_bytes())
    page = int.from_bytes(wal[8:12], "big")
    frames = (len(wal) - 32) // (24 + page)
    assert frames > 10
    middle = 32 + (frames // 2) * (24 + page) + 24 + 100
    wal[middle] ^= 0xFF
    (copy / "events.sqlite-wal").write_bytes(bytes(wal))
    before = kept(copy)

    report = check(copy / "events.sqlite")
    assert not report.ok and report.acked == versions[-1]
    assert "acknowledged entries are missing" in str(report.damage[0])
    with pytest.raises(StoreError, match="acknowledged entries are missing"):
        service.open_table(copy)
    assert start(copy) == EXIT_LOG_NEEDS_OWNER
    assert kept(copy) == before

    assert companion(["log", "repair", "--data-dir", str(copy), "--yes"]) == 0
    with Table.open(copy / "events.sqlite") as table:
        assert table.version < versions[-1]
    assert check(copy / "events.sqlite").ok


def test_a_zero_byte_log_is_refused_until_the_owner_starts_a_new_one(data, caplog):
    with Table.open(data / "events.sqlite") as table:
        play_into(table, 5)
    (data / "events.sqlite").write_bytes(b"")
    with caplog.at_level(logging.ERROR):
        assert start(data) == EXIT_LOG_NEEDS_OWNER
    assert "empty (0 bytes)" in caplog.text and "companion log new" in caplog.text
    assert (data / "events.sqlite").stat().st_size == 0

    assert companion(["log", "new", "--data-dir", str(data), "--yes"]) == 0
    assert list(data.glob("events.sqlite.retired-*"))
    with service.open_table(data) as table:
        assert not table.has_game and table.version == 0


def test_a_deleted_log_is_missed(data):
    with Table.open(data / "events.sqlite") as table:
        versions = play_into(table, 5)
    (data / "events.sqlite").unlink()
    with pytest.raises(StoreError, match=f"missing, but {versions[-1]} entries"):
        service.open_table(data)


def test_another_programs_sqlite_file_is_refused_before_anything_writes_to_it(data):
    path = data / "events.sqlite"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE notes (text TEXT)")
    other.execute("INSERT INTO notes VALUES ('mine')")
    other.commit()
    other.close()
    before = path.read_bytes()
    with pytest.raises(NotALogError, match="not a Chac Companion log"):
        Table.open(path)
    assert path.read_bytes() == before  # still in its own journal mode, not switched to WAL
    assert not (data / "events.sqlite-wal").exists()


def test_every_connection_to_the_log_syncs_fully_before_it_writes(tmp_path, monkeypatch):
    """A commit is acknowledged only once it is on disk: synchronous=FULL (not OFF or NORMAL)
    on every connection that writes, set before its first write."""
    import companion.store as store_module

    statements: list[list[str]] = []
    real_connect = sqlite3.connect

    def traced(*args, **kwargs):
        db = real_connect(*args, **kwargs)
        ran: list[str] = []
        statements.append(ran)
        db.set_trace_callback(ran.append)
        return db

    monkeypatch.setattr(store_module.sqlite3, "connect", traced)
    with Table.open(tmp_path / "events.sqlite") as table:
        play_into(table, 5)
        assert table.undo().ok
        assert table._store._db.execute("PRAGMA synchronous").fetchone()[0] == 2
    writers = [ran for ran in statements if any(_writes(s) for s in ran)]
    assert len(writers) == 2  # the one that builds a new log, the table's own
    for ran in writers:
        first_write = next(i for i, s in enumerate(ran) if _writes(s))
        assert "PRAGMA synchronous=FULL" in ran[:first_write]


def _writes(statement: str) -> bool:
    return statement.lstrip().upper().startswith(("INSERT", "CREATE", "DELETE", "UPDATE"))
