"""The contract between a game engine and the table.

A game is plain data and functions (boardgame.io, OpenSpiel): the table asks it to validate a
command and turn it into events, folds the events into the state, and shows people only views.
Nothing but `public_view` and `seat_view` output may leave the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

Event = dict[str, Any]
"""A JSON-ready fact, always with a "type" key. The state is a fold of these."""


class RuleError(Exception):
    """A command the game does not accept. The message is a sentence a player understands.

    `rule` names the rule it breaks (e.g. "CHAC-MOVE-1"), or is empty for a command that is
    malformed rather than against the rules.
    """

    def __init__(self, message: str, rule: str = ""):
        super().__init__(message)
        self.rule = rule

    @property
    def reason(self) -> str:
        return f"{self} ({self.rule})" if self.rule else str(self)


class AuditMismatch(Exception):
    """`companion verify`: the game does not match its commitment or its revealed hidden
    state; the message says where."""


class AuditUnfinished(Exception):
    """`companion verify`: the game is not over, so nothing has been revealed to check."""


@dataclass(frozen=True)
class Command:
    """One thing that happens at the table: who (a seat, or None for the table/host), what, how.

    Buttons, phones, the camera and the CLI all produce these. `args` holds JSON values only.
    """

    type: str
    seat: int | None = None
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, **self.args}

    @classmethod
    def from_json(cls, data: Any) -> Command:
        if not isinstance(data, Mapping):
            raise RuleError('A command must be a JSON object such as {"type": "pass"}.')
        kind = data.get("type")
        if not isinstance(kind, str) or not kind:
            raise RuleError('A command needs a "type" naming what to do.')
        seat = data.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise RuleError('A command\'s "seat" must be a seat number or null.')
        args = {k: v for k, v in data.items() if k not in ("type", "seat")}
        return cls(kind, seat, args)


@dataclass(frozen=True)
class Prompt:
    """What the table must do next, in words a player understands.

    `kind` is one of: "act" (a seat takes actions), "roll" (throw `dice` dice for `purpose`),
    "choose" (a seat picks among options), "confirm" (the table confirms something),
    "enter" (someone types a value, e.g. a slab's number), "over" (the game has ended).
    """

    text: str
    kind: str
    seat: int | None = None
    dice: int = 0
    purpose: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "kind": self.kind,
            "seat": self.seat,
            "dice": self.dice,
            "purpose": self.purpose,
        }


@dataclass(frozen=True)
class Option:
    """One setup choice a game offers; the host's setup form is generated from these.

    `kind` is "bool", "int" (between `low` and `high`), or "choice" (one of `choices`).
    `help` is the sentence shown beside it.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
            "choices": list(self.choices),
            "low": self.low,
            "high": self.high,
        }


class Game(Protocol):
    """One board game's rules. Implementations keep no state of their own between calls.

    Besides the rules, a game declares what the generic parts (registry, setup form, panel,
    pages, CLI) need to host it without knowing it by name.

    A game bundle may also bring, as optional methods the generic parts look for:
    `menu_label(command, seats) -> str | None` (a shorter label for the OLED menu; None keeps
    the command off the panel), `seat_commands(seat_view, seat, legal)` (what a seat page
    offers as buttons when that is more than the legal commands: steps the rules refuse
    with a reason worth reading), `screens()` (the module drawing its OLED screens: see
    `companion.screens.generic`), `simulation()` (what `companion simulate` checks after every
    command and counts per game; its `run_for(options)` may take over for some options, e.g. a
    co-op team's run), `private_reveal(name, seat_view, seat, data_dir)` (something only that
    seat sees once, such as a picture: see `companion.game.reveals`), `private_pictures(data_dir)`
    (the pictures the panel's private peek shows, by number) and `stock_media(data_dir)`
    (stand-ins for those pictures on a simulated table), `calibration_steps()` (the
    calibration steps it adds after the tray and the dice, such as photographing its own
    pieces: see `companion.game.calibrating`), `verify(options, seats, seed,
    commands, noted)` (checks a finished game against the commitment noted at setup, raising
    AuditMismatch or AuditUnfinished), `reveal_matches(commitment, reveal) -> bool`,
    `board_layout(public_view)` (where the pages draw its board; None: before any game), and
    `hidden_twin(state, seat, rng)` (the state with what only `seat` may know dealt again, for
    the secrecy test every registered game is put through).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    uses_dice: ClassVar[bool]
    options: ClassVar[tuple[Option, ...]]

    def describe(self, command: Command) -> str:
        """The command in words a player reads ("Ana moves to C12"): OLED, phones and log."""

    def setup(self, options: Mapping[str, Any], seats: list[str], seed: int) -> Any:
        """The initial state; all of the companion's own randomness derives from `seed`.

        Raises RuleError for bad options or seats.
        """

    def legal(self, state: Any, seat: int | None) -> list[Command]:
        """Commands `seat` (None: the table/host) may submit now; dice values left open."""

    def apply(self, state: Any, command: Command) -> list[Event]:
        """Validate `command` and return the events it causes. Never mutates `state`.

        Raises RuleError naming the rule when the command is not allowed now.
        """

    def fold(self, state: Any, event: Event) -> Any:
        """The state after `event` (may update `state` in place and return it)."""

    def public_view(self, state: Any) -> dict[str, Any]:
        """JSON-ready view anyone at the table may see."""

    def seat_view(self, state: Any, seat: int) -> dict[str, Any]:
        """JSON-ready view for one seat: the public view plus that seat's own secrets."""

    def prompts(self, state: Any) -> list[Prompt]:
        """What must happen next; empty only while nothing is expected."""

    def is_over(self, state: Any) -> bool:
        """True once the game has ended and been scored."""
