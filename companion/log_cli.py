"""`companion log check|repair|new`: the owner's tools for a damaged or lost event log.

check   lists the damage (file, game, entry) without writing anything; exit 0 when the log is
        whole, 65 when it is not.
repair  keeps a copy of the log files, then cuts the log after its last good entry (or accepts
        the end a log that lost its tail has); asks first unless --yes.
new     moves the log aside (kept, renamed) so that the next start begins a new, empty log;
        asks first unless --yes.

repair and new take the data directory's lock: they refuse while a companion runs on it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "log",
        help="check, repair or replace the event log",
        description="Check the event log for damage and lost entries, repair a damaged tail, "
        "or start a new log; the companion refuses to start on a damaged log and says which "
        "of these to run.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, text in (
        ("check", "list the damage, writing nothing (exit 0 when whole, 65 when not)"),
        ("repair", "keep a copy, then carry on from the last good entry"),
        ("new", "keep the old log aside and start a new, empty one"),
    ):
        action = actions.add_parser(name, help=text, description=text)
        action.add_argument("--config", help="settings file (TOML), for its data_dir")
        action.add_argument("--data-dir", help="the companion's data directory")
        if name != "check":
            action.add_argument("--yes", action="store_true", help="do not ask first")
        action.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.config import ConfigError, load
    from companion.data_lock import DataDirBusy, DataDirLock
    from companion.log_check import EXIT_LOG_NEEDS_OWNER, check
    from companion.store import DB_NAME, StoreError

    overrides = {"data_dir": args.data_dir} if args.data_dir else {}
    try:
        data_dir = load(args.config, overrides).resolved_data_dir()
    except ConfigError as exc:
        print(f"companion log: {exc}", file=sys.stderr)
        return 2
    path = data_dir / DB_NAME
    if args.action == "check":
        report = check(path, replay_all=True)
        print("\n".join(report.lines()))
        return 0 if report.ok else EXIT_LOG_NEEDS_OWNER
    try:
        lock = DataDirLock.hold(data_dir)
    except (DataDirBusy, OSError) as exc:
        print(f"companion log {args.action}: {exc}", file=sys.stderr)
        return 1
    try:
        if args.action == "repair":
            return _repair(path, args.yes)
        return _new(path, args.yes)
    except (StoreError, OSError) as exc:
        print(f"companion log {args.action}: {exc}", file=sys.stderr)
        return EXIT_LOG_NEEDS_OWNER
    finally:
        lock.release()


def _repair(path: Path, yes: bool) -> int:
    from companion.log_check import EXIT_LOG_NEEDS_OWNER, check, repair

    report = check(path, replay_all=True)
    print("\n".join(report.lines()))
    if report.ok:
        return 0
    last_good = report.last_good
    if last_good is None:
        print(
            "This damage cannot be cut off: restore a copy of the log, or start a new one "
            "with `companion log new` (the old file is kept).",
            file=sys.stderr,
        )
        return EXIT_LOG_NEEDS_OWNER
    dropped = max(report.last_entry - last_good, 0)
    print(
        f"Repair keeps a copy of the log, then keeps entries up to {last_good} and drops "
        f"{dropped} entries after it; the companion carries on from there."
    )
    if not yes and not _agreed():
        print("Nothing changed.")
        return 1
    copy = repair(path, report)
    print(f"Repaired. The log as it was is kept in {copy}.")
    return 0


def _new(path: Path, yes: bool) -> int:
    from companion.log_check import retire
    from companion.store import acked_path

    if not path.exists() and not acked_path(path).exists():
        print(f"There is no log at {path}; the companion starts a new one by itself.")
        return 0
    print(f"The log {path} is moved aside (kept); the next start begins a new, empty log.")
    if not yes and not _agreed():
        print("Nothing changed.")
        return 1
    kept = retire(path)
    print(f"Done. The old log is kept as {kept}." if kept else "Done.")
    return 0


def _agreed() -> bool:
    try:
        return input("Type yes to go ahead: ").strip().lower() == "yes"
    except EOFError:
        return False
