"""Moctezuma's Revenge!: hidden temple decks and curse chits, rules, views and prompts."""

from companion.game.fairness import verify_reveal
from companion.game.moctezuma.game import MoctezumaGame

__all__ = ["MoctezumaGame", "verify_reveal"]
