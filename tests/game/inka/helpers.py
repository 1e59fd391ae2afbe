"""A small driver for Inka rule tests: commands in, state and views out."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.game.inka import InkaGame
from companion.game.inka.state import InkaState
from companion.game.protocol import Command, RuleError

GAME = InkaGame()
NAMES = ["Ana", "Ben", "Cleo", "Dan"]
COLOURS = ["red", "yellow", "green", "blue"]


class Play:
    """One game driven through the public protocol (apply + fold), as the Table does.

    By default the setup is played to the first turn: seat i plays COLOURS[i], `first` is the
    youngest, counters and the 13 stepping tiles go down in turn.
    """

    def __init__(
        self,
        seats: int = 3,
        first: int = 0,
        options: dict[str, Any] | None = None,
        start: bool = True,
    ):
        self.state: InkaState = GAME.setup(options or {}, NAMES[:seats], 7)
        self.events: list[dict[str, Any]] = []
        if start:
            for i in range(seats):
                self.do("choose_colour", i, colour=COLOURS[i])
            self.do("first_player", None, player=first)
            for _ in range(seats):
                self.do("place_counter", self.state.turn)
            for _ in range(13):
                self.do("place_tile", self.state.turn)

    def do(self, kind: str, seat: int | None = None, **args: Any) -> list[dict[str, Any]]:
        events = GAME.apply(self.state, Command(kind, seat, args))
        for event in events:
            self.state = GAME.fold(self.state, json.loads(json.dumps(event)))
        self.events.extend(events)
        return events

    def refuse(self, kind: str, seat: int | None, rule: str, **args: Any) -> RuleError:
        """The command is refused, naming `rule` in one sentence, and nothing changes."""
        before = self.fingerprint()
        with pytest.raises(RuleError) as info:
            self.do(kind, seat, **args)
        assert info.value.rule == rule, f"{info.value} ({info.value.rule}), expected {rule}"
        message = str(info.value)
        assert message.endswith(".") and message.count(". ") == 0, message
        assert self.fingerprint() == before
        return info.value

    def fingerprint(self) -> str:
        views = [GAME.public_view(self.state)]
        views += [GAME.seat_view(self.state, s) for s in range(len(self.state.seats))]
        return json.dumps(views, sort_keys=True)

    def view(self) -> dict[str, Any]:
        return GAME.public_view(self.state)

    def prompt_texts(self) -> list[str]:
        return [p.text for p in GAME.prompts(self.state)]

    def legal_types(self, seat: int | None) -> list[str]:
        return [c.type for c in GAME.legal(self.state, seat)]

    def seat(self, index: int) -> dict[str, Any]:
        return self.view()["seats"][index]
