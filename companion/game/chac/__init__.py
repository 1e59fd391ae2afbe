"""Temple of Chac: board data, hidden state, rules, views and prompts."""

from companion.game.chac.game import ChacGame
from companion.game.fairness import verify_reveal

__all__ = ["ChacGame", "verify_reveal"]
