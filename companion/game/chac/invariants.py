"""Facts that hold in every reachable state; `check` raises AssertionError naming the broken one.

Used after every command by the property tests and the soak benchmark.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from companion.game.chac.state import FATES, PHASES, ChacState


@dataclass(frozen=True)
class Snapshot:
    """What may only move one way between two states."""

    boulder: int
    walls: tuple[int, int]
    wall_pos: int
    round: int


def snapshot(state: ChacState) -> Snapshot:
    return Snapshot(state.boulder, (state.walls[0], state.walls[1]), state.wall_pos, state.round)


def _fail(name: str, detail: str) -> None:
    raise AssertionError(f"invariant {name!r} broken: {detail}")


# The last snapshot checked for each live state, so `check(state)` alone also sees the boulder
# and the walls never move back between two calls.
_LAST: WeakKeyDictionary[ChacState, Snapshot] = WeakKeyDictionary()


def check(state: ChacState, before: Snapshot | None = None) -> None:
    """Check every invariant; one-way facts against `before` or the previous check's state."""
    if before is None:
        before = _LAST.get(state)
    _check(state, before)
    _LAST[state] = snapshot(state)


def _check(state: ChacState, before: Snapshot | None) -> None:
    _cards(state)
    if not all(0 <= w <= 3 for w in state.walls):
        _fail("walls 0-3", f"walls at {state.walls}")
    if not 0 <= state.planks <= 5:
        _fail("planks 0-5", f"{state.planks} planks")
    if not 0 <= state.boulder < len(state.board.corridor):
        _fail("boulder on the corridor", f"index {state.boulder}")
    if state.phase not in PHASES:
        _fail("known phase", state.phase)
    if state.sun_open["B"] and not state.sun_open["A"]:
        _fail("sun A opens before sun B", str(state.sun_open))
    for seat in state.seats:
        alive = 0
        for adv in seat.advs:
            if adv.actions < 0:
                _fail("no negative actions", f"{adv.name} has {adv.actions}")
            if (adv.fate is None) != (adv.status in ("alive", "waiting")) or (
                adv.fate is not None and adv.fate not in FATES
            ):
                _fail("who left play has a fate", f"{adv.name}: {adv.status}, {adv.fate!r}")
            if (adv.fate == "escaped") != (adv.status == "escaped"):
                _fail("the escaped, and only they, escaped", f"{adv.name}: {adv.fate!r}")
            if adv.status == "alive":
                alive += 1
                if adv.space not in state.board.kind:
                    _fail("the living stand on a space", f"{adv.name} on {adv.space!r}")
                if adv.space in state.fallen:
                    _fail("nobody stands on a fallen slab", f"{adv.name} on {adv.space}")
            elif adv.status == "eliminated":
                if adv.cards or adv.space is not None:
                    _fail("the dead hold nothing", f"{adv.name}: {len(adv.cards)} cards")
            elif adv.status == "escaped":
                if adv.space is not None:
                    _fail("escaped adventurers are outside", f"{adv.name} on {adv.space}")
            elif adv.status == "waiting" and (adv.cards or adv.space is not None):
                _fail("replacements start with nothing", adv.name)
        if alive > 1:
            _fail("one adventurer per player", seat.name)
    numbers = [n for n in state.slabs.values() if n is not None]
    if len(numbers) != len(set(numbers)):
        _fail("slab numbers distinct", str(numbers))
    traps = set(state.hidden["traps"].values())
    for cell in state.fallen:
        if state.slabs.get(cell) not in traps:
            _fail("only trap slabs fall", cell)
    for cell in state.emptied:
        if state.slabs.get(cell) is None or cell in state.fallen:
            _fail("only turned, solid slabs are emptied", cell)
    if state.phase == "over" and state.result is None:
        _fail("a finished game is scored", "no result")
    if before is not None:
        if state.boulder < before.boulder:
            _fail("boulder never moves back", f"{before.boulder} -> {state.boulder}")
        if any(a < b for a, b in zip(state.walls, before.walls, strict=True)):
            _fail("walls never move back", f"{before.walls} -> {state.walls}")
        if state.round < before.round or state.wall_pos < before.wall_pos:
            _fail("time runs forward", f"round {before.round} -> {state.round}")


def _cards(state: ChacState) -> None:
    everywhere: list[str] = [c for c in state.alcoves.values() if c is not None]
    for deck in state.decks.values():
        everywhere += deck
    for seat in state.seats:
        for adv in seat.advs:
            everywhere += adv.cards
    everywhere += state.discard
    if len(everywhere) == len(state.values) and set(everywhere) == state.values.keys():
        return  # the common case, checked cheaply
    places = Counter(everywhere)
    doubled = [c for c, n in places.items() if n > 1]
    if doubled:
        _fail("every card in exactly one place", f"{doubled[:3]} in two places")
    missing = set(state.values) - set(places)
    if missing:
        _fail("every card in exactly one place", f"{sorted(missing)[:3]} nowhere")
    unknown = set(places) - set(state.values)
    if unknown:
        _fail("every card in exactly one place", f"unknown cards {sorted(unknown)[:3]}")
