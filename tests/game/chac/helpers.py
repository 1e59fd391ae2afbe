"""A small driver for Temple of Chac rule tests: commands in, state and views out."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.game.chac import ChacGame
from companion.game.chac.state import Adventurer, ChacState
from companion.game.protocol import Command, RuleError

GAME = ChacGame()


def seed_dealing(wanted: dict[int, str], seats: int, options: dict[str, Any] | None = None) -> int:
    """The first seed dealing each named adventurer to its seat."""
    for seed in range(10_000):
        state = GAME.setup(options or {}, [f"P{i}" for i in range(seats)], seed)
        if all(name in state.seats[i].dealt for i, name in wanted.items()):
            return seed
    raise AssertionError(f"no seed deals {wanted}")


class Play:
    """One game driven through the public protocol (apply + fold), as the Table does."""

    def __init__(
        self,
        first: dict[int, str] | None = None,
        seats: int = 2,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        keeper: int = 0,
        start: bool = True,
    ):
        first = first or {}
        names = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"][:seats]
        self.seed = seed if seed is not None else seed_dealing(first, seats, options)
        self.options = options or {}
        self.state: ChacState = GAME.setup(self.options, names, self.seed)
        self.events: list[dict[str, Any]] = []
        if start:
            for i in range(seats):
                self.do(
                    "choose_adventurer", i, adventurer=first.get(i, self.state.seats[i].dealt[0])
                )
            self.do("first_dicekeeper", None, keeper=keeper)

    # -- commands ------------------------------------------------------------------------------
    def do(self, kind: str, seat: int | None = None, **args: Any) -> list[dict[str, Any]]:
        events = GAME.apply(self.state, Command(kind, seat, args))
        for event in events:
            json.dumps(event)  # events are JSON-ready
            self.state = GAME.fold(self.state, event)
        self.events.extend(events)
        return events

    def dice(self, *values: int) -> None:
        self.do("dice", None, values=list(values))

    def refuse(self, kind: str, seat: int | None, rule: str, **args: Any) -> RuleError:
        """The command is refused, naming `rule`, and nothing changes."""
        before = json.dumps(GAME.public_view(self.state), sort_keys=True)
        with pytest.raises(RuleError) as info:
            self.do(kind, seat, **args)
        assert info.value.rule == rule, f"{info.value} ({info.value.rule}), expected {rule}"
        assert json.dumps(GAME.public_view(self.state), sort_keys=True) == before
        return info.value

    # -- arranging a situation -------------------------------------------------------------------
    def adv(self, seat: int) -> Adventurer:
        adv = self.state.seats[seat].adv
        assert adv is not None
        return adv

    def place(self, seat: int, space: str) -> None:
        self.do("set_space", None, player=seat, to=space)

    def give(self, seat: int, n: int, deck: str = "Z1") -> list[str]:
        """Hand `n` cards from the top of `deck` (then other decks) to a seat's adventurer."""
        order = [deck, *(d for d in self.state.decks if d != deck)]
        cards = [
            self.state.decks[next(d for d in order if self.state.decks[d])].pop() for _ in range(n)
        ]
        self.adv(seat).cards.extend(cards)
        return cards

    def give_ids(self, seat: int, cards: list[str]) -> None:
        """Hand these cards (from any deck) to a seat's adventurer (test arrangement)."""
        for card in cards:
            next(d for d in self.state.decks.values() if card in d).remove(card)
        self.adv(seat).cards.extend(cards)

    def cards_worth(self, value: int | str, n: int) -> list[str]:
        """`n` cards still in the decks with this value."""
        found = [c for d in self.state.decks.values() for c in d if self.state.values[c] == value]
        return found[:n]

    def trap(self) -> int:
        return next(iter(self.state.hidden["traps"].values()))

    def safe(self) -> int:
        used = set(self.state.hidden["traps"].values()) | set(self.state.slabs.values())
        return next(n for n in range(1, 15) if n not in used)

    def to_actions(self, *dice: int) -> None:
        """Finish the load phase (everyone ready) and roll the action dice."""
        while self.state.phase == "load":
            self.do("ready", self.state.actor())
        assert self.state.phase == "roll", self.state.phase
        self.dice(*(dice or (6, 6, 6, 6, 6)))

    def pass_until(self, seat: int) -> None:
        while self.state.actor() not in (seat, None):
            self.do("pass", self.state.actor())

    def finish_actions(self) -> None:
        while self.state.phase == "actions":
            self.do("pass", self.state.actor())

    def legal(self, seat: int | None) -> list[Command]:
        return GAME.legal(self.state, seat)

    def view(self) -> dict[str, Any]:
        return GAME.public_view(self.state)

    def seat_view(self, seat: int) -> dict[str, Any]:
        return GAME.seat_view(self.state, seat)

    def prompt_texts(self) -> list[str]:
        return [p.text for p in GAME.prompts(self.state)]
