"""The live table: one game, its durable event log, the subscribers to its views.

The Table is the only writer. A command is validated by the game, its events are folded into
the state and written to the log in one fsynced transaction, and only then is the command
acknowledged and the subscribers told. If the log cannot take the events, the state is rebuilt
from the log and the command is refused, so memory and disk never disagree.

Live play folds the events exactly as a restart will read them back (through JSON), so a
restart lands in the same state. Undo appends a marker and replays the game from its setup
without the undone command; the companion's randomness comes from the game's seed, so a card
drawn again after an undo is the same card. The undo itself leaves a line in the views' log
("Undone by the host: ..."), kept with its marker so a restart shows it too.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.game import load_game
from companion.game.protocol import Command, Game, Prompt, RuleError
from companion.store import GameRecord, Store, StoreError, encode

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    ok: bool
    reason: str = ""  # plain words, ending with the rule ID when one applies
    rule: str = ""  # the rule ID alone, or ""
    version: int = 0  # the table's version after the command
    # Deliberately no events here: events hold secrets; callers get views only.


@dataclass
class _Live:
    """The current game in memory: its record, engine, state and the events still in effect."""

    record: GameRecord
    game: Game
    state: Any
    # (log entry id, events as JSON text) of the commands still in effect. Kept as text so
    # that nothing the engine does to folded events can alter what a replay folds.
    active: list[tuple[int, list[str]]]
    # What each undo told the table, oldest first: {"text", "after": the view's log_count
    # right after the undo}; merged into the views' log.
    notes: list[dict[str, Any]] = field(default_factory=list)


class Table:
    """The live table: one game, its durable event log, the subscribers to its views.

    The only writer: every change goes through a lock, is fsynced to SQLite, then published.

        table = Table.open("var/companion.db")
        table.new_game(name, options, ["Ana", "Ben"])
        outcome = table.submit(Command("pass", 0))
        if not outcome.ok:
            print(outcome.reason)
    """

    def __init__(self, store: Store):
        self._store = store
        self._lock = threading.RLock()
        self._subscribers: list[Callable[[int], None]] = []
        self._live: _Live | None = None
        self._version = store.last_version()
        record = store.current_game()
        if record is not None:
            active = [
                (e.id, [encode(x) for x in e.events]) for e in store.active_commands(record.id)
            ]
            self._live = _replay(record, active)
            self._live.notes = [
                e.command
                for e in store.history(record.id)
                if e.kind == "undo" and isinstance(e.command, dict) and "text" in e.command
            ]

    @classmethod
    def open(cls, db_path: str | Path) -> Table:
        """Creates or reopens the log at `db_path` (":memory:" for a throwaway table) and
        replays its current game. Raises StoreError when the file cannot serve as a log."""
        store = Store(db_path)
        try:
            return cls(store)
        except BaseException:
            store.close()
            raise

    # --- state, read under the lock so nobody sees a half-applied command ---------------

    @property
    def has_game(self) -> bool:
        return self._live is not None

    @property
    def game_name(self) -> str | None:
        live = self._live
        return live.record.name if live else None

    @property
    def game_id(self) -> int | None:
        """The current game's number in the log (a new game gets a new one)."""
        live = self._live
        return live.record.id if live else None

    @property
    def game(self) -> Game | None:
        """The engine of the current game (stateless: it describes commands, declares options)."""
        live = self._live
        return live.game if live else None

    @property
    def seats(self) -> list[str]:
        live = self._live
        return list(live.record.seats) if live else []

    @property
    def version(self) -> int:
        return self._version

    def public_view(self) -> dict:
        with self._lock:
            if self._live is None:
                return {"game": None}
            return with_undo_notes(self._live.game.public_view(self._live.state), self._live.notes)

    def seat_view(self, seat: int) -> dict:
        with self._lock:
            if self._live is None:
                return {"game": None}
            if not 0 <= seat < len(self._live.record.seats):
                raise ValueError(f"There is no seat {seat} at this table")
            view = self._live.game.seat_view(self._live.state, seat)
            return with_undo_notes(view, self._live.notes)

    def prompts(self) -> list[Prompt]:
        with self._lock:
            return self._live.game.prompts(self._live.state) if self._live else []

    def legal(self, seat: int | None) -> list[Command]:
        with self._lock:
            return self._live.game.legal(self._live.state, seat) if self._live else []

    def is_over(self) -> bool:
        with self._lock:
            return self._live.game.is_over(self._live.state) if self._live else False

    # --- changes -------------------------------------------------------------------------

    def new_game(
        self, game: str, options: dict, seats: list[str], seed: int | None = None
    ) -> Outcome:
        """Starts a new game, which replaces the current one (the old stays in the log).
        Without a seed the companion draws a secret one."""
        if seed is None:
            seed = secrets.randbits(63)
        try:
            engine = load_game(game)
            options, seats = json.loads(encode(options)), json.loads(encode(seats))
            state = engine.setup(options, seats, seed)
        except RuleError as exc:
            return self._refused(exc.reason, exc.rule)
        except (ValueError, TypeError, ImportError) as exc:
            return self._refused(str(exc))
        with self._lock:
            try:
                game_id, version = self._store.add_game(game, options, seats, seed)
            except StoreError as exc:
                return self._refused(f"The new game could not be saved: {exc}. Nothing changed.")
            record = GameRecord(game_id, game, options, seats, seed, version)
            self._live = _Live(record, engine, state, [])
            self._version = version
        self._publish(version)
        return Outcome(True, version=version)

    def submit(self, command: Command) -> Outcome:
        """Applies one command. A rejected command returns the reason and changes nothing."""
        with self._lock:
            live = self._live
            if live is None:
                return self._refused("No game is in progress; start a new game first.")
            try:
                events = live.game.apply(live.state, command)
            except RuleError as exc:
                return self._refused(exc.reason, exc.rule)
            except Exception as exc:  # an engine fault must not take the table down
                log.exception("The game failed on %s", command)
                return self._refused(f"The game could not handle this command ({exc}).")
            try:
                encoded = [encode(event) for event in events]
                command_json = json.loads(encode(command.to_json()))
            except (TypeError, ValueError) as exc:
                log.exception("Events of %s are not JSON", command)
                return self._refused(f"The game produced events that cannot be saved ({exc}).")
            try:
                # Fold what a restart will read back, so live play and replay cannot drift.
                for text in encoded:
                    live.state = live.game.fold(live.state, json.loads(text))
                entry = self._store.add_command(live.record.id, command_json, encoded)
            except StoreError as exc:
                self._live = _replay(live.record, live.active)
                return self._refused(f"The command could not be saved: {exc}. Nothing changed.")
            except Exception:
                self._live = _replay(live.record, live.active)
                raise
            live.active.append((entry, encoded))
            self._version = entry
        self._publish(entry)
        return Outcome(True, version=entry)

    def undo(self) -> Outcome:
        """Reverts the last command still in effect, exactly; repeated undos go further back."""
        with self._lock:
            live = self._live
            if live is None or not live.active:
                return self._refused("There is nothing to undo.")
            last, _ = live.active[-1]
            rebuilt = _replay(live.record, live.active[:-1])
            note = _undo_note(
                live.game.public_view(live.state), live.game.public_view(rebuilt.state)
            )
            try:
                marker = self._store.add_undo(live.record.id, last, note)
            except StoreError as exc:
                return self._refused(f"The undo could not be saved: {exc}. Nothing changed.")
            rebuilt.notes = [*live.notes, note]
            self._live = rebuilt
            self._version = marker
        self._publish(marker)
        return Outcome(True, version=marker)

    # --- subscribers ---------------------------------------------------------------------

    def subscribe(self, callback: Callable[[int], None]) -> Callable[[], None]:
        """`callback(version)` runs after every accepted change, once it is on disk, outside
        the lock (so it may read views). Returns a function that unsubscribes."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def close(self) -> None:
        with self._lock:
            self._store.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- plumbing ------------------------------------------------------------------------

    def _refused(self, reason: str, rule: str = "") -> Outcome:
        return Outcome(False, reason=reason, rule=rule, version=self._version)

    def _publish(self, version: int) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for callback in subscribers:
            try:
                callback(version)
            except Exception:
                log.exception("A subscriber failed on version %d", version)


def _undo_note(before: dict, after: dict) -> dict[str, Any]:
    """What an undo tells the table: the log lines the undone command had written."""
    lines, count = before.get("log") or [], before.get("log_count") or 0
    gone = count - (after.get("log_count") or 0)
    said = " ".join(lines[-gone:]) if 0 < gone <= len(lines) else "the last command."
    return {"text": f"Undone by the host: {said}", "after": after.get("log_count") or 0}


def with_undo_notes(view: dict, notes: list[dict[str, Any]]) -> dict:
    """`view` with the undo notes in its log, each after the line it followed (a note stays
    before the lines of later undos it outlived), keeping the log's length; `log_count`
    counts them too."""
    lines, count = view.get("log"), view.get("log_count")
    if not notes or not isinstance(lines, list) or not isinstance(count, int):
        return view
    places, lowest = [], count
    for note in reversed(notes):  # a later undo going further back moves earlier notes back
        lowest = min(lowest, note["after"])
        places.append((lowest, note["text"]))
    places.reverse()
    first = count - len(lines)
    merged: list[str] = []
    waiting = [(at, text) for at, text in places if at >= first]
    for index, line in enumerate(lines, first):
        while waiting and waiting[0][0] <= index:
            merged.append(waiting.pop(0)[1])
        merged.append(line)
    merged.extend(text for _, text in waiting)
    keep = len(lines) if count > len(lines) else len(merged)
    return {**view, "log": merged[-keep:] if keep else [], "log_count": count + len(notes)}


def _replay(record: GameRecord, active: list[tuple[int, list[str]]]) -> _Live:
    """The game rebuilt from its setup and the events of the commands still in effect."""
    game = load_game(record.name)
    state = game.setup(record.options, record.seats, record.seed)
    for _, events in active:
        for text in events:
            state = game.fold(state, json.loads(text))
    return _Live(record, game, state, list(active))
