"""A very small game with hidden state, a seeded deck and dice, for testing the Table alone.

Each turn the seat in turn may draw the top card of a hidden deck (only they see it), ask for
a roll (the table then answers with two dice, which score), or pass. The game ends when the
deck is empty. Its fold mutates the state in place, like an engine may.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from companion.game.protocol import Command, Event, Option, Prompt, RuleError

WORDS = {"draw": "Draw a card", "roll": "Roll for points", "pass": "Pass", "dice": "Enter the dice"}


class TinyGame:
    """Declares only what the protocol requires: no screens, page parts or statistics."""

    name: ClassVar[str] = "tiny"
    title: ClassVar[str] = "Tiny"
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 4
    uses_dice: ClassVar[bool] = True
    options: ClassVar[tuple[Option, ...]] = (
        Option("cards", "int", 8, "Cards in the deck.", low=1, high=52),
    )

    def describe(self, command: Command) -> str:
        return WORDS.get(command.type, command.type)

    def setup(self, options: Mapping[str, Any], seats: list[str], seed: int) -> dict[str, Any]:
        if not 1 <= len(seats) <= 4:
            raise RuleError("The tiny game takes 1 to 4 players.", "TINY-SET-1")
        cards = options.get("cards", 8)
        if not isinstance(cards, int) or cards < 1:
            raise RuleError("Option 'cards' must be a positive whole number.")
        deck = list(range(1, cards + 1))
        random.Random(seed).shuffle(deck)
        return {
            "deck": deck,
            "hands": [[] for _ in seats],
            "scores": [0] * len(seats),
            "turn": 0,
            "rolling": False,
            "over": False,
        }

    def legal(self, state: dict[str, Any], seat: int | None) -> list[Command]:
        if state["over"]:
            return []
        if state["rolling"]:
            return [Command("dice", None, {"values": None})] if seat is None else []
        if seat != state["turn"]:
            return []
        return [Command("draw", seat), Command("roll", seat), Command("pass", seat)]

    def apply(self, state: dict[str, Any], command: Command) -> list[Event]:
        if state["over"]:
            raise RuleError("The game is over.", "TINY-END-1")
        if command.type == "dice":
            if not state["rolling"]:
                raise RuleError("Nobody asked for a roll.", "TINY-ROLL-1")
            values = command.args.get("values")
            if (
                not isinstance(values, list)
                or len(values) != 2
                or not all(isinstance(v, int) and 1 <= v <= 6 for v in values)
            ):
                raise RuleError("A roll is two dice, each 1 to 6.", "TINY-ROLL-1")
            return [{"type": "rolled", "seat": state["turn"], "values": values}, self._next(state)]
        if state["rolling"]:
            raise RuleError("Roll the two dice first.", "TINY-ROLL-1")
        if command.seat != state["turn"]:
            raise RuleError("It is not your turn.", "TINY-TURN-1")
        if command.type == "draw":
            events: list[Event] = [{"type": "drew", "seat": command.seat, "card": state["deck"][0]}]
            if len(state["deck"]) == 1:
                events.append({"type": "ended"})
            else:
                events.append(self._next(state))
            return events
        if command.type == "roll":
            return [{"type": "roll_asked", "seat": command.seat}]
        if command.type == "pass":
            return [self._next(state)]
        raise RuleError(f"Unknown command {command.type!r}.")

    def fold(self, state: dict[str, Any], event: Event) -> dict[str, Any]:
        kind = event["type"]
        if kind == "drew":
            state["hands"][event["seat"]].append(state["deck"].pop(0))
        elif kind == "roll_asked":
            state["rolling"] = True
        elif kind == "rolled":
            state["scores"][event["seat"]] += sum(event["values"])
            state["rolling"] = False
        elif kind == "turn":
            state["turn"] = event["seat"]
        elif kind == "ended":
            state["over"] = True
        return state

    def public_view(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            "game": self.name,
            "deck": len(state["deck"]),
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "scores": list(state["scores"]),
            "turn": state["turn"],
            "rolling": state["rolling"],
            "over": state["over"],
        }

    def seat_view(self, state: dict[str, Any], seat: int) -> dict[str, Any]:
        return {**self.public_view(state), "seat": seat, "hand": list(state["hands"][seat])}

    def prompts(self, state: dict[str, Any]) -> list[Prompt]:
        if state["over"]:
            return [Prompt("The game is over.", "over")]
        if state["rolling"]:
            return [Prompt("Roll two dice.", "roll", state["turn"], dice=2, purpose="score")]
        return [Prompt("Draw, roll or pass.", "act", state["turn"])]

    def is_over(self, state: dict[str, Any]) -> bool:
        return state["over"]

    @staticmethod
    def _next(state: dict[str, Any]) -> Event:
        return {"type": "turn", "seat": (state["turn"] + 1) % len(state["hands"])}


def random_command(game: TinyGame, state: dict[str, Any], rng: random.Random) -> Command:
    """A random legal command for whoever must act now."""
    if state["rolling"]:
        return Command("dice", None, {"values": [rng.randint(1, 6), rng.randint(1, 6)]})
    return rng.choice(game.legal(state, state["turn"]))
