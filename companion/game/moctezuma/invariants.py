"""Facts that hold in every reachable state; `check` raises AssertionError naming the broken one.

Used after every command by the property tests and `companion simulate --game moctezuma`.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.game.moctezuma.hidden import TREASURES
from companion.game.moctezuma.state import POINTS, MoctezumaState


@dataclass(frozen=True)
class Snapshot:
    """What may only move one way between two states."""

    round: int
    turned: int
    kept: int


def snapshot(state: MoctezumaState) -> Snapshot:
    return Snapshot(state.round, state.turned, sum(len(s.kept) for s in state.seats))


def _fail(name: str, detail: str) -> None:
    raise AssertionError(f"invariant {name!r} broken: {detail}")


def check(state: MoctezumaState, before: Snapshot | None = None) -> None:
    _cards(state)
    limit = POINTS * 2 if state.options["carry_points"] else POINTS
    if not 0 <= state.points <= limit:
        _fail("action points 0-5", f"{state.points} points")
    if not 0 <= state.turned <= len(state.spaces):
        _fail("chits turned 0-15", f"{state.turned}")
    if not state.over and state.round != state.turned + 1:
        _fail("one chit turned a round", f"round {state.round}, {state.turned} chits turned")
    if state.over and state.result is None:
        _fail("a finished game is scored", "no result")
    if not all(0 <= s.at <= 10 for s in state.seats):
        _fail("researchers on the board", str([s.at for s in state.seats]))
    if state.explore is not None and state.explore["seat"] != state.turn:
        _fail("only the acting player explores", f"{state.explore['seat']} vs {state.turn}")
    for seat in state.seats:
        if seat.record.chits and any(
            state.chit(space) != face for space, face in seat.record.chits.items()
        ):
            _fail("record sheets record what is there", seat.name)
    if before is not None:
        now = snapshot(state)
        if now.round < before.round or now.turned < before.turned or now.kept < before.kept:
            _fail("round, chits turned and cards kept only grow", f"{before} -> {now}")


def _cards(state: MoctezumaState) -> None:
    """Every temple's 12 cards are somewhere: its deck, a hand, or in the drawing player's
    hands while they choose which to keep; and a name card is never kept (MOCT-EXPL-2)."""
    held: dict[int, list] = {t: [] for t in state.decks}
    for seat in state.seats:
        for temple, points in seat.kept:
            if not isinstance(points, int):
                _fail("no name card kept", f"{seat.name} holds {points!r}")
            held[temple].append(points)
    if state.explore is not None:
        held[state.explore["temple"]].extend(state.explore["cards"])
    for temple, deck in state.decks.items():
        cards = held[temple] + deck
        names = [c for c in cards if isinstance(c, str)]
        if len(names) != 1:
            _fail("one name card a temple", f"temple {temple}: {names}")
        cards.remove(names[0])
        if sorted(cards, reverse=True) != _TREASURES:
            _fail("11 treasure cards a temple", f"temple {temple}: {sorted(cards)}")


_TREASURES = sorted(TREASURES, reverse=True)
