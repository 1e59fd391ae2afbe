"""Facts that hold in every reachable state; `check` raises AssertionError naming the broken one.

Used after every command by the random-game tests and `companion simulate --game inka`.
"""

from __future__ import annotations

from dataclasses import dataclass
from weakref import WeakKeyDictionary

from companion.game.inka.state import (
    ACTION_POINTS,
    BLOCKER_PLACES,
    COLOURS,
    PHASES,
    SPENDS,
    STAGES,
    STATUES,
    STEPPING_TILES,
    InkaState,
)


@dataclass(frozen=True)
class Snapshot:
    """What may only move one way between two states."""

    stage: int
    statues: tuple[int, ...]
    tiles_left: int
    turn_number: int


def snapshot(state: InkaState) -> Snapshot:
    return Snapshot(
        STAGES.index(state.stage),
        tuple(p.statues for p in state.seats),
        state.tiles_left,
        state.turn_number,
    )


def _fail(name: str, detail: str) -> None:
    raise AssertionError(f"invariant {name!r} broken: {detail}")


_LAST: WeakKeyDictionary[InkaState, Snapshot] = WeakKeyDictionary()


def check(state: InkaState, before: Snapshot | None = None) -> None:
    """Check every invariant; one-way facts against `before` or the previous check's state."""
    if before is None:
        before = _LAST.get(state)
    _check(state, before)
    _LAST[state] = snapshot(state)


def _check(state: InkaState, before: Snapshot | None) -> None:
    if state.stage not in STAGES:
        _fail("known stage", state.stage)
    colours = [p.colour for p in state.seats if p.colour is not None]
    if len(colours) != len(set(colours)) or not set(colours) <= set(COLOURS):
        _fail("one colour each, all different", str(colours))
    if state.stage != "setup" and (len(colours) != len(state.seats) or state.first is None):
        _fail("colours and the first player before the counters", state.stage)
    if not 0 <= state.tiles_left <= STEPPING_TILES:
        _fail("0-13 stepping tiles to place", str(state.tiles_left))
    if state.stage in ("play", "over") and state.tiles_left:
        _fail("every stepping tile placed before play", str(state.tiles_left))
    if state.stage in ("tiles", "play", "over") and not all(p.started for p in state.seats):
        _fail("every counter on a starting space before the tiles", state.stage)
    for p in state.seats:
        if not 0 <= p.statues <= STATUES:
            _fail("0-3 statues each", f"{p.name}: {p.statues}")
        if p.blocker not in BLOCKER_PLACES:
            _fail("a blocking counter is off, on a space or on a tile", f"{p.name}: {p.blocker}")
    if state.stage == "play":
        if state.phase not in PHASES:
            _fail("a turn is in phase 1-4", str(state.phase))
        if not 0 <= state.points <= ACTION_POINTS:
            _fail("0-3 action points", str(state.points))
        spent = sum(state.spent[k] for k in SPENDS)
        if state.phase != 4 and spent + state.points != ACTION_POINTS:
            _fail("points left and spent make 3", f"{state.points} left, {spent} spent")
        if state.phase == 4 and state.points:
            _fail("no points after the blocking counter", str(state.points))
        mover = state.seats[state.turn if state.turn is not None else 0]
        if state.phase in (2, 3) and mover.blocker != "off":
            _fail("the blocking counter is lifted in phase 1", mover.name)
    if (state.stage == "over") != (state.winner is not None):
        _fail("the game is over when someone has won", f"{state.stage}, {state.winner}")
    if state.winner is not None and state.seats[state.winner].statues != STATUES:
        _fail("the winner holds 3 statues", state.name(state.winner))
    if before is not None:
        now = snapshot(state)
        if now.stage < before.stage or now.turn_number < before.turn_number:
            _fail("time runs forward", f"{before} -> {now}")
        if now.tiles_left > before.tiles_left:
            _fail("placed tiles stay placed", f"{before.tiles_left} -> {now.tiles_left}")
        if any(a < b for a, b in zip(now.statues, before.statues, strict=True)):
            _fail("collected statues stay collected", f"{before.statues} -> {now.statues}")
