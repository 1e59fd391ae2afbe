"""Folding events into the state: every consequence of a fact the rules checked happens here.

`rules.validate` has already checked the command, so these functions trust their event. The
same events always give the same state (replay, undo: INKA-UNDO-1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.game.inka.state import ACTION_POINTS, SPENDS, STATUES, InkaState

Event = dict[str, Any]


def fold(state: InkaState, event: Event) -> InkaState:
    FOLDERS[event["type"]](state, event)
    return state


def points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


# -- setup (INKA-SET-1, INKA-SET-2) --------------------------------------------------------------


def _colour(state: InkaState, e: Event) -> None:
    state.seats[e["seat"]].colour = e["colour"]
    state.say(f"{state.name(e['seat'])} plays {e['colour']}.")
    _maybe_start(state)


def _first(state: InkaState, e: Event) -> None:
    state.first = e["seat"]
    order = ", ".join(state.name(s) for s in state.clockwise())
    state.say(f"{state.name(e['seat'])} is the youngest and begins; the order is {order}.")
    _maybe_start(state)


def _maybe_start(state: InkaState) -> None:
    if state.first is not None and all(p.colour for p in state.seats):
        state.stage = "starts"
        state.turn = state.first


def _counter_placed(state: InkaState, e: Event) -> None:
    seat = e["seat"]
    state.seats[seat].started = True
    state.say(f"{state.name(seat)} puts the playing counter on a starting space.")
    following = state.next_seat(seat)
    if following == state.first:
        state.stage = "tiles"
    state.turn = following


def _tile_placed(state: InkaState, e: Event) -> None:
    state.tiles_left -= 1
    state.say(f"{state.name(e['seat'])} places a stepping tile ({state.tiles_left} left).")
    if state.tiles_left == 0:
        state.stage = "play"
        assert state.first is not None
        _start_turn(state, state.first)
    else:
        state.turn = state.next_seat(e["seat"])


# -- turns (INKA-TURN-1) -------------------------------------------------------------------------


def _start_turn(state: InkaState, seat: int) -> None:
    state.turn = seat
    state.turn_number += 1
    state.points = ACTION_POINTS
    state.spent = dict.fromkeys(SPENDS, 0)
    # Phase 1 is there only when the blocking counter is on the board.
    state.phase = 1 if state.seats[seat].blocker != "off" else 2
    state.say(f"Turn {state.turn_number}: {state.name(seat)}.")


def _lifted(state: InkaState, e: Event) -> None:
    state.seats[e["seat"]].blocker = "off"
    state.phase = 2
    state.say(f"{state.name(e['seat'])} lifts the blocking counter off the board.")


_SPENT_WORDS = {
    "tile": "moves a stepping tile",
    "passage": "takes a secret passage",
    "diamond": "moves a target tile from a diamond",
}


def _spent(state: InkaState, e: Event) -> None:
    seat, kind, cost = e["seat"], e["kind"], e["points"]
    state.points -= cost
    state.spent[kind] += cost
    # Tiles are phase 2; everything else the counter does is phase 3.
    state.phase = 2 if kind == "tile" else 3
    player = state.seats[seat]
    if kind == "statue":
        player.statues += 1
        what = f"collects a {player.colour} statue ({player.statues} of {STATUES})"
    elif kind == "snake":
        what = f"passes {cost} snake{'' if cost == 1 else 's'}"
    else:
        what = _SPENT_WORDS[kind]
    state.say(f"{player.name} {what}: {points(state.points)} left.")


def _blocked(state: InkaState, e: Event) -> None:
    seat = e["seat"]
    state.seats[seat].blocker = e["on"]
    state.phase = 4
    where = "a board space" if e["on"] == "space" else "a stepping tile"
    lost = f"; {points(state.points)} unused" if state.points else ""
    state.points = 0  # INKA-TURN-1: unused points are lost
    state.say(f"{state.name(seat)} puts the blocking counter on {where}{lost}.")


def _ended(state: InkaState, e: Event) -> None:
    seat = e["seat"]
    lost = f" ({points(state.points)} unused, lost)" if state.points else ""
    state.say(f"{state.name(seat)} ends the turn{lost}.")
    _start_turn(state, state.next_seat(seat))


def _exited(state: InkaState, e: Event) -> None:
    seat = e["seat"]
    state.winner = seat
    state.stage = "over"
    state.turn = None
    state.phase = 0
    state.points = 0
    state.say(
        f"{state.name(seat)} leaves the temple by an exit with all {STATUES} statues and wins!"
    )


FOLDERS: dict[str, Callable[[InkaState, Event], None]] = {
    "colour_chosen": _colour,
    "first_player": _first,
    "counter_placed": _counter_placed,
    "tile_placed": _tile_placed,
    "blocker_lifted": _lifted,
    "spent": _spent,
    "blocker_placed": _blocked,
    "turn_ended": _ended,
    "exited": _exited,
}
