"""Facts that hold in every reachable state; `check` raises AssertionError naming the broken one.

Used after every command by the property tests and `companion simulate --game moctezuma`, so
it is kept cheap: the counts are taken by built-ins, and `check` returns the snapshot of the
state it checked, to be handed back with the next state. A command touches at most one
temple's deck, so after the first check only the decks whose size changed since the previous
one are counted card by card; the total is counted always.
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from companion.game.moctezuma.hidden import TREASURES
from companion.game.moctezuma.state import POINTS, MoctezumaState

_TREASURES = sorted(TREASURES)
_CARDS = 10 * (len(TREASURES) + 1)
_KEPT = attrgetter("kept")
_AT = attrgetter("at")
_PLACES = frozenset(range(11))  # the Library and the 10 temples


class Snapshot(NamedTuple):
    """What may only move one way between two states, the decks' sizes, and the chits as
    dealt (space -> face), made once a game."""

    round: int
    turned: int
    kept: int
    decks: tuple[int, ...]
    faces: dict[int, str]


def snapshot(state: MoctezumaState) -> Snapshot:
    return Snapshot(
        state.round,
        state.turned,
        sum(map(len, map(_KEPT, state.seats))),
        tuple(map(len, state.decks.values())),
        dict(enumerate(state.hidden["chits"])),
    )


def _fail(name: str, detail: str) -> None:
    raise AssertionError(f"invariant {name!r} broken: {detail}")


def check(state: MoctezumaState, before: Snapshot | None = None) -> Snapshot:
    """Checks `state` (against `before`, the previous state's snapshot, for what only grows)
    and returns its snapshot."""
    limit = POINTS * 2 if state.options["carry_points"] else POINTS
    if not 0 <= state.points <= limit:
        _fail("action points 0-5", f"{state.points} points")
    if not 0 <= state.turned <= len(state.spaces):
        _fail("chits turned 0-15", f"{state.turned}")
    if not state.over and state.round != state.turned + 1:
        _fail("one chit turned a round", f"round {state.round}, {state.turned} chits turned")
    if state.over and state.result is None:
        _fail("a finished game is scored", "no result")
    seats = state.seats
    if not {*map(_AT, seats)} <= _PLACES:
        _fail("researchers on the board", f"at {[seat.at for seat in seats]}")
    explore = state.explore
    if explore is not None and explore["seat"] != state.turn:
        _fail("only the acting player explores", f"{explore['seat']} vs {state.turn}")
    faces = dict(enumerate(state.hidden["chits"])) if before is None else before.faces
    record = seats[state.turn].record.chits
    if not record.items() <= faces.items():
        _fail("record sheets record what is there", f"{record}")
    now = Snapshot(
        state.round,
        state.turned,
        sum(map(len, map(_KEPT, seats))),
        tuple(map(len, state.decks.values())),
        faces,
    )
    drawn = len(explore["cards"]) if explore is not None else 0
    if now.kept + drawn + sum(now.decks) != _CARDS:
        _fail("120 temple cards", f"{now.kept} kept, {drawn} drawn, the rest in the decks")
    if before is None:
        _temples(state, state.decks)
        return now
    if now.decks != before.decks:
        changed = zip(state.decks, before.decks, now.decks, strict=True)
        _temples(state, [t for t, a, b in changed if a != b])
    if now.round < before.round or now.turned < before.turned or now.kept < before.kept:
        _fail("round, chits turned and cards kept only grow", f"{before} -> {now}")
    return now


def _temples(state: MoctezumaState, temples) -> None:
    """Each of `temples` has its 12 cards somewhere: its deck, a hand, or drawn and awaiting
    the choice of one to keep; and no name card is ever kept (MOCT-EXPL-2)."""
    seats, explore = state.seats, state.explore
    for temple in temples:
        cards = [p for seat in seats for t, p in seat.kept if t == temple]
        if str in map(type, cards):
            _fail("one name card a temple, never kept", f"temple {temple}: a name card kept")
        cards += state.decks[temple]
        if explore is not None and explore["temple"] == temple:
            cards += explore["cards"]
        kinds = list(map(type, cards))
        if kinds.count(str) != 1:
            _fail("one name card a temple, never kept", f"temple {temple}: {cards}")
        del cards[kinds.index(str)]
        if sorted(cards) != _TREASURES:
            _fail("11 treasure cards a temple", f"temple {temple}: {sorted(cards)}")
