"""Checks of a command's arguments that every game makes the same way."""

from __future__ import annotations

from typing import Any

from companion.game.protocol import Command, RuleError


def is_int(value: Any) -> bool:
    """A whole number from JSON (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def seat_of(state: Any, cmd: Command, default: int | None) -> int:
    """The seat a command speaks for: its own, or for the table/host the named or current one.
    `state.seats` lists the seats at the table."""
    seat = cmd.seat
    if seat is None:
        seat = cmd.args.get("player", default)
    if seat is None:
        raise RuleError('Say which player this is for ("player": seat number).')
    if not is_int(seat) or not 0 <= seat < len(state.seats):
        raise RuleError(f"There is no seat {seat!r} at this table.")
    return seat
