"""A small driver for Moctezuma's Revenge! rule tests: commands in, state and views out."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.game.moctezuma import MoctezumaGame
from companion.game.moctezuma.state import MoctezumaState
from companion.game.protocol import Command, RuleError

GAME = MoctezumaGame()
NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eve", "Finn"]


def seed_with_first(first: int, seats: int) -> int:
    """The first seed that makes `first` the first player."""
    return next(s for s in range(1000) if GAME.setup({}, NAMES[:seats], s).first == first)


class Play:
    """One game driven through the public protocol (apply + fold), as the Table does."""

    def __init__(self, seats: int = 2, options: dict[str, Any] | None = None, seed: int = -1):
        self.seed = seed if seed >= 0 else seed_with_first(0, seats)
        self.state: MoctezumaState = GAME.setup(options or {}, NAMES[:seats], self.seed)

    def do(self, kind: str, seat: int | None = None, **args: Any) -> list[dict[str, Any]]:
        events = GAME.apply(self.state, Command(kind, seat, args))
        for event in events:
            self.state = GAME.fold(self.state, json.loads(json.dumps(event)))
        return events

    def refused(self, rule: str, kind: str, seat: int | None = None, **args: Any) -> str:
        """Asserts the command is refused naming `rule` and that nothing changed."""
        before = self.everything()
        with pytest.raises(RuleError) as caught:
            GAME.apply(self.state, Command(kind, seat, args))
        assert caught.value.rule == rule, caught.value.reason
        assert self.everything() == before
        return str(caught.value)

    def everything(self) -> str:
        views = [GAME.public_view(self.state)]
        views += [GAME.seat_view(self.state, s) for s in range(len(self.state.seats))]
        return json.dumps([views, self.state.decks, self.state.points, self.state.turn])

    def view(self) -> dict[str, Any]:
        return GAME.public_view(self.state)

    def seat_view(self, seat: int) -> dict[str, Any]:
        return GAME.seat_view(self.state, seat)

    def top(self, temple: int, n: int) -> list:
        """The next `n` cards of a temple's deck, top first."""
        return self.state.decks[temple][: -n - 1 : -1]

    def end_turns(self, count: int) -> None:
        for _ in range(count):
            self.do("end_turn", self.state.turn)
