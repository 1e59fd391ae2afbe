"""Validating commands: each accepted command becomes events; a refused one raises RuleError
naming the rule and changes nothing (`validate` never mutates the state)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from companion.game.moctezuma.scoring import score
from companion.game.moctezuma.state import LIBRARY, POINTS, MoctezumaState
from companion.game.protocol import Command, Event, RuleError

COSTS = {2: 2, 5: 3}  # MOCT-RES-1, MOCT-EXPL-1: cards or chits -> action points
HOST_ONLY = frozenset({"place", "end_game"})
NOTE_LENGTH = 500


def place_name(at: int) -> str:
    return "the Library" if at == LIBRARY else f"temple {at}"


def adjacent(state: MoctezumaState, at: int) -> tuple[int, ...]:
    """MOCT-MOVE-1 (chosen default): the Library touches every temple; with `temple_ring`,
    temple n also touches n-1 and n+1, 10 touching 1."""
    return adjacent_to(at, state.options["temple_ring"])


@cache  # 22 cases
def adjacent_to(at: int, ring: bool) -> tuple[int, ...]:
    if at == LIBRARY:
        return tuple(range(1, 11))
    return (LIBRARY, *sorted({at % 10 + 1, (at - 2) % 10 + 1})) if ring else (LIBRARY,)


# Place -> the places next to it, without and with `temple_ring`, as sets to look moves up in.
_NEXT_TO = {ring: [frozenset(adjacent_to(at, ring)) for at in range(11)] for ring in (False, True)}


def face_down(state: MoctezumaState) -> list[int]:
    return list(range(state.turned, len(state.spaces)))


def validate(state: MoctezumaState, command: Command) -> list[Event]:
    kind, seat, args = command.type, command.seat, command.args
    # The usual case, the acting player's own command in a game going on, is let through to
    # its action at once; every other case takes the checks below, in their order.
    if seat.__class__ is int and seat == state.turn and not state.over:
        action = (_ACTIONS if state.explore is None else _CHOOSING).get(kind)
        if action is not None:
            return action(state, seat, args)
    if kind in HOST_ONLY:
        if seat is not None:
            raise RuleError("Only the host may do that.")
        if state.over:
            raise RuleError("The game is over.", "MOCT-END-1")
        return _host(state, kind, args)
    if seat.__class__ is not int or not 0 <= seat < len(state.seats):
        raise RuleError("That command needs the seat of the player making it.")
    if kind == "note":
        return _note(state, seat, args)
    if state.over:
        raise RuleError("The game is over.", "MOCT-END-1")
    if kind not in _ACTIONS:
        raise RuleError(f"There is no command {kind!r} in Moctezuma's Revenge!.")
    if seat != state.turn:
        raise RuleError(f"It is {state.seats[state.turn].name}'s turn.", "MOCT-TURN-1")
    raise RuleError("First keep one of the cards you drew.", "MOCT-EXPL-1")


# The checks every action makes are written out where they are made (a simulated game makes
# them hundreds of times); these are their refusals.
def _bad_size(kind: str) -> RuleError:
    return RuleError(
        "Say how many: 2 (2 action points) or 5 (3 action points).",
        "MOCT-RES-1" if kind == "research" else "MOCT-EXPL-1",
    )


def _too_dear(state: MoctezumaState, cost: int) -> RuleError:
    return RuleError(
        f"That takes {cost} action points; {state.points} left this turn.", "MOCT-TURN-1"
    )


def _after_spending(state: MoctezumaState, seat: int, cost: int) -> list[Event]:
    """A turn with no points left ends by itself (MOCT-TURN-1)."""
    return _end_turn(state, seat, left=0) if cost == state.points else []


def _move(state: MoctezumaState, seat: int, args: Any) -> list[Event]:
    to = args.get("to")
    here = state.seats[seat].at
    if to.__class__ is not int or to not in _NEXT_TO[state.options["temple_ring"]][here]:
        if to.__class__ is not int or not 0 <= to <= 10:
            raise RuleError("Move to the Library (0) or a temple 1-10.", "MOCT-MOVE-1")
        raise RuleError(
            f"{place_name(to).capitalize()} is not next to {place_name(here)}.", "MOCT-MOVE-1"
        )
    if state.points < 1:
        raise _too_dear(state, 1)
    moved = {"type": "moved", "seat": seat, "to": to}
    return [moved, *_end_turn(state, seat, left=0)] if state.points == 1 else [moved]


def _research(state: MoctezumaState, seat: int, args: Any) -> list[Event]:
    size = args.get("size")
    if size.__class__ is not int or size not in COSTS:
        raise _bad_size("research")
    if state.seats[seat].at != LIBRARY:
        raise RuleError("Research the kings at the Library.", "MOCT-RES-1")
    cost = COSTS[size]
    if cost > state.points:
        raise _too_dear(state, cost)
    chits = args.get("chits")
    down = face_down(state)
    want = min(size, len(down))
    if (
        not isinstance(chits, list)
        or not all(isinstance(c, int) and not isinstance(c, bool) for c in chits)
        or not all(0 <= c < len(state.spaces) for c in chits)
    ):
        raise RuleError(f"Pick {want} chit spaces (0-14) to peek at.", "MOCT-RES-1")
    if any(state.face_up(c) for c in chits):
        raise RuleError("That chit is already face up: peek only at face-down chits.", "MOCT-RES-1")
    if len(set(chits)) != len(chits) or len(chits) != want:
        raise RuleError(f"Pick {want} different face-down chits.", "MOCT-RES-1")
    seen = [[c, state.chit(c)] for c in chits]
    return [
        {"type": "researched", "seat": seat, "cost": cost, "seen": seen},
        *_after_spending(state, seat, cost),
    ]


def _explore(state: MoctezumaState, seat: int, args: Any) -> list[Event]:
    size = args.get("size")
    if size.__class__ is not int or size not in COSTS:
        raise _bad_size("explore")
    temple = state.seats[seat].at
    if temple == LIBRARY:
        raise RuleError("Explore at a temple, not at the Library.", "MOCT-EXPL-1")
    cost = COSTS[size]
    if cost > state.points:
        raise _too_dear(state, cost)
    deck = state.decks[temple]
    cards = deck[: -size - 1 : -1]  # MOCT-EXPL-3: a short deck gives what it has
    events: list[Event] = [
        {"type": "explored", "seat": seat, "temple": temple, "cost": cost, "cards": cards}
    ]
    if int in map(type, cards):  # a treasure to keep
        return events
    refund = cost if state.options["refund_empty_explore"] else 0
    events.append(_returned(state, seat, temple, list(cards), refund))
    return events + (_end_turn(state, seat, left=0) if cost - refund == state.points else [])


def _keep(state: MoctezumaState, seat: int, args: Any) -> list[Event]:
    pending = state.explore
    if pending is None:
        raise RuleError("There is no drawn card to keep: explore a temple first.", "MOCT-EXPL-1")
    cards = pending["cards"]
    index = args.get("card")
    if index.__class__ is not int or not 0 <= index < len(cards):
        raise RuleError(f"Pick one of the {len(cards)} cards you drew.", "MOCT-EXPL-1")
    if not isinstance(cards[index], int):
        raise RuleError("The name card may never be kept: pick a treasure card.", "MOCT-EXPL-2")
    rest = cards[:index] + cards[index + 1 :]
    temple = pending["temple"]
    return [
        {"type": "kept", "seat": seat, "temple": temple, "points": cards[index]},
        _returned(state, seat, temple, rest, 0),
        *(_end_turn(state, seat) if state.points == 0 else []),
    ]


def _returned(state: MoctezumaState, seat: int, temple: int, back: list, refund: int) -> Event:
    """The cards not kept, to the bottom of the deck (MOCT-EXPL-1), in the order chosen.
    `back` becomes the event's: a list no other event holds (shuffled in place)."""
    if state.options["return_order"] == "shuffled" and len(back) > 1:
        # Derived from the secret salt and the deck's state, so a replay shuffles alike.
        random.Random(f"{state.salt}:{temple}:{len(state.decks[temple])}:{state.round}").shuffle(
            back
        )
    return {"type": "returned", "seat": seat, "temple": temple, "cards": back, "refund": refund}


def _end_turn(
    state: MoctezumaState, seat: int, args: Any = None, *, left: int | None = None
) -> list[Event]:
    """The turn passes clockwise; after every player's turn a chit is turned (MOCT-ROUND-1),
    and the last chit ends the game (MOCT-END-1). `left`: the points left when the turn ends
    by spending its last (the state does not show the spend yet), else those the state has."""
    left = state.points if left is None else left
    carry = min(left, POINTS) if state.options["carry_points"] else 0
    ended = {"type": "turn_ended", "seat": seat, "carry": carry}
    after = (seat + 1) % len(state.seats)
    started = {"type": "turn_started", "seat": after, "points": POINTS + state.seats[after].carry}
    if after != state.first:  # most turns: no chit turned
        return [ended, started]
    space = state.turned
    turned = {"type": "chit_turned", "space": space, "face": state.chit(space)}
    if space + 1 == len(state.spaces):
        return [
            ended,
            turned,
            {"type": "game_over", "by": "chits", "result": score(state, space + 1)},
        ]
    return [ended, turned, started]


def _note(state: MoctezumaState, seat: int, args: Any) -> list[Event]:
    text = args.get("text")
    if not isinstance(text, str) or not text.strip():
        raise RuleError("A note needs some words.", "MOCT-REC-1")
    if len(text) > NOTE_LENGTH:
        raise RuleError(f"A note holds at most {NOTE_LENGTH} characters.", "MOCT-REC-1")
    return [{"type": "noted", "seat": seat, "text": text.strip()}]


def _host(state: MoctezumaState, kind: str, args: Any) -> list[Event]:
    if kind == "end_game":
        return [{"type": "game_over", "by": "host", "result": score(state, state.turned)}]
    player, at = args.get("player"), args.get("at")
    if (
        not isinstance(player, int)
        or isinstance(player, bool)
        or not 0 <= player < len(state.seats)
    ):
        raise RuleError("Say whose researcher to put back (a seat number).")
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= 10:
        raise RuleError("Put the researcher on the Library (0) or a temple 1-10.", "MOCT-MOVE-1")
    return [{"type": "placed", "seat": player, "at": at}]


# The acting player's commands, each with its own checks; while choosing a card to keep, only
# these two.
_ACTIONS = {
    "move": _move,
    "research": _research,
    "explore": _explore,
    "keep": _keep,
    "end_turn": _end_turn,
    "note": _note,
}
_CHOOSING = {"keep": _keep, "note": _note}
