"""Facts that hold in every reachable state; a check raises AssertionError naming the broken one.

Used after every command by the property tests and `companion simulate --game moctezuma`, so
it is kept cheap. A `Watcher` checks one game's states in turn and keeps what it saw, so that
each check counts card by card only what changed: the points, round, chits turned, positions,
the acting player's record sheet and the count of 120 cards are checked whole every time; a
temple's cards when its deck or its kept cards changed since the previous check (the watcher
keeps each temple's kept cards, added to as hands grow, so no hand is gone through again). Its
first check and the check of a finished game take nothing on trust: every temple and every
record sheet. The comparisons run in built-ins (map, compress), not Python loops.
"""

from __future__ import annotations

from itertools import compress
from operator import attrgetter, ne

from companion.game.moctezuma.hidden import TREASURES
from companion.game.moctezuma.state import POINTS, MoctezumaState

_TREASURES = sorted(TREASURES)
_CARDS = 10 * (len(TREASURES) + 1)
_KEPT = attrgetter("kept")
_AT = attrgetter("at")
_PLACES = frozenset(range(11))  # the Library and the 10 temples
_TEMPLES = range(1, 11)


def _fail(name: str, detail: str) -> None:
    raise AssertionError(f"invariant {name!r} broken: {detail}")


class Watcher:
    """Checks the states of one game in turn (call it with each); keeps what may only move one
    way, the decks' sizes, the kept cards by temple, and the chits as dealt (space -> face)."""

    __slots__ = ("decks", "faces", "held", "kept", "limit", "round", "turned")

    def __init__(self) -> None:
        self.faces: dict[int, str] | None = None  # set by the first check

    def _first(self, state: MoctezumaState) -> None:
        self.faces = dict(enumerate(state.hidden["chits"]))
        self.limit = POINTS * 2 if state.options["carry_points"] else POINTS
        self.round, self.turned = state.round, state.turned
        self.held = [0] * len(state.seats)  # cards each seat had kept
        self.decks = [0] * 10  # each temple's deck size, temples 1-10
        self.kept: list[list[int]] = [[] for _ in range(11)]  # temple -> kept points

    def __call__(self, state: MoctezumaState) -> None:
        turned, over = state.turned, state.over
        full = over or self.faces is None
        if self.faces is None:
            self._first(state)
        if not 0 <= state.points <= self.limit:
            _fail("action points 0-5", f"{state.points} points")
        if not 0 <= self.turned <= turned <= len(state.spaces):
            _fail("chits turned 0-15, only growing", f"{self.turned} -> {turned}")
        if state.round != turned + 1 and not over:
            _fail("one chit turned a round", f"round {state.round}, {turned} chits turned")
        if state.round < self.round:
            _fail("the round only grows", f"{self.round} -> {state.round}")
        if over and state.result is None:
            _fail("a finished game is scored", "no result")
        self.round, self.turned = state.round, turned
        seats = state.seats
        if not _PLACES.issuperset(map(_AT, seats)):
            _fail("researchers on the board", f"at {[seat.at for seat in seats]}")
        explore = state.explore
        if explore is not None and explore["seat"] != state.turn:
            _fail("only the acting player explores", f"{explore['seat']} vs {state.turn}")
        faces = self.faces.items()
        # Every sheet in a full check; else the acting player's, the only one a command fills.
        if (
            not all(seat.record.chits.items() <= faces for seat in seats)
            if full
            else (not seats[state.turn].record.chits.items() <= faces)
        ):
            _fail("record sheets record what is there", f"{[s.record.chits for s in seats]}")
        changed = set(_TEMPLES) if full else set()
        held = list(map(len, map(_KEPT, seats)))
        if held != self.held:
            self._hands(seats, held, changed)
        sizes = list(map(len, state.decks.values()))
        if sizes != self.decks:
            changed.update(compress(_TEMPLES, map(ne, sizes, self.decks)))
            self.decks = sizes
        drawn = len(explore["cards"]) if explore is not None else 0
        if sum(held) + drawn + sum(sizes) != _CARDS:
            _fail("120 temple cards", f"{sum(held)} kept, {drawn} drawn, the rest in the decks")
        for temple in changed:
            _temple(state, temple, self.kept[temple])

    def _hands(self, seats, held: list[int], changed: set[int]) -> None:
        """Adds the cards kept since the previous check to `kept`, marking their temples
        changed: a hand only grows, and never holds a name card (MOCT-EXPL-2)."""
        for seat, before, now in zip(seats, self.held, held, strict=True):
            if now < before:
                _fail("cards kept only grow", f"{seat.name}: {before} -> {now}")
            for temple, points in seat.kept[before:]:
                if not isinstance(points, int):
                    _fail("one name card a temple, never kept", f"temple {temple}: a name card")
                self.kept[temple].append(points)
                changed.add(temple)
        self.held = held


def check(state: MoctezumaState, before: Watcher | None = None) -> Watcher:
    """Checks `state` with the watcher that checked the previous state of its game (None: a
    first check, in full), and returns that watcher."""
    watcher = before if before is not None else Watcher()
    watcher(state)
    return watcher


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
