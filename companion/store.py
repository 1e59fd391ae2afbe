"""The durable event log: one SQLite file (WAL, synchronous=FULL) holding every game played.

A game is recorded once (name, options, seats and the secret seed), then one log entry per
accepted command with the events it caused, each written in its own transaction. Undo appends a
marker naming the entry it reverts instead of deleting anything, so the file is an honest
history; replay skips undone entries. The newest game in the file is the current one.

Every log entry, game setups included, takes the next id of one sequence: that id is the
table's version, increasing across games and restarts. After each write the id is also noted
in a small file beside the log (`<log>.acked`), so a log that later holds fewer entries than
were acknowledged (a damaged write-ahead file, an old copy put back) is noticed, not replayed
as if nothing had happened (see companion.log_check).

A new log is built under a temporary name and renamed into place, so an existing file is
always a whole log: an empty (0-byte) file or an SQLite file of another program is refused
before anything writes to it.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import product
from companion.atomic_file import disk_fault, disk_state, sync_folder
from companion.game.protocol import Event

log = logging.getLogger(__name__)

# Marks a file as ours, so a stray SQLite database is refused as a log.
DB_NAME = "events.sqlite"  # the log's file in the data directory, as it has always been
APPLICATION_ID = int.from_bytes(product.LOG_MARK, "big")
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed TEXT NOT NULL
);
CREATE TABLE log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL CHECK (kind IN ('setup', 'command', 'undo')),
    command TEXT,
    undoes INTEGER REFERENCES log(id),
    at REAL NOT NULL
);
CREATE TABLE events (
    log_id INTEGER NOT NULL REFERENCES log(id),
    idx INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (log_id, idx)
);
CREATE INDEX log_by_game ON log(game_id, id);
"""


class StoreError(Exception):
    """The log cannot be read or written; the message says why in plain words."""


class NotALogError(StoreError):
    """The file exists but is not the companion's log."""


class EmptyLogError(StoreError):
    """The log file exists but holds nothing: its history was lost."""


def acked_path(path: str | Path) -> Path:
    """The small file beside the log that holds the last acknowledged entry's id."""
    return Path(f"{path}.acked")


def read_acked(path: str | Path) -> int | None:
    """The last acknowledged entry id noted beside the log, or None when there is no note."""
    try:
        text = acked_path(path).read_text(encoding="ascii").strip()
    except (FileNotFoundError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


@dataclass(frozen=True)
class GameRecord:
    id: int
    name: str
    options: dict[str, Any]
    seats: list[str]
    seed: int  # secret: only the table's replay may read it
    version: int  # id of the game's setup entry


@dataclass(frozen=True)
class Entry:
    """One line of a game's history."""

    id: int
    kind: str  # "setup", "command" or "undo"
    command: dict[str, Any] | None
    events: list[Event]
    undoes: int | None
    at: float


def encode(value: Any) -> str:
    """Compact JSON; refuses NaN and other values a JSON reader could not take back."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _explain(exc: sqlite3.Error, path: str) -> str:
    text = str(exc)
    lowered = text.lower()
    # SQLite says "disk I/O error" when the file system turned read-only under it: ask the disk.
    state = disk_state(Path(path).parent) if path != ":memory:" else "ok"
    if "full" in lowered or state == "full":
        return f"The disk holding {path} is full ({text})"
    if state == "read-only":
        return f"The log {path} cannot be written: {disk_fault(Path(path).parent)}"
    if "readonly" in lowered or "read-only" in lowered:
        return f"The log {path} cannot be written ({text})"
    if "malformed" in lowered or "corrupt" in lowered:
        return f"The log {path} is damaged ({text})"
    if "unable to open" in lowered:
        return f"The log {path} cannot be opened ({text})"
    return f"The log {path} failed: {text}"


class Store:
    """The log file. Not thread-safe by itself: the Table is its only user and holds a lock."""

    def __init__(self, path: str | Path, *, readonly: bool = False):
        self.path = str(path)
        self.readonly = readonly
        self._acked_fd: int | None = None
        try:
            self._db = self._connect()
        except sqlite3.Error as exc:
            if "not a database" in str(exc):
                raise NotALogError(f"{self.path} is not a {product.NAME} log ({exc})") from exc
            raise StoreError(_explain(exc, self.path)) from exc
        if not readonly and self.path != ":memory:":
            self._open_acked()

    def _connect(self) -> sqlite3.Connection:
        if self.path == ":memory:":
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            _create_schema(db)
            return db
        path = Path(self.path)
        if path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a log file")
        if not path.exists():
            if self.readonly:
                raise StoreError(f"There is no log file at {self.path}")
            _build_new_log(path)
        elif path.stat().st_size == 0:
            raise EmptyLogError(
                f"The log {self.path} is empty (0 bytes): the games it held are lost. "
                "Run `companion log check` to see what is left beside it, or "
                "`companion log new` to start a new log on purpose."
            )
        db = _open_file(path, self.readonly)
        try:
            self._check_ours(db)  # before anything writes to the file
            if not self.readonly:
                # WAL + FULL: a committed transaction is on disk (the WAL is fsynced) on return.
                mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if mode != "wal":
                    raise StoreError(f"The log {self.path} cannot use write-ahead logging here")
                db.execute("PRAGMA synchronous=FULL")
                db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(f"The log {self.path} is damaged ({check})")
        except BaseException:
            db.close()
            raise
        return db

    def _check_ours(self, db: sqlite3.Connection) -> None:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                raise NotALogError(f"{self.path} is an empty database, not a {product.NAME} log")
            raise NotALogError(f"{self.path} is an SQLite database, but not a {product.NAME} log")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise NotALogError(
                f"{self.path} is a log of format {version}; this companion reads format "
                f"{SCHEMA_VERSION}"
            )

    def _open_acked(self) -> None:
        """Keeps the note of the last acknowledged id open; a log from before such notes
        gets one now."""
        path = acked_path(self.path)
        known = read_acked(self.path)
        try:
            self._acked_fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            self.close()
            raise StoreError(
                f"The log {self.path} cannot be written: {disk_fault(path.parent, exc)}"
            ) from exc
        if known is None:
            self._note_acked(self.last_version())
            sync_folder(path.parent)

    # --- reading -------------------------------------------------------------------------

    def current_game(self) -> GameRecord | None:
        """The newest game in the file, or None when none was started."""
        row = self._one("SELECT max(id) FROM games")
        return self.game(row[0]) if row[0] is not None else None

    def games(self) -> list[GameRecord]:
        rows = self._all("SELECT id FROM games ORDER BY id")
        return [self.game(row[0]) for row in rows]

    def game(self, game_id: int) -> GameRecord:
        row = self._one(
            "SELECT g.id, g.name, g.options, g.seats, g.seed, l.id FROM games g "
            "JOIN log l ON l.game_id = g.id AND l.kind = 'setup' WHERE g.id = ?",
            (game_id,),
        )
        if row is None:
            raise StoreError(f"The log {self.path} has no game {game_id}")
        return GameRecord(
            row[0], row[1], json.loads(row[2]), json.loads(row[3]), int(row[4]), row[5]
        )

    def history(self, game_id: int) -> list[Entry]:
        """Every entry of a game in order, undone commands and undo markers included."""
        events: dict[int, list[Event]] = {}
        for log_id, event in self._all(
            "SELECT e.log_id, e.event FROM events e JOIN log l ON l.id = e.log_id "
            "WHERE l.game_id = ? ORDER BY e.log_id, e.idx",
            (game_id,),
        ):
            events.setdefault(log_id, []).append(json.loads(event))
        return [
            Entry(
                log_id,
                kind,
                json.loads(command) if command is not None else None,
                events.get(log_id, []),
                undoes,
                at,
            )
            for log_id, kind, command, undoes, at in self._all(
                "SELECT id, kind, command, undoes, at FROM log WHERE game_id = ? ORDER BY id",
                (game_id,),
            )
        ]

    def active_commands(self, game_id: int) -> list[Entry]:
        """The game's commands still in effect (not undone), in the order they happened."""
        entries = self.history(game_id)
        undone = {e.undoes for e in entries if e.kind == "undo"}
        return [e for e in entries if e.kind == "command" and e.id not in undone]

    def last_version(self) -> int:
        return self._one("SELECT coalesce(max(id), 0) FROM log")[0]

    def raw_games(self) -> list[tuple[int, str, str, str, str]]:
        """Every game as stored (id, name, options, seats, seed), the JSON still as text: for
        checking a log that may be damaged."""
        return self._all("SELECT id, name, options, seats, seed FROM games ORDER BY id")

    def raw_entries(self) -> list[tuple[int, int, str, str | None, int | None, list[str]]]:
        """Every entry as stored (id, game id, kind, command, undoes, events), JSON as text."""
        events: dict[int, list[str]] = {}
        for log_id, event in self._all("SELECT log_id, event FROM events ORDER BY log_id, idx"):
            events.setdefault(log_id, []).append(event)
        return [
            (log_id, game_id, kind, command, undoes, events.get(log_id, []))
            for log_id, game_id, kind, command, undoes in self._all(
                "SELECT id, game_id, kind, command, undoes FROM log ORDER BY id"
            )
        ]

    def integrity(self) -> str:
        """SQLite's full integrity check of the file: "ok", or what is wrong."""
        rows = self._all("PRAGMA integrity_check")
        return "; ".join(row[0] for row in rows[:5])

    # --- writing (each call is one durable transaction) ----------------------------------

    def add_game(
        self, name: str, options: dict[str, Any], seats: list[str], seed: int
    ) -> tuple[int, int]:
        """Records a new game, which becomes the current one; returns its id and the id of
        its setup entry."""
        with self._writing() as db:
            game_id = db.execute(
                "INSERT INTO games (name, options, seats, seed) VALUES (?, ?, ?, ?)",
                (name, encode(options), encode(seats), str(seed)),
            ).lastrowid
            setup = db.execute(
                "INSERT INTO log (game_id, kind, at) VALUES (?, 'setup', ?)",
                (game_id, time.time()),
            ).lastrowid
            return game_id, setup

    def add_command(self, game_id: int, command: dict[str, Any], events: list[str]) -> int:
        """Appends an accepted command with its already-encoded events; returns its entry id."""
        with self._writing() as db:
            log_id = db.execute(
                "INSERT INTO log (game_id, kind, command, at) VALUES (?, 'command', ?, ?)",
                (game_id, encode(command), time.time()),
            ).lastrowid
            db.executemany(
                "INSERT INTO events (log_id, idx, event) VALUES (?, ?, ?)",
                [(log_id, i, event) for i, event in enumerate(events)],
            )
            return log_id

    def add_undo(self, game_id: int, undoes: int, note: dict[str, Any] | None = None) -> int:
        """Marks the command entry `undoes` as reverted; returns the marker's id. `note` (kept
        in the marker's command column) is what the table tells everyone about the undo."""
        with self._writing() as db:
            return db.execute(
                "INSERT INTO log (game_id, kind, command, undoes, at) VALUES (?, 'undo', ?, ?, ?)",
                (game_id, None if note is None else encode(note), undoes, time.time()),
            ).lastrowid

    def truncate_after(self, last_good: int) -> None:
        """Drops every entry after `last_good` (and games left without one) and notes
        `last_good` as the last acknowledged entry: the owner's repair of a damaged tail.
        Later entries still take ids above every id ever used."""
        with self._writing() as db:
            db.execute("DELETE FROM events WHERE log_id > ?", (last_good,))
            db.execute("DELETE FROM log WHERE id > ?", (last_good,))
            db.execute("DELETE FROM games WHERE id NOT IN (SELECT game_id FROM log)")
        self._note_acked(last_good)

    def close(self) -> None:
        self._db.close()
        if self._acked_fd is not None:
            os.close(self._acked_fd)
            self._acked_fd = None

    # --- plumbing ------------------------------------------------------------------------

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        if self.readonly:
            folder = Path(self.path).parent
            if disk_state(folder) == "read-only":
                raise StoreError(f"The log {self.path} cannot be changed: {disk_fault(folder)}")
            raise StoreError(f"The log {self.path} is open for reading only")
        try:
            with _transaction(self._db):
                yield self._db
        except sqlite3.Error as exc:
            raise StoreError(_explain(exc, self.path)) from exc
        self._note_acked(self.last_version())

    def _note_acked(self, version: int) -> None:
        """Notes `version` as acknowledged, durably (one fixed-size record rewritten in
        place). Only a guard: the log itself is the truth, so a failure here is logged, not
        raised (the entry is committed already)."""
        if self._acked_fd is None:
            return
        try:
            os.pwrite(self._acked_fd, f"{version:020d}\n".encode("ascii"), 0)
            os.fdatasync(self._acked_fd)
        except OSError as exc:
            log.warning("Could not note entry %d as acknowledged: %s", version, exc)

    def _one(self, sql: str, params: tuple = ()) -> Any:
        try:
            return self._db.execute(sql, params).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(_explain(exc, self.path)) from exc

    def _all(self, sql: str, params: tuple = ()) -> list[Any]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(_explain(exc, self.path)) from exc


def _create_schema(db: sqlite3.Connection) -> None:
    db.executescript(
        "BEGIN IMMEDIATE;"
        + _SCHEMA
        + f"PRAGMA application_id={APPLICATION_ID};"
        + f"PRAGMA user_version={SCHEMA_VERSION};"
        + "COMMIT;"
    )


def _build_new_log(path: Path) -> None:
    """A new, empty log, built aside and renamed into place: a crash leaves no half-made
    (or 0-byte) file under the log's name."""
    building = path.with_name(f".{path.name}.new")
    for stale in (building, Path(f"{building}-wal"), Path(f"{building}-shm")):
        stale.unlink(missing_ok=True)
    db = sqlite3.connect(building, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        _create_schema(db)
    finally:
        db.close()  # checkpoints: the whole log is in the one file
    fd = os.open(building, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(building, path)
    sync_folder(path.parent)


def _open_file(path: Path, readonly: bool) -> sqlite3.Connection:
    if not readonly:
        return sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    uri = "file:" + path.resolve().as_posix() + "?mode=ro"
    db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
    try:
        db.execute("PRAGMA schema_version").fetchone()
        return db
    except sqlite3.OperationalError:
        db.close()
        # On a read-only disk SQLite cannot make the WAL's index file; with no WAL left
        # behind (a clean stop), the file alone is the whole log and may be read as is.
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise
    return sqlite3.connect(
        uri + "&immutable=1", uri=True, check_same_thread=False, isolation_level=None
    )


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error (autocommit connection)."""
    if db.in_transaction:
        yield
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.rollback()
        raise
