"""Rules engines, one package per game, all behind `companion.game.protocol.Game`."""

from __future__ import annotations

from importlib import import_module

from companion.game.protocol import Game

# Name -> "module:class"; imported on first use so starting the companion stays cheap.
GAMES = {
    "chac": "companion.game.chac:ChacGame",
    "inka": "companion.game.inka:InkaGame",
    "moctezuma": "companion.game.moctezuma:MoctezumaGame",
}


def load_game(name: str) -> Game:
    try:
        target = GAMES[name]
    except KeyError:
        raise ValueError(
            f"Unknown game {name!r}; known games: {', '.join(sorted(GAMES))}"
        ) from None
    module, cls = target.split(":")
    return getattr(import_module(module), cls)()
