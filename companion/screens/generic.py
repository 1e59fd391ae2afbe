"""The OLED for a game that brings no screens of its own: whose turn it is and what the table
waits for, from its prompts alone, so a newly registered game is playable on the panel.

A game's own screens module (its bundle's `screens()`) offers any of the same names; the panel
takes those it lacks from here, and asks for nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.game.protocol import Command, Prompt
from companion.screens.canvas import BIG, SMALL, WIDTH, Canvas, Screen

View = Mapping[str, Any]

# Commands answered by typing one number on the panel: command -> (argument, lowest, highest).
NUMBER_COMMANDS: dict[str, tuple[str, int, int]] = {}
# What a value typed to complete a menu's command is called on the OLED ("Chit 1 of 2").
TYPED_NAME = "Value"
# The private peek's menu item and the commands after which it is offered: none here.
PEEK_LABEL = "Peek"
PEEK_AFTER: frozenset[str] = frozenset()
# Rules whose refusal would tell the table a secret: the panel shows it in the private peek.
PRIVATE_RULES: frozenset[str] = frozenset()
HINTS = {"roll": "MENU: type", "confirm": "OK: go", "choose": "MENU: choose", "act": "MENU: act"}


def seat_name(view: View, seat: int | None) -> str:
    """The player's name when the view lists seats with names, else the seat's number."""
    if seat is None:
        return "Table"
    seats = view.get("seats") or []
    entry = seats[seat] if 0 <= seat < len(seats) else None
    return entry["name"] if isinstance(entry, Mapping) and "name" in entry else f"Seat {seat + 1}"


def status(view: View, prompts: Sequence[Prompt]) -> Screen:
    """Whose turn it is and what they are asked to do."""
    canvas = Canvas("status")
    prompt = prompts[0] if prompts else None
    canvas.bar(0, seat_name(view, prompt.seat) if prompt else "Waiting")
    text = prompt.text if prompt else "Waiting for the table"
    bottom = canvas.paragraph(14, text, BIG if len(text) <= 24 else SMALL, bottom=52)
    hint = HINTS.get(prompt.kind, "") if prompt else ""
    if hint and bottom <= 52:
        canvas.text((2, 58), hint, SMALL, anchor="lm", width=WIDTH - 4)
    return canvas.done()


def roll_wait(view: View, prompt: Prompt) -> Screen:
    """Waiting for a throw: how many dice, and the prompt's words."""
    canvas = Canvas("roll")
    canvas.bar(0, seat_name(view, prompt.seat))
    n = prompt.dice
    canvas.text((WIDTH / 2, 24), f"Roll {n} {'die' if n == 1 else 'dice'}", BIG, anchor="mm")
    canvas.paragraph(34, prompt.text, SMALL, bottom=52)
    canvas.text((2, 58), "MENU: type", SMALL, anchor="lm", width=WIDTH - 4)
    return canvas.done()


def game_over(view: View) -> Screen:
    canvas = Canvas("over")
    canvas.bar(0, "Game over")
    canvas.paragraph(18, "The scores are on the table page.", BIG)
    return canvas.done()


def secret(seat_view: View) -> dict | None:
    """Nothing to peek at privately: such a game's secrets are on the seat pages."""
    return None


def actions_left(view: View, seat: int | None) -> int | None:
    return None


def notices(old: View, new: View) -> list[Screen]:
    return []


def menu_commands(view: View, seat: int | None, legal: list[Command]) -> list[Command]:
    """What the menu offers the seat: its legal commands."""
    return legal


def refusal(reason: str) -> Screen:
    """A refused command: the whole sentence saying why, in a smaller type when it is long,
    since a sentence cut short does not say why."""
    canvas = Canvas("notice")
    canvas.bar(0, "Not possible")
    canvas.fitted(14, reason)
    return canvas.done()


def private_refusal(reason: str, seconds_left: float) -> Screen:
    """A refusal only its seat reads (PRIVATE_RULES), in the private peek."""
    canvas = Canvas("peek")
    canvas.bar(0, "Only you: not possible", str(round(max(0.0, seconds_left))))
    canvas.fitted(14, reason)
    return canvas.done()


def typed(view: View, command: Command) -> tuple[list[int], int, int] | None:
    """For a menu's command that is completed by typing values on the panel: the values to
    start from, the lowest and the highest; None: the command is complete."""
    return None


def complete(command: Command, values: list[int]) -> Command:
    """The menu's command completed with the values typed for it (see `typed`)."""
    return command
