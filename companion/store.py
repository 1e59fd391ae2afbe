"""The durable event log: one SQLite file (WAL, synchronous=FULL) holding every game played.

A game is recorded once (name, options, seats and the secret seed), then one log entry per
accepted command with the events it caused, each written in its own transaction. Undo appends a
marker naming the entry it reverts instead of deleting anything, so the file is an honest
history; replay skips undone entries. The newest game in the file is the current one.

Every log entry, game setups included, takes the next id of one sequence: that id is the
table's version, increasing across games and restarts.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.game.protocol import Event

# "CHAC" in ASCII: marks a file as ours, so a stray SQLite database is refused as a log.
APPLICATION_ID = 0x43484143
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
    """The file exists but is not a Chac Companion log."""


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
    if "full" in lowered:
        return f"The disk holding {path} is full ({text})"
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
        try:
            self._db = self._connect()
        except sqlite3.Error as exc:
            if "not a database" in str(exc):
                raise NotALogError(f"{self.path} is not a Chac Companion log ({exc})") from exc
            raise StoreError(_explain(exc, self.path)) from exc

    def _connect(self) -> sqlite3.Connection:
        in_memory = self.path == ":memory:"
        if not in_memory and Path(self.path).is_dir():
            raise StoreError(f"{self.path} is a folder, not a log file")
        if self.readonly:
            if not Path(self.path).is_file():
                raise StoreError(f"There is no log file at {self.path}")
            uri = "file:" + Path(self.path).resolve().as_posix() + "?mode=ro"
            db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        else:
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            self._prepare(db, fresh=in_memory or self._is_empty(db))
        except BaseException:
            db.close()
            raise
        return db

    @staticmethod
    def _is_empty(db: sqlite3.Connection) -> bool:
        return db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0

    def _prepare(self, db: sqlite3.Connection, fresh: bool) -> None:
        if fresh and self.readonly:
            raise NotALogError(f"{self.path} is an empty database, not a Chac Companion log")
        if not self.readonly:
            # WAL + FULL: a committed transaction is on disk (the WAL is fsynced) on return.
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode not in ("wal", "memory"):  # "memory": a throwaway in-memory log
                raise StoreError(f"The log {self.path} cannot use write-ahead logging here")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
        if fresh:
            db.executescript(
                "BEGIN IMMEDIATE;"
                + _SCHEMA
                + f"PRAGMA application_id={APPLICATION_ID};"
                + f"PRAGMA user_version={SCHEMA_VERSION};"
                + "COMMIT;"
            )
            return
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise NotALogError(f"{self.path} is an SQLite database, but not a Chac Companion log")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise NotALogError(
                f"{self.path} is a log of format {version}; this companion reads format "
                f"{SCHEMA_VERSION}"
            )
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise StoreError(f"The log {self.path} is damaged ({check})")

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

    def close(self) -> None:
        self._db.close()

    # --- plumbing ------------------------------------------------------------------------

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        if self.readonly:
            raise StoreError(f"The log {self.path} is open for reading only")
        try:
            with _transaction(self._db):
                yield self._db
        except sqlite3.Error as exc:
            raise StoreError(_explain(exc, self.path)) from exc

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
