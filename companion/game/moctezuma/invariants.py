"""Facts that hold in every reachable state; `check` raises AssertionError naming the broken one.

Used after every command by the property tests and `companion simulate --game moctezuma`. A
command touches at most one temple's deck, so after the first check only the decks whose
size changed since the previous one are counted card by card; the total is counted always.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.game.moctezuma.hidden import TREASURES
from companion.game.moctezuma.state import POINTS, MoctezumaState

_TREASURES = sorted(TREASURES, reverse=True)
_CARDS = 10 * (len(TREASURES) + 1)


@dataclass(frozen=True)
class Snapshot:
    """What may only move one way between two states, and the decks' sizes."""

    round: int
    turned: int
    kept: int
    decks: tuple[int, ...]


def snapshot(state: MoctezumaState) -> Snapshot:
    return Snapshot(
        state.round,
        state.turned,
        sum(len(s.kept) for s in state.seats),
        tuple(map(len, state.decks.values())),
    )


def _fail(name: str, detail: str) -> None:
    raise AssertionError(f"invariant {name!r} broken: {detail}")


def check(state: MoctezumaState, before: Snapshot | None = None) -> None:
    limit = POINTS * 2 if state.options["carry_points"] else POINTS
    if not 0 <= state.points <= limit:
        _fail("action points 0-5", f"{state.points} points")
    if not 0 <= state.turned <= len(state.spaces):
        _fail("chits turned 0-15", f"{state.turned}")
    if not state.over and state.round != state.turned + 1:
        _fail("one chit turned a round", f"round {state.round}, {state.turned} chits turned")
    if state.over and state.result is None:
        _fail("a finished game is scored", "no result")
    for seat in state.seats:
        if not 0 <= seat.at <= 10:
            _fail("researchers on the board", f"{seat.name} at {seat.at}")
    if state.explore is not None and state.explore["seat"] != state.turn:
        _fail("only the acting player explores", f"{state.explore['seat']} vs {state.turn}")
    chits = state.hidden["chits"]
    for space, face in state.seats[state.turn].record.chits.items():
        if chits[space] != face:
            _fail("record sheets record what is there", f"chit {space}")
    kept = sum(len(s.kept) for s in state.seats)
    drawn = len(state.explore["cards"]) if state.explore else 0
    sizes = tuple(map(len, state.decks.values()))
    if kept + drawn + sum(sizes) != _CARDS:
        _fail("120 temple cards", f"{kept} kept, {drawn} drawn, the rest in the decks")
    if before is None:
        _temples(state, state.decks)
        return
    if sizes != before.decks:
        changed = zip(state.decks, before.decks, sizes, strict=True)
        _temples(state, [t for t, a, b in changed if a != b])
    if state.round < before.round or state.turned < before.turned or kept < before.kept:
        _fail("round, chits turned and cards kept only grow", f"{before} -> {snapshot(state)}")


def _temples(state: MoctezumaState, temples) -> None:
    """Each of `temples` has its 12 cards somewhere: its deck, a hand, or drawn and awaiting
    the choice of one to keep; and no name card is ever kept (MOCT-EXPL-2)."""
    for temple in temples:
        cards = list(state.decks[temple])
        for seat in state.seats:
            cards += [p for t, p in seat.kept if t == temple]
        if state.explore is not None and state.explore["temple"] == temple:
            cards += state.explore["cards"]
        names = [c for c in cards if isinstance(c, str)]
        if len(names) != 1:
            _fail("one name card a temple, never kept", f"temple {temple}: {names}")
        cards.remove(names[0])
        if sorted(cards, reverse=True) != _TREASURES:
            _fail("11 treasure cards a temple", f"temple {temple}: {sorted(cards)}")
