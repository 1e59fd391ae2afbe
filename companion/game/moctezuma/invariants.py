"""Facts that hold in every reachable state; `check` raises AssertionError naming the broken one.

Used after every command by the property tests and `companion simulate --game moctezuma`, so
it is kept cheap: `check(state, before)` takes the snapshot the previous check returned and
checks against it only what changed. The points, round, chits turned, positions, the acting
player's record sheet and the count of 120 cards are checked whole every time; a temple's
cards are counted card by card when its deck or its kept cards changed since the previous
check. The snapshot keeps each temple's kept cards, added to as hands grow, so that a temple
is checked without going through every hand. A first check (no snapshot) and the check of a
finished game take nothing on trust: every temple and every record sheet.
"""

from __future__ import annotations

from operator import attrgetter

from companion.game.moctezuma.hidden import TREASURES
from companion.game.moctezuma.state import POINTS, MoctezumaState

_TREASURES = sorted(TREASURES)
_CARDS = 10 * (len(TREASURES) + 1)
_AT = attrgetter("at")
_PLACES = frozenset(range(11))  # the Library and the 10 temples


class Snapshot:
    """What the next check compares with: what may only move one way, the decks' sizes, the
    kept cards by temple, and the chits as dealt (space -> face), made once a game."""

    __slots__ = ("decks", "faces", "held", "kept", "limit", "round", "turned")

    def __init__(self, state: MoctezumaState):
        self.round = state.round
        self.turned = state.turned
        self.held = [0] * len(state.seats)  # cards each seat had kept
        self.decks = [0] * 10  # each temple's deck size, temples 1-10
        self.kept: list[list[int]] = [[] for _ in range(11)]  # temple -> kept points
        self.faces = dict(enumerate(state.hidden["chits"]))
        self.limit = POINTS * 2 if state.options["carry_points"] else POINTS


def snapshot(state: MoctezumaState) -> Snapshot:
    """The snapshot of `state`, checked in full (a first check)."""
    return check(state)


def _fail(name: str, detail: str) -> None:
    raise AssertionError(f"invariant {name!r} broken: {detail}")


def check(state: MoctezumaState, before: Snapshot | None = None) -> Snapshot:
    """Checks `state` (against `before`, the previous state's snapshot, for what only grows)
    and returns its snapshot: `before`, brought up to date."""
    full = before is None or state.over
    now = Snapshot(state) if before is None else before
    if not 0 <= state.points <= now.limit:
        _fail("action points 0-5", f"{state.points} points")
    turned = state.turned
    if not 0 <= now.turned <= turned <= len(state.spaces):
        _fail("chits turned 0-15, only growing", f"{now.turned} -> {turned}")
    if not state.over and state.round != turned + 1:
        _fail("one chit turned a round", f"round {state.round}, {turned} chits turned")
    if state.round < now.round:
        _fail("the round only grows", f"{now.round} -> {state.round}")
    if state.over and state.result is None:
        _fail("a finished game is scored", "no result")
    now.round, now.turned = state.round, turned
    seats = state.seats
    if not {*map(_AT, seats)} <= _PLACES:
        _fail("researchers on the board", f"at {[seat.at for seat in seats]}")
    explore = state.explore
    if explore is not None and explore["seat"] != state.turn:
        _fail("only the acting player explores", f"{explore['seat']} vs {state.turn}")
    faces = now.faces.items()
    for seat in seats if full else (seats[state.turn],):
        if not seat.record.chits.items() <= faces:
            _fail("record sheets record what is there", f"{seat.record.chits}")
    changed = set(range(1, 11)) if full else set()
    _hands(seats, now, changed)
    sizes = list(map(len, state.decks.values()))
    if sizes != now.decks:
        changed.update(t for t, a, b in zip(state.decks, sizes, now.decks, strict=True) if a != b)
        now.decks = sizes
    drawn = len(explore["cards"]) if explore is not None else 0
    if sum(now.held) + drawn + sum(sizes) != _CARDS:
        _fail("120 temple cards", f"{sum(now.held)} kept, {drawn} drawn, the rest in the decks")
    for temple in changed:
        _temple(state, temple, now.kept[temple])
    return now


def _hands(seats, now: Snapshot, changed: set[int]) -> None:
    """Adds the cards kept since the previous check to `now.kept`, marking their temples
    changed: a hand only grows, and never holds a name card (MOCT-EXPL-2)."""
    held = now.held
    for i, seat in enumerate(seats):
        kept = seat.kept
        if len(kept) == held[i]:
            continue
        if len(kept) < held[i]:
            _fail("cards kept only grow", f"{seat.name}: {held[i]} -> {len(kept)}")
        for temple, points in kept[held[i] :]:
            if not isinstance(points, int):
                _fail("one name card a temple, never kept", f"temple {temple}: a name card kept")
            now.kept[temple].append(points)
            changed.add(temple)
        held[i] = len(kept)


def _temple(state: MoctezumaState, temple: int, kept: list[int]) -> None:
    """The temple has its 12 cards somewhere: its deck, a hand, or drawn and awaiting the
    choice of one to keep (MOCT-SET-2)."""
    cards = state.decks[temple] + kept
    explore = state.explore
    if explore is not None and explore["temple"] == temple:
        cards += explore["cards"]
    kinds = list(map(type, cards))
    if kinds.count(str) != 1:
        _fail("one name card a temple, never kept", f"temple {temple}: {cards}")
    del cards[kinds.index(str)]
    if sorted(cards) != _TREASURES:
        _fail("11 treasure cards a temple", f"temple {temple}: {sorted(cards)}")
