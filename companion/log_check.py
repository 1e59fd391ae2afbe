"""Checking the event log before the companion trusts it, and repairing a damaged tail.

`check(path)` reads the log without writing to it: the file is whole and ours, every stored
game and event parses, the games replay through their engines, and the log holds every entry
that was ever acknowledged (the note beside it, see companion.store). Each problem is named by
file, game and entry. The service refuses to start on any of them, keeping the file as it is,
and tells the owner to run `companion log check` / `companion log repair`.

`repair(path, report)` keeps a copy of the log files, then drops the entries from the first
damaged one on (or, for a log that lost its tail, accepts the end it has), so the companion can
carry on from the last good entry. Damage inside SQLite's pages cannot be cut off that way:
then the owner restores a copy or starts a new log (`companion log new`).
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.atomic_file import sync_folder
from companion.store import EmptyLogError, Store, StoreError, acked_path, read_acked

# What `companion run` exits with when the log needs its owner: systemd does not restart on it
# (RestartPreventExitStatus= in the unit file under systemd/). sysexits' EX_DATAERR.
EXIT_LOG_NEEDS_OWNER = 65


class LogNeedsOwner(StoreError):
    """The log is damaged or lost entries; the message lists the problems and what to run."""

    def __init__(self, report: LogReport, data_dir: Path):
        where = f"--data-dir {data_dir}"
        todo = [
            f"The log is kept as it is. See the damage: companion log check {where}",
        ]
        if report.last_good is not None:
            todo.append(
                f"Keep a copy and carry on from entry {report.last_good}: "
                f"companion log repair {where}"
            )
        todo.append(f"Or keep the old log aside and start a new one: companion log new {where}")
        super().__init__("\n".join([*report.lines(), *todo]))
        self.report = report


@dataclass(frozen=True)
class Damage:
    what: str  # plain words
    game: int | None = None
    entry: int | None = None  # the first entry it spoils: a repair keeps those before it

    def __str__(self) -> str:
        where = [f"game {self.game}"] if self.game is not None else []
        if self.entry is not None:
            where.append(f"entry {self.entry}")
        return ", ".join(where) + ": " + self.what if where else self.what


@dataclass
class LogReport:
    path: Path
    damage: list[Damage] = field(default_factory=list)
    last_entry: int = 0  # the newest entry in the file
    acked: int | None = None  # the newest entry ever acknowledged, when noted
    whole_file: bool = True  # SQLite could read the file; else a repair cannot cut it

    @property
    def ok(self) -> bool:
        return not self.damage

    @property
    def last_good(self) -> int | None:
        """The entry a repair truncates after; None when the damage cannot be cut off."""
        if not self.whole_file:
            return None
        cuts = [d.entry for d in self.damage if d.entry is not None]
        return min(cuts) - 1 if cuts else self.last_entry

    def lines(self) -> list[str]:
        if self.ok:
            return [f"{self.path}: the log is whole ({self.last_entry} entries)."]
        return [f"{self.path}: {len(self.damage)} problem(s):", *(f"  - {d}" for d in self.damage)]


def check(path: str | Path, replay_all: bool = False) -> LogReport:
    """The problems of the log at `path`, found without writing to it. Replays the current
    game (every game with `replay_all`)."""
    path = Path(path)
    report = LogReport(path, acked=read_acked(path))
    if not path.exists():
        if report.acked:
            report.whole_file = False
            report.damage.append(
                Damage(f"the log file is missing, but {report.acked} entries were acknowledged")
            )
        return report
    try:
        store = Store(path, readonly=True)
    except EmptyLogError:
        report.whole_file = False
        report.damage.append(Damage("the file is empty (0 bytes): every game in it is lost"))
        return report
    except StoreError as exc:
        report.whole_file = False
        report.damage.append(Damage(str(exc)))
        return report
    try:
        _check_contents(store, report, replay_all)
    except StoreError as exc:  # damage SQLite only meets while reading
        report.whole_file = False
        report.damage.append(Damage(str(exc)))
    finally:
        store.close()
    return report


def _check_contents(store: Store, report: LogReport, replay_all: bool) -> None:
    integrity = store.integrity()
    if integrity != "ok":
        report.whole_file = False
        report.damage.append(Damage(f"SQLite finds the file damaged: {integrity}"))
        return
    report.last_entry = store.last_version()
    entries = store.raw_entries()
    setups = {game: entry for entry, game, kind, *_ in entries if kind == "setup"}
    games = {}
    for game_id, name, options, seats, seed in store.raw_games():
        try:
            games[game_id] = (name, json.loads(options), json.loads(seats), int(seed))
        except (ValueError, TypeError) as exc:
            report.damage.append(
                Damage(f"its setup cannot be read ({exc})", game_id, setups.get(game_id))
            )
    parsed: dict[int, list] = {}
    for entry, game_id, kind, command, undoes, events in entries:
        try:
            if command is not None:
                json.loads(command)
            parsed.setdefault(game_id, []).append(
                (entry, kind, undoes, [json.loads(e) for e in events])
            )
        except ValueError as exc:
            report.damage.append(Damage(f"a stored event cannot be read ({exc})", game_id, entry))
    if report.acked is not None and report.last_entry < report.acked:
        lost = report.acked - report.last_entry
        report.damage.append(
            Damage(
                f"{lost} acknowledged entries are missing: the log ends at entry "
                f"{report.last_entry}, but entry {report.acked} was acknowledged (a damaged "
                "write-ahead file, or an older copy of the log put back)"
            )
        )
    readable = [g for g in games if not any(d.game == g for d in report.damage)]
    for game_id in readable if replay_all else readable[-1:]:
        _replay(game_id, games[game_id], parsed.get(game_id, []), report)


def _replay(game_id: int, game: tuple, entries: list, report: LogReport) -> None:
    """Folds the game's events in effect through its engine, as the table will."""
    from companion.game import load_game

    name, options, seats, seed = game
    undone = {undoes for _, kind, undoes, _ in entries if kind == "undo"}
    setup = next((entry for entry, kind, *_ in entries if kind == "setup"), None)
    try:
        engine = load_game(name)
        state = engine.setup(options, seats, seed)
    except Exception as exc:
        report.damage.append(Damage(f"its setup does not replay ({exc})", game_id, setup))
        return
    known = {entry for entry, *_ in entries}
    for entry, kind, undoes, events in entries:
        if kind == "undo" and undoes not in known:
            report.damage.append(
                Damage(f"it undoes entry {undoes} of no such command", game_id, entry)
            )
            return
        if kind != "command" or entry in undone:
            continue
        for event in events:
            try:
                state = engine.fold(state, event)
            except Exception as exc:
                report.damage.append(
                    Damage(
                        f"its events do not replay ({type(exc).__name__}: {exc})", game_id, entry
                    )
                )
                return


def keep_copy(path: Path) -> Path:
    """Copies the log's files (with its write-ahead file and note) beside it, untouched;
    returns the copy's path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    copy = path.with_name(f"{path.name}.before-repair-{stamp}")
    for suffix in ("", "-wal", ".acked"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            shutil.copy2(source, f"{copy}{suffix}")
    return copy


def repair(path: Path, report: LogReport) -> Path:
    """Keeps a copy, then cuts the log after its last good entry. The caller has the
    owner's consent and holds the data directory's lock. Returns the copy's path."""
    last_good = report.last_good
    if last_good is None:
        raise StoreError(
            f"The damage in {path} cannot be cut off: restore a copy of the log, or start a "
            "new one with `companion log new` (the old file is kept)."
        )
    copy = keep_copy(path)
    store = Store(path)
    try:
        store.truncate_after(last_good)
    finally:
        store.close()
    return copy


def retire(path: Path) -> Path | None:
    """Moves the log (and its write-ahead file and note) aside, so that the next start begins
    a new, empty log. Returns where the old log went (None when there was none)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.retired-{stamp}")
    moved = False
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(f"{kept}{suffix}")
            moved = moved or suffix == ""
    note = acked_path(path)
    if note.exists():
        note.rename(f"{kept}.acked")
    sync_folder(path.parent)
    return kept if moved else None
