"""The game state: plain mutable objects that `fold` updates in place (no copies on the hot path).

Only views leave the engine; nothing here is shown to players as is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.game.chac.board import Board

# "pass": the dice go to the adventurer nearest the exit and the table breaks a tie (CHAC-COOP-2)
PHASES = (
    "setup",
    "load",
    "roll",
    "actions",
    "walls",
    "boulder",
    "replace",
    "pass",
    "score",
    "over",
)
MAX_LOG = 60
# What each kind of roll is for, as players say it: "Roll 2 dice for the boulder".
PURPOSES = {
    "actions": "actions",
    "alcove": "the alcove",
    "alcove_reroll": "the alcove",
    "river": "the river exit",
    "river_reroll": "the river exit",
    "bridge": "the bridge",
    "boulder": "the boulder",
    "first_dicekeeper": "the first dicekeeper (three of a kind)",
}

# How an adventurer left play (public): by the exit, or what eliminated them (CHAC-LAVA-1,
# CHAC-RIVER-2, CHAC-BRIDGE-1, CHAC-WALL-3, CHAC-BOUL-2, CHAC-BOUL-4), or still inside when
# the host ended the game ("ended").
FATES = ("escaped", "lava", "river", "bridge", "walls", "boulder", "sealed", "ended")


@dataclass(slots=True)
class Adventurer:
    name: str
    ability: str
    seat: int
    status: str = "waiting"  # waiting (replacement not in play), alive, eliminated, escaped
    space: str | None = None
    cards: list[str] = field(default_factory=list)  # card ids, top of the hand last
    ability_used: bool = False
    actions: int = 0
    stamina_round: int | None = None  # the round Stamina lowered the load level in
    lying: bool = False  # searched the riverbed; must move before searching again
    fate: str | None = None  # how it left play: one of FATES; None while waiting or alive

    @property
    def first_name(self) -> str:
        return self.name.split()[0]


@dataclass(slots=True)
class Seat:
    name: str
    dealt: list[str]  # the two adventurers dealt (private until the first is chosen)
    advs: list[Adventurer] = field(default_factory=list)  # [first, replacement] once chosen
    current: int = 0
    declined_round: int = 0  # the round this seat chose not to bring in its replacement
    decipher: dict[str, int] | None = None
    peek: dict[str, Any] | None = None  # the last Linguistics peek, for the seat's page
    scored: list[Any] | None = None  # physical mode: values entered at the end

    @property
    def adv(self) -> Adventurer | None:
        return self.advs[self.current] if self.advs else None


@dataclass(slots=True, eq=False, weakref_slot=True)
class ChacState:
    board: Board
    options: dict[str, Any]
    seats: list[Seat]
    salt: str
    hidden: dict[str, Any]
    commitment: str
    values: dict[str, int | str]  # card id -> value ("casket"); secret
    decks: dict[str, list[str]]  # deck -> card ids, top of the deck LAST; secret order
    alcoves: dict[str, str | None]  # corridor space -> card id still there, or None
    phase: str = "setup"
    round: int = 0
    dicekeeper: int | None = None
    order: list[int] = field(default_factory=list)  # seats acting this phase, in turn
    turn: int = 0  # index into order
    walls: list[int] = field(default_factory=lambda: [0, 0])  # left, right: steps 0-3
    wall_pos: int = 0  # wall cards revealed so far
    wall_shown: list[str] = field(default_factory=list)  # the last three revealed
    boulder: int = 0  # index into board.corridor
    planks: int = 5
    sun_open: dict[str, bool] = field(default_factory=lambda: {"A": False, "B": False})
    lava_revealed: bool = False
    slabs: dict[str, int | None] = field(default_factory=dict)  # slab -> number once turned
    emptied: set[str] = field(default_factory=set)
    fallen: set[str] = field(default_factory=set)
    discard: list[str] = field(default_factory=list)
    last_dice: dict[str, Any] | None = None
    roll: dict[str, Any] | None = None  # dice awaited: purpose, dice, seat, ...
    slab_wait: dict[str, Any] | None = None  # a move onto an unturned slab awaiting its number
    alcove: dict[str, Any] | None = None  # the current alcove attempt
    river: dict[str, Any] | None = None  # a river exit awaiting the player's decision
    offer: dict[str, Any] | None = None  # an exchange of treasures awaiting an answer
    triplets: dict[str, Any] | None = None  # rolls for the first dicekeeper (CHAC-COOP-3)
    sealed: bool = False
    decipher_count: int = 0
    log: list[str] = field(default_factory=list)
    log_count: int = 0
    result: dict[str, Any] | None = None

    # -- small queries used everywhere -------------------------------------------------------
    def say(self, text: str) -> None:
        self.log.append(text)
        self.log_count += 1
        if len(self.log) > MAX_LOG * 2:
            del self.log[:MAX_LOG]

    def alive(self) -> list[Adventurer]:
        return [a for s in self.seats if (a := s.adv) is not None and a.status == "alive"]

    def actor(self) -> int | None:
        """The seat whose turn it is in the load or actions phase."""
        if self.phase in ("load", "actions") and self.turn < len(self.order):
            return self.order[self.turn]
        return None

    def clockwise(self) -> list[int]:
        n = len(self.seats)
        start = self.dicekeeper or 0
        return [(start + i) % n for i in range(n)]

    @property
    def coop(self) -> bool:
        return self.options["mode"] == "coop"

    def target(self) -> int:
        return coop_target(len(self.seats), self.options["level"])

    def load_level(self, adv: Adventurer) -> int:
        return load_level(len(adv.cards)) - (1 if adv.stamina_round == self.round else 0)

    def in_walls_room(self, adv: Adventurer) -> bool:
        return adv.space in self.board.zone_number

    def walls_closed(self) -> bool:
        return self.walls[0] >= 3 and self.walls[1] >= 3

    def can_enter(self, space: str) -> bool:
        """Whether a space may be moved onto now (ignoring adjacency)."""
        kind = self.board.kind[space]
        if kind == "zone" and self.walls_closed():
            return False  # CHAC-WALL-3
        if space in self.fallen:
            return False  # CHAC-LAVA-1
        if space == self.board.corridor[self.boulder]:
            return False  # CHAC-BOUL-5
        return not (kind == "bridge" and self.planks == 0)  # CHAC-BRIDGE-1

    def river_blocked(self) -> bool:
        """The boulder lies where the river is left: nobody can climb out (CHAC-BOUL-5)."""
        return self.board.river_exit == self.board.corridor[self.boulder]

    def linguistics_targets(self, adv: Adventurer) -> list[str]:
        """Glyph-side-up slabs orthogonally beside the adventurer (CHAC-ABIL-LING)."""
        return [
            s
            for s in self.board.slab_neighbours.get(adv.space or "", ())
            if self.slabs.get(s) is None and s not in self.fallen
        ]

    def waiting_replacement(self, seat: Seat) -> bool:
        return (
            len(seat.advs) == 2
            and seat.current == 0
            and seat.advs[0].status == "eliminated"
            and seat.advs[1].status == "waiting"
        )


def coop_target(players: int, level: int) -> int:
    """CHAC-COOP-1: the treasure a team must bring out: 10 a player, 5 more a level."""
    return 10 * players + 5 * (level - 1)


def load_level(cards: int) -> int:
    """CHAC-LL-1: 0-3 cards -> 2, 4-6 -> 3, 7-9 -> 4, 10-12 -> 5 (more, mid-turn -> 6)."""
    if cards <= 3:
        return 2
    if cards <= 6:
        return 3
    if cards <= 9:
        return 4
    if cards <= 12:
        return 5
    return 6
