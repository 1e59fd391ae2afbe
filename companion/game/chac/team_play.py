"""A plausible co-operative team for `companion simulate --option mode=coop` (CHAC-COOP-1).

Plain random play almost never brings treasure out, which says nothing about how hard a level
is. This team still picks among the legal commands at random, with weights: it searches and
takes treasure while the team's known haul is short of the target and the temple is still
safe, then heads for the exit; it avoids unturned slabs and never discards by choice.
"""

from __future__ import annotations

from typing import ClassVar

from companion.game.chac.game import ChacGame, random_weights
from companion.game.chac.state import Adventurer, ChacState
from companion.game.protocol import Command

CASKET_GUESS = 3.5  # a casket's value is one die, unknown until the end
GATHER = frozenset({"search", "take", "alcove", "reroll", "lock_pick", "exchange"})
MOVES = frozenset({"move", "sprint", "leap"})
# Choices a team rarely makes: they cost treasure or time for nothing.
IDLE = frozenset({"discard", "decline_exchange", "sabotage", "decipher", "linguistics"})
# Moves kept ahead of the boulder's likely roll, and walls this close to meeting: time to run.
MARGIN = 1
HURRY_WALLS = 4
MAX_CARDS = 9


def team_haul(state: ChacState) -> float:
    """The treasure the team holds or brought out, caskets counted at their mean."""
    total = 0.0
    for seat in state.seats:
        adv = seat.adv
        if adv is None or adv.status not in ("alive", "escaped"):
            continue
        for card in adv.cards:
            value = state.values[card]
            total += CASKET_GUESS if value == "casket" else int(value)
    return total


def boulder_lead(state: ChacState, adv: Adventurer) -> float:
    """How many moves ahead of the boulder the adventurer is, less what the boulder may roll
    this round and the next (CHAC-BOUL-1): below zero, it is time to run."""
    dist = state.board.exit_distance
    behind = dist.get(state.board.corridor[state.boulder], 0) - dist.get(adv.space or "", 0)
    chance = (7 - state.options["boulder_min_face"]) / 6
    rolling = chance * (min(state.round, 5) + min(state.round + 1, 5))
    running = 5 * (7 - state.load_level(adv)) / 6  # moves the adventurer may make a round
    return behind + running - rolling - MARGIN


def gathering(state: ChacState, adv: Adventurer) -> bool:
    if len(adv.cards) >= MAX_CARDS or boulder_lead(state, adv) < 0:
        return False
    if state.in_walls_room(adv) and sum(state.walls) >= HURRY_WALLS:
        return False
    return team_haul(state) < state.target()


class TeamPlay(ChacGame):
    """Temple of Chac with the co-operative team's choices for random play."""

    name: ClassVar[str] = "chac"

    def random_weights(self, state: ChacState, commands: list[Command]) -> list[float]:
        weights = random_weights(state, commands)
        dist = state.board.exit_distance
        for i, c in enumerate(commands):
            if c.seat is None:
                continue
            adv = state.seats[c.seat].adv
            if adv is None or adv.status != "alive":
                continue
            collect = gathering(state, adv)
            if c.type in GATHER:
                weights[i] = 6.0 if collect else 0.2
            elif c.type in IDLE or (c.type == "pass" and adv.actions > 0):
                weights[i] = 0.05
            elif c.type in MOVES:
                to = c.args["to"]
                here = adv.space or ""
                closer = to == "exit" or dist.get(to, 99) < dist.get(here, 99)
                if state.board.kind.get(to) == "lava" and state.slabs.get(to) is None:
                    weights[i] = 0.2  # an unturned slab may be a trap
                elif closer:
                    weights[i] = 1.5 if collect else 8.0
                else:
                    weights[i] = 0.3 if collect else 0.05
        return weights
