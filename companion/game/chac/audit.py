"""Checking a finished game against the commitment the table saw at setup (CHAC-FAIR-1).

A log cannot vouch for itself: its seed, its events, even the reveal it leads to could all have
been rewritten together. So the check starts from the commitment the players noted (the table
page, the OLED, the receipt), confirms the revealed hidden state hashes to it, then plays the
logged commands again on that revealed state and confirms that every event the log recorded,
every card drawn, wall card turned and casket scored, is what that state gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.game.chac import fold as folding
from companion.game.chac import rules
from companion.game.chac.game import new_state
from companion.game.chac.hidden import commitment
from companion.game.protocol import (
    AuditMismatch,
    AuditUnfinished,
    Command,
    RuleError,
    matches_noted,
)

__all__ = ["Audit", "AuditMismatch", "AuditUnfinished", "audit_game"]


@dataclass(frozen=True)
class Audit:
    commitment: str
    commands: int
    cards_drawn: int
    wall_cards: int
    caskets_scored: int

    def summary(self) -> str:
        return (
            f"the reveal hashes to the commitment {self.commitment}; {self.commands} commands "
            f"replayed on it: {self.cards_drawn} treasure cards drawn, {self.wall_cards} wall "
            f"cards turned and {self.caskets_scored} caskets scored, all from the revealed state"
        )


def audit_game(
    options: Mapping[str, Any],
    seats: list[str],
    seed: int,
    commands: Iterable[tuple[dict[str, Any], list[dict[str, Any]]]],
    noted: str,
) -> Audit:
    """Check one game: its setup against the noted commitment, then each logged command's
    events against what the revealed state gives. Raises AuditMismatch or AuditUnfinished."""
    try:
        state = new_state(options, seats, seed)
    except RuleError as exc:
        raise AuditMismatch(f"the logged setup cannot be played: {exc.reason}") from None
    published = commitment(state.salt, state.hidden)
    if not matches_noted(published, noted):
        raise AuditMismatch(
            f"the log's hidden state hashes to {published[:16]}..., not to the commitment "
            f"{noted.strip()} the table showed at setup: its seed or setup was changed, or the "
            "commitment was noted wrongly"
        )
    count = drawn = walls = 0
    for number, (raw, logged) in enumerate(commands):
        try:
            command = Command.from_json(raw)
            expected = rules.validate(state, command)
        except Exception as exc:  # any failure here is the log's fault: said in one line
            raise AuditMismatch(
                f"command {number} ({_what(raw)}) is not legal on the revealed state: {exc}"
            ) from None
        if expected != logged:
            raise AuditMismatch(
                f"command {number} ({_what(raw)}): the log records {_differ(logged, expected)}"
            )
        for event in expected:
            kind = event["type"]
            drawn += kind in ("searched", "took_treasure")
            if kind == "walls":
                walls += len(state.hidden["walls"][state.wall_pos : state.wall_pos + 3])
            folding.fold(state, event)
        count += 1
    if state.phase != "over":
        raise AuditUnfinished("the game is not finished: nothing is revealed yet")
    return Audit(published, count, drawn, walls, _caskets_scored(state))


def _what(raw: Any) -> str:
    if isinstance(raw, dict):
        seat = raw.get("seat")
        return f"{raw.get('type')!s} by {'the table' if seat is None else f'seat {seat}'}"
    return "not a command"


def _differ(logged: list[dict[str, Any]], expected: list[dict[str, Any]]) -> str:
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


def _caskets_scored(state: Any) -> int:
    """Caskets counted in the final scores, their values taken from the revealed state."""
    total = 0
    for seat in state.seats:
        adv = seat.adv
        if adv is None or adv.status != "escaped":
            continue
        if state.options["treasure_mode"] == "physical":
            total += len(seat.scored[1]) if seat.scored else 0
        else:
            total += sum(1 for c in adv.cards if state.values[c] == "casket")
    return total
