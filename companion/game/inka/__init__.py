"""Inka: the turn keeper for a race through a sliding-floor temple (docs/inka-commands.md)."""

from companion.game.inka.game import InkaGame

__all__ = ["InkaGame"]
