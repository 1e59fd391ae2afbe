"""Checking a finished game against the commitment the table saw at setup (MOCT-FAIR-1).

As for Temple of Chac: the check starts from the commitment the players noted, confirms the
revealed hidden state hashes to it, then plays the logged commands again on that state and
confirms every card drawn, chit peeked at and chit turned that the log records is what the
revealed state gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.game.fairness import replay_on_reveal
from companion.game.moctezuma import fold as folding
from companion.game.moctezuma import rules
from companion.game.moctezuma.game import new_state
from companion.game.protocol import AuditMismatch, AuditUnfinished

__all__ = ["Audit", "AuditMismatch", "AuditUnfinished", "audit_game"]


@dataclass(frozen=True)
class Audit:
    commitment: str
    commands: int
    cards_drawn: int
    chits_peeked: int
    chits_turned: int

    def summary(self) -> str:
        return (
            f"the reveal hashes to the commitment {self.commitment}; {self.commands} commands "
            f"replayed on it: {self.cards_drawn} temple cards drawn, {self.chits_peeked} chits "
            f"peeked at and {self.chits_turned} chits turned, all from the revealed state"
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
    counts = {"drawn": 0, "peeked": 0}

    def seen(state: Any, event: dict[str, Any]) -> None:
        counts["drawn"] += len(event["cards"]) if event["type"] == "explored" else 0
        counts["peeked"] += len(event["seen"]) if event["type"] == "researched" else 0

    state, published, count = replay_on_reveal(
        lambda: new_state(options, seats, seed), noted, commands, rules.validate, folding.fold, seen
    )
    if not state.over:
        raise AuditUnfinished("the game is not finished: nothing is revealed yet")
    return Audit(published, count, counts["drawn"], counts["peeked"], state.turned)
