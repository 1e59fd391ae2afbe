"""The end: which temples are Cursed, Safe or Clue, and each player's points (MOCT-END-2..4)."""

from __future__ import annotations

from typing import Any

from companion.game.moctezuma.hidden import CLUE, MOCTEZUMAS
from companion.game.moctezuma.state import MoctezumaState

CITY_OF_GOLD = 12  # MOCT-END-3


def name_card(state: MoctezumaState, temple: int) -> str:
    deck = state.hidden["decks"][str(temple)]
    return deck[list(map(type, deck)).index(str)]  # the types listed in C, not a generator


def curses(state: MoctezumaState, turned: int) -> dict[str, bool]:
    """King -> Cursed, by his chits face up among the first `turned` (MOCT-END-2)."""
    cursed: dict[str, int] = {}
    safe: dict[str, int] = {}
    chits = state.hidden["chits"]
    for space in range(turned):
        king = state.spaces[space][1]
        tally = cursed if chits[space] == "Cursed" else safe
        tally[king] = tally.get(king, 0) + 1
    rule = state.options["curse_rule"]
    out = {}
    for _, king in state.spaces:
        c, s = cursed.get(king, 0), safe.get(king, 0)
        if rule == "any":
            out[king] = c > 0
        elif rule == "majority_tie_safe":
            out[king] = c > s
        else:
            out[king] = c >= s
    return out


def score(state: MoctezumaState, turned: int) -> dict[str, Any]:
    """The final result with the first `turned` chits face up: each temple's standing, each
    player's points (MOCT-END-3) and the winners (MOCT-END-4)."""
    cursed = curses(state, turned)
    temples: dict[str, dict[str, Any]] = {}
    clues = set()
    for temple in range(1, 11):
        name = name_card(state, temple)
        if name == CLUE:
            standing, factor = "clue", 0
            clues.add(temple)
        else:
            standing = "cursed" if cursed[name] else "safe"
            factor = (-1 if cursed[name] else 1) * (2 if name in MOCTEZUMAS else 1)
        temples[str(temple)] = {"name": name, "standing": standing, "factor": factor}
    factors = {int(t): temple["factor"] for t, temple in temples.items()}  # by kept temple
    scores, cards, gold = [], [], []
    for seat in state.seats:
        points = sum(p * factors[t] for t, p in seat.kept)
        found = clues <= {t for t, _ in seat.kept}
        scores.append(points + (CITY_OF_GOLD if found else 0))
        cards.append(len(seat.kept))
        gold.append(found)
    best = max(scores)
    tied = [i for i, s in enumerate(scores) if s == best]
    most = max(cards[i] for i in tied)
    winners = [i for i in tied if cards[i] == most]
    return {
        "temples": temples,
        "scores": scores,
        "cards": cards,
        "city_of_gold": gold,
        "winners": winners,
    }
