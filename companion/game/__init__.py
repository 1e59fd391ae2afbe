"""The games the companion hosts: one bundle per game, one registry.

A game is a package `companion/game/<name>/` whose engine implements
`companion.game.protocol.Game`: the rules, what it declares (title, seats, options, dice) and
`describe`, plus the optional parts the generic panel, pages and CLI ask it for (its OLED
screens, `simulate` figures, `verify`; see the protocol). Registering it here is all it takes
for `replay`, `simulate`, `verify` and the table to offer it.
"""

from __future__ import annotations

from importlib import import_module

from companion.game.protocol import Game

# Name -> "module:class" of its engine; imported on first use so starting the companion stays
# cheap. The first is the default game.
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
