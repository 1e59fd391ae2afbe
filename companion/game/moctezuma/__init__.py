"""Moctezuma's Revenge!: hidden temple decks and curse chits, rules, views and prompts."""

from companion.game.moctezuma.game import MoctezumaGame
from companion.game.moctezuma.hidden import verify_reveal

__all__ = ["MoctezumaGame", "verify_reveal"]
