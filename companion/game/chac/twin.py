"""States that differ only in hidden data, for the secrecy test every registered game passes:
whatever a seat's view or the public view shows must not change when only what that viewer may
not know changes."""

from __future__ import annotations

import copy
import random

from companion.game.chac.state import ChacState


def hidden_twin(state: ChacState, seat: int | None, rng: random.Random) -> ChacState:
    """A copy of `state` in which what only `seat` (None: nobody) may know is dealt again:
    the values of the treasure cards still in each deck, the wall cards still to come, and
    the values of `seat`'s own cards unless co-op shows them to all (CHAC-COOP-1)."""
    twin = copy.copy(state)
    twin.values = dict(state.values)
    twin.hidden = copy.deepcopy(state.hidden)
    for deck in state.decks.values():
        _deal_again(twin, list(deck), rng)
    walls = twin.hidden["walls"]
    rest = walls[state.wall_pos :]
    rng.shuffle(rest)
    walls[state.wall_pos :] = rest
    adv = state.seats[seat].adv if seat is not None else None
    if adv is not None and not state.options["show_cards"]:
        _deal_again(twin, list(adv.cards), rng)
    return twin


def _deal_again(twin: ChacState, cards: list[str], rng: random.Random) -> None:
    values = [twin.values[c] for c in cards]
    rng.shuffle(values)
    twin.values.update(zip(cards, values, strict=True))
