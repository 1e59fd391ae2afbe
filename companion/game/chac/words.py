"""Temple of Chac's commands in words, written once: the phones' buttons and the log read the
full label (`describe`), the OLED's 21-character menu the short one (`menu_label`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.game.protocol import Command

# Command type -> (OLED menu label, full label); "{key}" is filled from the command's args.
# A command with no short label is not offered in the panel's menu (it needs typing or
# choosing that the host or seat page does).
LABELS: dict[str, tuple[str | None, str]] = {
    "move": ("Move to {to}", "Move to {to}"),
    "sprint": ("Sprint to {to}", "Sprint (free) to {to}"),
    "leap": ("Leap to {to}", "Leap (diagonal) to {to}"),
    "search": ("Search", "Search: take the top treasure card"),
    "decipher": ("Decipher", "Decipher the glyph (shown 5 seconds)"),
    "take": ("Take treasure", "Take the lava treasure"),
    "sabotage": ("Sabotage", "Sabotage: test the bridge again"),
    "alcove": ("Try the alcove", "Open the alcove: roll 5 dice"),
    "lock_pick": ("Pick the lock", "Lock Picking: count the roll as a success"),
    "river_exit": ("Exit the river", "Exit the river: roll the dice"),
    "swim": ("Swim", "Swimming: ignore one rolled 1"),
    "river_give_up": ("Be swept away", "Give up: swept away"),
    "linguistics": ("Peek slab {space}", "Linguistics: peek under slab {space}"),
    "stamina": ("Use Stamina", "Stamina: lower my load level by 1 this round"),
    "ready": ("Ready", "Ready: keep my cards"),
    "replace": ("Enter on sun {sun}", "Bring in my replacement on sun space {sun}"),
    "decline_replacement": ("Stay out", "Keep my replacement out"),
    "choose_adventurer": ("{adventurer}", "Go in first with {adventurer}"),
    "walls": ("Reveal wall cards", "Reveal the next 3 wall cards"),
    "decline_exchange": (None, "Decline the exchange"),
    "first_dicekeeper": ("{keeper_name} keeps dice", "First dicekeeper: {keeper_name}"),
    "pass_dice": (None, "Dice to {keeper_name}"),
    "pass": ("End turn", "Pass: end my turn"),
}
# Leaving by the exit reads as such rather than "Move to exit".
EXIT_LABELS = {
    "move": ("Leave the temple", "Move to the exit"),
    "sprint": ("Sprint out", "Sprint (free) to the exit"),
}


def describe(command: Command, seats: list[str] | None = None) -> str:
    """The full label of `command`; another seat is named when `seats` gives the names."""
    return _label(command, 1, seats) or command.type.replace("_", " ")


def menu_label(command: Command, seats: list[str]) -> str | None:
    """The OLED menu's label of `command`, or None when the panel does not offer it."""
    return _label(command, 0, seats)


def _label(command: Command, which: int, seats: list[str] | None) -> str | None:
    args: Mapping[str, Any] = command.args
    if args.get("to") == "exit" and command.type in EXIT_LABELS:
        return EXIT_LABELS[command.type][which]
    pair = LABELS.get(command.type)
    if pair is None or pair[which] is None:
        return None
    fields = dict(args)
    keeper = args.get("keeper")
    if isinstance(keeper, int):
        fields["keeper_name"] = (
            seats[keeper] if seats and keeper < len(seats) else f"seat {keeper + 1}"
        )
    try:
        return pair[which].format(**fields)  # type: ignore[union-attr]
    except (KeyError, IndexError):
        return None
