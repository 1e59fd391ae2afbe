"""Commitments to a game's hidden state, and checking a finished game against one.

At setup a game publishes the SHA-256 of its salted hidden state (the commitment); at the end
it reveals the salt and the state. A log cannot vouch for itself (its seed, its events and the
reveal could all be rewritten together), so a check starts from the commitment the players
noted, confirms the revealed state hashes to it, then plays the logged commands again on that
state and confirms every logged event is what the state gives. Each game's `audit` counts what
its players care about (cards drawn, chits turned...) on top of this.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from typing import Any

from companion.game.protocol import AuditMismatch, Command, Event, RuleError


def canonical(hidden: dict[str, Any]) -> str:
    return json.dumps(hidden, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def commitment(salt: str, hidden: dict[str, Any]) -> str:
    return hashlib.sha256(f"{salt}:{canonical(hidden)}".encode()).hexdigest()


def verify_reveal(commitment_hex: str, reveal: Any) -> bool:
    """True when `reveal` ({"salt", "hidden"}) matches the commitment published at setup."""
    if not isinstance(reveal, dict) or not isinstance(commitment_hex, str):
        return False
    salt, hidden = reveal.get("salt"), reveal.get("hidden")
    if not isinstance(salt, str) or not isinstance(hidden, dict):
        return False
    return commitment(salt, hidden) == commitment_hex.strip().lower()


def matches_noted(published: str, noted: str) -> bool:
    """Whether the commitment the players noted (all 64 hex digits, or at least the first 16
    the table shows) is the one published."""
    noted = noted.strip().lower().rstrip(".").removesuffix("...")
    return len(noted) >= 16 and published.startswith(noted)


def replay_on_reveal(
    setup: Callable[[], Any],
    noted: str,
    commands: Iterable[tuple[dict[str, Any], list[Event]]],
    validate: Callable[[Any, Command], list[Event]],
    fold: Callable[[Any, Event], Any],
    seen: Callable[[Any, Event], None],
) -> tuple[Any, str, int]:
    """(the final state, the published commitment, commands replayed) for the game `setup()`
    deals (a state with its `salt` and `hidden`), checked against `noted`, each logged
    command's events against what `validate` gives on the revealed state. `seen(state,
    event)` runs before each event is folded, for the game's own counts. Raises
    AuditMismatch saying where the log differs."""
    try:
        state = setup()
    except RuleError as exc:
        raise AuditMismatch(f"the logged setup cannot be played: {exc.reason}") from None
    published = commitment(state.salt, state.hidden)
    if not matches_noted(published, noted):
        raise AuditMismatch(
            f"the log's hidden state hashes to {published[:16]}..., not to the commitment "
            f"{noted.strip()} the table showed at setup: its seed or setup was changed, or the "
            "commitment was noted wrongly"
        )
    count = 0
    for number, (raw, logged) in enumerate(commands):
        try:
            expected = validate(state, Command.from_json(raw))
        except Exception as exc:  # any failure here is the log's fault: said in one line
            raise AuditMismatch(
                f"command {number} ({_what(raw)}) is not legal on the revealed state: {exc}"
            ) from None
        if expected != logged:
            raise AuditMismatch(
                f"command {number} ({_what(raw)}): the log records {_differ(logged, expected)}"
            )
        for event in expected:
            seen(state, event)
            fold(state, event)
        count += 1
    return state, published, count


def _what(raw: Any) -> str:
    if isinstance(raw, dict):
        seat = raw.get("seat")
        return f"{raw.get('type')!s} by {'the table' if seat is None else f'seat {seat}'}"
    return "not a command"


def _differ(logged: list[Event], expected: list[Event]) -> str:
    """The first difference between the logged and the recomputed events, in words."""
    for mine, theirs in zip(logged, expected, strict=False):
        if mine != theirs:
            keys = sorted(k for k in {*mine, *theirs} if mine.get(k) != theirs.get(k))
            key = keys[0]
            return (
                f"{mine.get('type')} with {key} {mine.get(key)!r}, but the revealed state gives "
                f"{theirs.get(key)!r}"
            )
    return f"{len(logged)} events, but the revealed state gives {len(expected)}"
