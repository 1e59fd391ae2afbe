"""The log in plain words. The state's log holds the events (and setup's sentences) as they
came; a line is worded only when a view shows it, which spares random games the words."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.game.moctezuma.rules import place_name
from companion.game.moctezuma.state import MoctezumaState


def log_lines(state: MoctezumaState, entries: Iterable[Any]) -> list[str]:
    return [entry if isinstance(entry, str) else _line(state, entry) for entry in entries]


def _line(state: MoctezumaState, e: dict[str, Any]) -> str:
    kind = e["type"]
    name = state.seats[e["seat"]].name if "seat" in e else ""
    match kind:
        case "moved":
            return f"{name} moves to {place_name(e['to'])}."
        case "researched":
            return f"{name} researches {len(e['seen'])} chits."
        case "explored":
            return f"{name} explores temple {e['temple']} and draws {len(e['cards'])} cards."
        case "kept":
            return f"{name} keeps a card of temple {e['temple']}."
        case "returned":
            return f"{name} finds no treasure to keep."
        case "chit_turned":
            # The round a chit ends is the one in which `space` chits were face up before it.
            column, king = state.spaces[e["space"]]
            return (
                f"Round {e['space'] + 1} is over: {king}'s chit in column {column} is {e['face']}."
            )
        case "turn_started":
            return f"{name}'s turn: {e['points']} action points."
        case "game_over":
            winners = e["result"]["winners"]
            names = " and ".join(state.seats[i].name for i in winners)
            ended = (
                "The host ends the game" if e["by"] == "host" else "Moctezuma's last chit is turned"
            )
            return f"{ended}. {names} win{'s' if len(winners) == 1 else ''}."
        case "placed":
            return f"The host puts {name}'s researcher on {place_name(e['at'])}."
    raise ValueError(f"no log line for {kind!r}")
