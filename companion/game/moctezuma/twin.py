"""States that differ only in hidden data, for the secrecy test every registered game passes:
whatever a seat's view or the public view shows must not change when only what that viewer may
not know changes."""

from __future__ import annotations

import copy
import random

from companion.game.moctezuma.state import MoctezumaState


def hidden_twin(state: MoctezumaState, seat: int | None, rng: random.Random) -> MoctezumaState:
    """A copy of `state` in which what only `seat` (None: nobody) may know is dealt again:
    the order of the cards left in every temple's deck, the faces of the face-down chits no
    other seat has peeked at (with the 16th chit, out of play), and the points of `seat`'s own
    kept cards, swapped with treasures still in their temples' decks."""
    twin = copy.copy(state)
    twin.hidden = copy.deepcopy(state.hidden)
    twin.decks = {temple: list(deck) for temple, deck in state.decks.items()}
    twin.seats = list(state.seats)
    for deck in twin.decks.values():
        rng.shuffle(deck)
    _deal_chits_again(twin, seat, rng)
    if seat is not None:
        _swap_kept(twin, seat, rng)
    return twin


def _deal_chits_again(twin: MoctezumaState, seat: int | None, rng: random.Random) -> None:
    """MOCT-RES-1: a face-down chit is known to the seats that peeked at it; those only
    `seat` (or no one) has seen are dealt again with the unused chit, and `seat`'s own
    record of them follows."""
    seen_by_others = {
        space
        for i, other in enumerate(twin.seats)
        if i != seat
        for space in (*other.record.chits, *(other.research or {}))
    }
    spaces = [s for s in range(twin.turned, len(twin.spaces)) if s not in seen_by_others]
    chits = twin.hidden["chits"]
    faces = [chits[s] for s in spaces] + [twin.hidden["unused"]]
    rng.shuffle(faces)
    for space, face in zip(spaces, faces, strict=False):
        chits[space] = face
    twin.hidden["unused"] = faces[-1]
    if seat is None:
        return
    own = copy.deepcopy(twin.seats[seat])
    own.record.chits = {s: chits[s] for s in own.record.chits}
    if own.research is not None:
        own.research = {s: chits[s] for s in own.research}
    twin.seats[seat] = own


def _swap_kept(twin: MoctezumaState, seat: int, rng: random.Random) -> None:
    """MOCT-EXPL-1: a kept card's points are its keeper's to know; each is swapped with a
    treasure card still in the deck it came from, when there is one."""
    own = copy.deepcopy(twin.seats[seat])
    for index, (temple, points) in enumerate(own.kept):
        deck = twin.decks[temple]
        treasures = [i for i, card in enumerate(deck) if isinstance(card, int)]
        if treasures:
            pick = rng.choice(treasures)
            own.kept[index], deck[pick] = (temple, deck[pick]), points
    twin.seats[seat] = own
