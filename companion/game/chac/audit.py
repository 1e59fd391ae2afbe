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
from companion.game.fairness import replay_on_reveal
from companion.game.protocol import AuditMismatch, AuditUnfinished

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
    counts = {"drawn": 0, "walls": 0}

    def seen(state: Any, event: dict[str, Any]) -> None:
        kind = event["type"]
        counts["drawn"] += kind in ("searched", "took_treasure")
        if kind == "walls":
            counts["walls"] += len(state.hidden["walls"][state.wall_pos : state.wall_pos + 3])

    state, published, count = replay_on_reveal(
        lambda: new_state(options, seats, seed), noted, commands, rules.validate, folding.fold, seen
    )
    if state.phase != "over":
        raise AuditUnfinished("the game is not finished: nothing is revealed yet")
    return Audit(published, count, counts["drawn"], counts["walls"], _caskets_scored(state))


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
