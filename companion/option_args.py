"""Game options on the command line: `--option NAME=VALUE`, checked against the options the
game declares (`Game.options`), so the command line knows no game's options by name."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.game.protocol import Game, Option

TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


class OptionError(ValueError):
    """A NAME=VALUE the game does not declare or does not accept; the message says which."""


def spelled(value: Any) -> str:
    """A declared value as it is typed: true/false, default for the game's own default."""
    if value is None:
        return "default"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_value(option: Option, text: str) -> Any:
    """`text` as a value of `option`, or OptionError naming what it accepts."""
    typed = text.strip().lower()
    if option.kind == "bool":
        if typed in TRUE or typed in FALSE:
            return typed in TRUE
        raise OptionError(f"option {option.name} is true or false, not {text!r}")
    if option.kind == "int":
        try:
            number = int(typed)
        except ValueError:
            number = None
        low = option.low if option.low is not None else -(2**63)
        high = option.high if option.high is not None else 2**63
        if number is None or not low <= number <= high:
            span = f"from {option.low} to {option.high}" if option.high is not None else ""
            raise OptionError(f"option {option.name} is a whole number {span}, not {text!r}")
        return number
    for choice in option.choices:
        if spelled(choice).lower() == typed:
            return choice
    allowed = ", ".join(spelled(c) for c in option.choices)
    raise OptionError(f"option {option.name} is one of {allowed}, not {text!r}")


def parse_options(game: Game, pairs: Iterable[str]) -> dict[str, Any]:
    """NAME=VALUE pairs as the game's options (only those given; the game fills in the rest)."""
    declared = {option.name: option for option in game.options}
    options: dict[str, Any] = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        if not equals or not name:
            raise OptionError(f"write an option as NAME=VALUE, not {pair!r}")
        option = declared.get(name.strip())
        if option is None:
            known = ", ".join(declared) or "none"
            raise OptionError(f"{game.title} has no option {name!r} (its options: {known})")
        options[option.name] = option_value(option, text)
    return options
