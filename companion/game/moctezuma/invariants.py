"""Facts that hold in every reachable state; a check raises AssertionError naming the broken one.

Used after every command by the property tests and `companion simulate --game moctezuma`, so
it is kept cheap. A `Watcher` checks one game's states in turn and keeps copies of what it
saw, so that each check goes card by card only through what changed. Every check looks at the
action points, the acting player's position and record sheet (the only ones a command moves
or fills), and compares in C the decks, the hands and the drawn cards with its copies: a card
moved, lost or changed anywhere shows at once. A change is then checked for what it is: an
Explore's cards must be the top of the deck as it was, a Keep's the drawn cards, bar the one
kept, now under the deck (MOCT-EXPL-1); any other change has its hands checked (they only
grow and never hold a name card) and its temples' 12 cards counted by rank (the watcher
keeps each temple's kept cards, so no hand is gone through again). When the clock (chits
turned, round, game over) moves, its rules are checked, with every position once a round.
The first check and the check of a finished game take nothing on trust: every temple and
every record sheet.

`companion simulate` calls `Watcher.after` instead, with each command's events: it checks
what the command's action moved, the points and the round at once, and compares the rest of
the state with its copies when the clock moves, once a round (see its docstring).
"""

from __future__ import annotations

from operator import attrgetter

from companion.game.moctezuma.hidden import CLUE, NAME_CARDS, TREASURES
from companion.game.moctezuma.state import POINTS, MoctezumaState

_CARDS = 10 * (len(TREASURES) + 1)
_KEPT = attrgetter("kept")
_AT = attrgetter("at")
_PLACES = frozenset(range(11))  # the Library and the 10 temples
_TEMPLES = range(1, 11)


class _Ranks(dict):
    """A card's rank for sorting a temple's cards: a treasure its points, a name card 9, any
    other thing -1 (so that it shows)."""

    def __missing__(self, card: object) -> int:
        return -1


_RANK = _Ranks(
    {points: points for points in TREASURES} | {name: 9 for name in NAME_CARDS}
).__getitem__
_DEALT = sorted(map(_RANK, (*TREASURES, CLUE)))  # a temple's 12 cards, ranked


def _fail(name: str, detail: str) -> None:
    raise AssertionError(f"invariant {name!r} broken: {detail}")


class Watcher:
    """Checks the states of one game in turn (call it with each); keeps what it last saw: the
    clock, a copy of every deck, of every hand and of the drawn cards (with their temple), the
    kept cards by temple and the chits as dealt (space -> face)."""

    __slots__ = ("clock", "decks", "drawn", "faces", "hands", "held", "kept", "limit", "source")

    def __init__(self) -> None:
        self.clock: tuple[int, int, bool] | None = None  # set by the first check

    def __call__(self, state: MoctezumaState) -> None:
        clock = (state.turned, state.round, state.over)
        if clock != self.clock:
            self._tick(state, clock)
        if not 0 <= state.points <= self.limit:
            _fail("action points 0-5", f"{state.points} points")
        # The acting player's researcher and sheet, the only ones a command moves or fills.
        acting = state.seats[state.turn]
        if acting.at not in _PLACES:
            _positions(state.seats)
        chits = acting.record.chits  # empty on most sheets: random players seldom research
        if chits and not chits.items() <= self.faces:
            _records(state.seats, self.faces)
        explore = state.explore
        if explore is not None:
            if explore["seat"] != state.turn:
                _fail("only the acting player explores", f"{explore['seat']} vs {state.turn}")
            if self.drawn is None:
                self._drew(state, explore)
        elif self.drawn is not None:
            self._chose(state, state.turn)
        self._same_cards(state)

    def _same_cards(self, state: MoctezumaState) -> None:
        """Every deck, hand and drawn card compared with the copies in C (quick); a card
        moved any other way sends the state to `_cards`, which says what broke."""
        explore = state.explore
        if (
            state.decks != self.decks
            or self.hands != self.held
            or (explore and explore["cards"]) != self.drawn
        ):
            self._cards(state, set())

    def after(self, state: MoctezumaState, events: list) -> None:
        """Checks the state a command left, told the command's events: what its action
        moved is checked at once (a position, a record sheet, the cards drawn, kept or put
        back), the action points, the acting player's position and the round every time;
        when the clock moves (a chit turned, the game over: once a round) its rules and the
        rest of the state (every deck, hand, position and record sheet), whole when the game
        ends. The first check is `__call__`'s, in full."""
        if self.clock is None:
            self(state)
            return
        first = events[0]
        kind = first["type"]
        if kind == "moved" or kind == "placed":  # most commands
            # The acting player's position is checked below; a mover whose turn it no
            # longer is, here.
            mover = first["seat"]
            if mover != state.turn and state.seats[mover].at not in _PLACES:
                _positions(state.seats)
        elif kind == "explored":
            self._explored(state, events)
        elif kind == "kept":
            self._returned(state, events)
        elif kind == "researched":
            self._researched(state, events)
        # A turn ended, a note, the game over: they move nothing the checks below do not cover.
        if state.turned != self.clock[0] or state.over:
            self._clock(state)
        if not 0 <= state.points <= self.limit:
            _fail("action points 0-5", f"{state.points} points")
        if state.seats[state.turn].at not in _PLACES:  # the next command starts from there
            _positions(state.seats)
        if state.round != state.turned + 1 and not state.over:
            _fail("one chit turned a round", f"round {state.round}, {state.turned} chits turned")

    def _researched(self, state: MoctezumaState, events: list) -> None:
        if not state.seats[events[0]["seat"]].record.chits.items() <= self.faces:
            _records(state.seats, self.faces)

    def _explored(self, state: MoctezumaState, events: list) -> None:
        """The cards drawn are the top of the temple's deck as it was, awaiting the choice of
        one to keep, or, with no treasure among them, back under the deck."""
        explore = state.explore
        if explore is None:
            self._returned(state, events)
            return
        if explore["seat"] != state.turn:
            _fail("only the acting player explores", f"{explore['seat']} vs {state.turn}")
        self._drew(state, explore)
        if self.drawn is None:  # not the top of the deck as it was
            self._cards(state, set())

    def _returned(self, state: MoctezumaState, events: list) -> None:
        """The cards drawn are back under the deck, bar the one kept, last in the hand of the
        player who kept it (a Keep's events: kept, returned; an empty Explore's: explored,
        returned)."""
        back = events[1]
        if self.drawn is None:  # drawn and put back by one command: checked as drawn first
            temple = back["temple"]
            before, count = self.decks[temple], len(back["cards"])
            self.drawn, self.source = before[: -count - 1 : -1], temple
            self.decks[temple] = before[: len(before) - count]
        self._chose(state, back["seat"])
        if self.drawn is not None:  # not the cards drawn, bar one kept, under the deck
            self._cards(state, set())

    def _clock(self, state: MoctezumaState) -> None:
        """The clock moved: its rules, then everything the commands of the round did not
        touch, compared with the copies."""
        self._tick(state, (state.turned, state.round, state.over))
        _records(state.seats, self.faces)
        self._same_cards(state)

    def _drew(self, state: MoctezumaState, explore: dict) -> None:
        """An Explore drew cards: when they are the top of the temple's deck as it was, the
        temple holds what it held, and the copies follow."""
        temple, drawn = explore["temple"], explore["cards"]
        deck = state.decks[temple]
        if deck + drawn[::-1] == self.decks[temple]:
            self.decks[temple] = deck[:]
            self.drawn, self.source = drawn[:], temple

    def _chose(self, state: MoctezumaState, seat: int) -> None:
        """The drawn cards are gone: when they are under their deck, bar at most one treasure
        now last in `seat`'s hand, the temple holds what it held (MOCT-EXPL-1), and the
        copies follow. Put back in the order drawn (the usual case), the deck is the drawn
        cards bar the kept, last first, on the deck as it was: one comparison, and the copy
        made on the way; else the cards put back are compared by rank."""
        temple = self.source
        deck, before = state.decks[temple], self.decks[temple]
        hand, held = self.hands[seat], self.held[seat]
        rest = self.drawn[::-1]  # as they lie under the deck, put back in the order drawn
        kept = hand != held
        if kept:
            if len(hand) != len(held) + 1 or hand[:-1] != held or hand[-1][0] != temple:
                return
            points = hand[-1][1]
            if not isinstance(points, int) or points not in rest:
                return
            rest.remove(points)
        back = len(rest)  # the cards put back
        rest += before
        if deck != rest:
            under = len(deck) - len(before)
            if deck[under:] != before or sorted(map(_RANK, deck[:under])) != sorted(
                map(_RANK, rest[:back])
            ):
                return
            rest = deck[:]
        self.decks[temple] = rest
        if kept:
            held.append(hand[-1])
            self.kept[temple].append(points)
        self.drawn = None

    def _start(self, state: MoctezumaState) -> None:
        self.faces = dict(enumerate(state.hidden["chits"])).items()
        self.limit = POINTS * 2 if state.options["carry_points"] else POINTS
        self.kept: list[list[int]] = [[] for _ in range(11)]  # temple -> kept points
        self.decks = {temple: [] for temple in _TEMPLES}
        self.held = [[] for _ in state.seats]  # each hand as it was
        self.drawn = None

    def _tick(self, state: MoctezumaState, clock: tuple[int, int, bool]) -> None:
        """The clock moved (a chit turned, the game ended) or this is the first check."""
        first = self.clock is None
        if first:
            self._start(state)
            self.clock = (0, 1, False)
        turned, round_, over = clock
        if not 0 <= self.clock[0] <= turned <= len(state.spaces):
            _fail("chits turned 0-15, only growing", f"{self.clock[0]} -> {turned}")
        if round_ != turned + 1 and not over:
            _fail("one chit turned a round", f"round {round_}, {turned} chits turned")
        if round_ < self.clock[1]:
            _fail("the round only grows", f"{self.clock[1]} -> {round_}")
        if over and state.result is None:
            _fail("a finished game is scored", "no result")
        self.clock = clock
        seats = state.seats
        _positions(seats)  # every researcher once a round
        self.hands = list(map(_KEPT, seats))  # the hands' own lists, compared with `held`
        if first or over:
            _records(seats, self.faces)
            self._cards(state, set(_TEMPLES))

    def _cards(self, state: MoctezumaState, changed: set[int]) -> None:
        """Cards moved: hands only grown (their new cards added to `kept`), and every temple
        whose cards moved (with those in `changed`) holds its 12 cards. A command moves only
        the acting player's hand and the cards of the temple they stand at: those are looked
        at first, the rest only when the copies still differ."""
        acting, hands, held = state.turn, self.hands, self.held
        if hands[acting] != held[acting]:
            self._hand(state.seats[acting], hands[acting], held[acting], changed)
        if hands != held:
            for seat, hand, before in zip(state.seats, hands, held, strict=True):
                self._hand(seat, hand, before, changed)
        decks, copies = state.decks, self.decks
        here = state.seats[acting].at
        if here in copies and decks[here] != copies[here]:
            copies[here] = decks[here][:]
            changed.add(here)
        if decks != copies:
            for temple, deck in decks.items():
                if deck != copies[temple]:
                    copies[temple] = deck[:]
                    changed.add(temple)
        explore = state.explore
        if explore is None:
            self.drawn = None
        elif explore["cards"] != self.drawn:
            self.drawn, self.source = explore["cards"][:], explore["temple"]
            changed.add(explore["temple"])
        for temple in changed:
            self._temple(state, temple)

    def _hand(self, seat, hand: list, before: list, changed: set[int]) -> None:
        """A hand only grows, and never holds a name card (MOCT-EXPL-2)."""
        if hand[: len(before)] != before:
            _fail("cards kept only grow", f"{seat.name}: {before} -> {hand}")
        for temple, points in hand[len(before) :]:
            if not isinstance(points, int):
                _fail("one name card a temple, never kept", f"temple {temple}: a name card")
            self.kept[temple].append(points)
            changed.add(temple)
        before[:] = hand

    def _temple(self, state: MoctezumaState, temple: int) -> None:
        """The temple has its 12 cards somewhere: its deck, a hand, or drawn and awaiting the
        choice of one to keep (MOCT-SET-2); when not, the cards are counted to say why."""
        cards = state.decks[temple] + self.kept[temple]
        explore = state.explore
        if explore is not None and explore["temple"] == temple:
            cards += explore["cards"]
        if sorted(map(_RANK, cards)) == _DEALT:
            return
        drawn = len(explore["cards"]) if explore is not None else 0
        held = sum(map(len, self.hands))
        if sum(map(len, state.decks.values())) + held + drawn != _CARDS:
            _fail("120 temple cards", f"{held} kept, {drawn} drawn, the rest in the decks")
        if list(map(type, cards)).count(str) != 1:
            _fail("one name card a temple, never kept", f"temple {temple}: {cards}")
        _fail("11 treasure cards a temple", f"temple {temple}: {cards}")


def _positions(seats) -> None:
    if not _PLACES.issuperset(map(_AT, seats)):
        _fail("researchers on the board", f"at {[seat.at for seat in seats]}")


def _records(seats, faces) -> None:
    """MOCT-REC-1: every record sheet holds only what is really there."""
    for seat in seats:  # a loop rather than all() over a generator: run once a round
        chits = seat.record.chits  # empty on most sheets: random players seldom research
        if chits and not chits.items() <= faces:
            _fail("record sheets record what is there", f"{[s.record.chits for s in seats]}")


def check(state: MoctezumaState, before: Watcher | None = None) -> Watcher:
    """Checks `state` with the watcher that checked the previous state of its game (None: a
    first check, in full), and returns that watcher."""
    watcher = before if before is not None else Watcher()
    watcher(state)
    return watcher
