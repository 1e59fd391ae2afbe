"""Inka behind the `companion.game.protocol.Game` protocol."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from companion.game.inka import fold as folding
from companion.game.inka import legal as listing
from companion.game.inka import prompts as prompting
from companion.game.inka import rules, steps, views
from companion.game.inka.state import InkaState, Player
from companion.game.protocol import Command, Event, Option, Prompt, RuleError

OPTIONS = (
    Option(
        "strict_phases",
        "bool",
        True,
        "Stepping tiles move before the playing counter, as the rules order the phases; "
        "off lets a player move tiles again after moving the counter.",
    ),
)


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with defaults filled in; RuleError naming the first bad one."""
    if not isinstance(options, Mapping):
        raise RuleError("Options must be a JSON object.")
    known = {o.name: o for o in OPTIONS}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise RuleError(f"Unknown option {unknown[0]!r}; known options: {', '.join(known)}.")
    out = {name: options.get(name, o.default) for name, o in known.items()}
    if not isinstance(out["strict_phases"], bool):
        raise RuleError("strict_phases must be true or false.", "INKA-TURN-1")
    return out


# What each command says on a menu, the OLED and the phones (the seat is known from context),
# short enough for a row of the OLED's menu.
LABELS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "choose_colour": lambda a: f"Play {a.get('colour')}",
    "first_player": lambda a: f"Seat {_seat_number(a.get('player'))} begins",
    "place_counter": lambda a: "Counter on start",
    "place_tile": lambda a: "Place a tile",
    "lift_blocker": lambda a: "Lift blocker",
    "move_tile": lambda a: (
        "Move target tile" if a.get("tile") == "target" else "Move a tile (1 pt)"
    ),
    "snake": lambda a: _snakes(a.get("count", 1)),
    "collect_statue": lambda a: f"{str(a.get('colour', 'a')).capitalize()} statue (1 pt)",
    "secret_passage": lambda a: "Passage (1 pt)",
    "diamond": lambda a: "Diamond (1 pt)",
    "place_blocker": lambda a: {
        "space": "Block a space",
        "tile": "Block a tile",
        "target": "Block a target tile",
    }.get(a.get("on"), "Place blocker"),
    "exit": lambda a: "Leave by an exit",
    "end_turn": lambda a: "End turn",
}


def _snakes(count: Any) -> str:
    return "Pass a snake (1 pt)" if count == 1 else f"{count} snakes ({count} pts)"


def _seat_number(seat: Any) -> str:
    return str(seat + 1) if isinstance(seat, int) and not isinstance(seat, bool) else "?"


class InkaGame:
    """The Inka rules. Stateless: every call takes the state it works on."""

    name: ClassVar[str] = "inka"
    title: ClassVar[str] = "Inka"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    uses_dice: ClassVar[bool] = False
    options: ClassVar[tuple[Option, ...]] = OPTIONS

    def describe(self, command: Command) -> str:
        label = LABELS.get(command.type)
        return label(command.args) if label else command.type.replace("_", " ").capitalize()

    def setup(self, options: Mapping[str, Any], seats: list[str], seed: int) -> InkaState:
        # Nothing is drawn by the companion: the seed is not needed (the tiles are shuffled
        # face down at the table and placed face up).
        opts = check_options(options)
        if not isinstance(seats, list) or not self.min_seats <= len(seats) <= self.max_seats:
            raise RuleError("Inka is played by 2 to 4 players.", "INKA-SET-1")
        if not all(isinstance(s, str) and s.strip() for s in seats):
            raise RuleError("Every seat needs a player name.")
        state = InkaState(options=opts, seats=[Player(s.strip()) for s in seats])
        state.say(f"A new game of Inka for {', '.join(p.name for p in state.seats)}.")
        return state

    def legal(self, state: InkaState, seat: int | None) -> list[Command]:
        return listing.legal(state, seat)

    def apply(self, state: InkaState, command: Command) -> list[Event]:
        return rules.validate(state, command)

    def fold(self, state: InkaState, event: Event) -> InkaState:
        return folding.fold(state, event)

    def public_view(self, state: InkaState) -> dict[str, Any]:
        return views.public_view(state)

    def seat_view(self, state: InkaState, seat: int) -> dict[str, Any]:
        return views.seat_view(state, seat)

    def prompts(self, state: InkaState) -> list[Prompt]:
        return prompting.prompts(state)

    def is_over(self, state: InkaState) -> bool:
        return state.stage == "over"

    def seats_with_commands(self, state: InkaState) -> list[int]:
        return listing.seats_with_commands(state)

    def random_weights(self, state: InkaState, commands: list[Command]) -> list[float]:
        """Random play collects statues and heads out more often than it dawdles."""
        return [_WEIGHTS.get(c.type, 1.0) for c in commands]

    def seat_commands(
        self, view: Mapping[str, Any], seat: int, legal: list[Command]
    ) -> list[Command]:
        """What the seat page offers as buttons: the panel menu's steps (`steps.offered`)."""
        return steps.offered(view, seat, legal)

    def screens(self) -> Any:
        """Its OLED screens: turn, phase and points; the placements of the setup."""
        from companion.game.inka import screens

        return screens

    def simulation(self) -> Any:
        """`companion simulate`'s invariant checks and figures for a run of random games."""
        from companion.game.inka.simulation import InkaSimulation

        return InkaSimulation()


_WEIGHTS = {
    "collect_statue": 1.5,
    "exit": 20.0,
    "place_blocker": 0.4,
    "end_turn": 0.5,
    "secret_passage": 0.5,
    "diamond": 0.5,
}
