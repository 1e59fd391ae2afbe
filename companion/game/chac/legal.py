"""What may be done now: `legal(state, seat)` lists the commands a seat (or the table) may send.

Values the players supply (dice, a slab's number, cards to discard, dice to reroll, scores,
corrections) are left out; the prompt says what to fill in. Kept cheap: it runs for every
seat after every command.
"""

from __future__ import annotations

from companion.game.chac.fold import nearest_to_exit, replacement_seats, river_options, swimmers
from companion.game.chac.rules import CORRECTIONS
from companion.game.chac.state import Adventurer, ChacState
from companion.game.protocol import Command

_CORRECTION_TEMPLATES = tuple(Command(c, None) for c in sorted(CORRECTIONS))
_DICE = Command("dice", None)
_WALLS = Command("walls", None)
_END = Command("end_game", None)


def legal(state: ChacState, seat: int | None) -> list[Command]:
    phase = state.phase
    if phase == "over":
        return []
    if seat is None:
        return _legal_table(state)
    if not 0 <= seat < len(state.seats):
        raise ValueError(f"There is no seat {seat} at this table.")
    if phase == "setup":
        s = state.seats[seat]
        if s.advs:
            return []
        return [Command("choose_adventurer", seat, {"adventurer": n}) for n in s.dealt]
    adv = state.seats[seat].adv
    out: list[Command] = []
    if phase in ("load", "roll") and adv and adv.status == "alive":
        if adv.ability == "stamina" and not adv.ability_used:
            out.append(Command("stamina", seat))
        if phase == "load" and state.actor() == seat:
            if adv.cards:
                out.append(Command("discard", seat))
            if len(adv.cards) <= 12:
                out.append(Command("ready", seat))
    elif phase == "actions" and adv is not None:
        _legal_actions(state, seat, adv, out)
    elif phase == "walls" and seat == state.dicekeeper:
        out.append(Command("walls", seat))  # CHAC-WALL-2: the dicekeeper (or the host)
    elif phase == "replace" and seat in replacement_seats(state):
        out.extend(Command("replace", seat, {"sun": k}) for k, v in state.sun_open.items() if v)
        out.append(Command("decline_replacement", seat))
    elif phase == "score" and adv and adv.status == "escaped" and state.seats[seat].scored is None:
        out.append(Command("score", seat))
    return out


def _legal_table(state: ChacState) -> list[Command]:
    out: list[Command] = []
    if state.phase == "score":
        return out  # the game has ended; the players who escaped enter their values
    if state.roll is not None:
        out.append(_DICE)
    if state.phase == "pass":
        out.extend(Command("pass_dice", None, {"keeper": k}) for k in nearest_to_exit(state))
    if state.phase == "setup":
        if state.dicekeeper is None and state.options["first_dicekeeper"] == "oldest":
            out.extend(
                Command("first_dicekeeper", None, {"keeper": i}) for i in range(len(state.seats))
            )
    else:
        if state.phase == "walls":
            out.append(_WALLS)
        out.extend(_CORRECTION_TEMPLATES)
    out.append(_END)
    return out


def seats_with_commands(state: ChacState) -> list[int]:
    """The seats `legal` may list something for now (the others have nothing to do)."""
    phase = state.phase
    if phase == "setup":
        return [i for i, s in enumerate(state.seats) if not s.advs]
    if phase == "actions":
        if state.offer is not None:
            return [state.offer["with"]]
        if state.river is not None:
            return [state.river["seat"], *(s for s in swimmers(state) if s != state.river["seat"])]
        wait = state.slab_wait
        if wait is not None:
            return [wait["seat"]]
        actor = state.actor()
        return [] if actor is None else [actor]
    if phase in ("load", "roll"):
        out = [
            i
            for i, s in enumerate(state.seats)
            if (a := s.adv) and a.ability == "stamina" and not a.ability_used
        ]
        actor = state.actor()
        if actor is not None and actor not in out:
            out.append(actor)
        return out
    if phase == "replace":
        return replacement_seats(state)
    if phase == "score":
        return [i for i, s in enumerate(state.seats) if s.scored is None]
    return []


def _may_sprint_to(state: ChacState, to: str) -> bool:
    """CHAC-ABIL-SPRINT: not into the river, unless the owners' option allows the dive."""
    return state.options["sprint_into_river"] or state.board.kind[to] != "river"


def _legal_actions(state: ChacState, seat: int, adv: Adventurer, out: list[Command]) -> None:
    if state.roll is not None:
        return  # the dice come first
    if state.slab_wait is not None:
        if state.slab_wait["seat"] == seat:
            out.append(Command("slab", seat))
        return
    if state.river is not None:
        if seat in swimmers(state):
            out.append(Command("swim", seat))  # CHAC-ABIL-SWIM, or a neighbour's (CHAC-COOP-5)
        if state.river["seat"] == seat:
            _, reroll = river_options(state, adv)
            if reroll:
                out.append(Command("river_reroll", seat))
            out.append(Command("river_give_up", seat))
        return
    if state.offer is not None:
        if state.offer["with"] == seat:
            out.append(Command("accept_exchange", seat))
            out.append(Command("decline_exchange", seat))
        return
    if state.actor() != seat:
        return
    board = state.board
    here = adv.space or ""
    attempt = state.alcove
    if (
        attempt is not None
        and attempt["missing"] == 1
        and adv.ability == "lock_picking"
        and not adv.ability_used
    ):
        out.append(Command("lock_pick", seat))
    if here == board.river[-1] and adv.actions > 0:
        # CHAC-RIVER-2: exiting is the only action there; with the boulder lying where the
        # river is left (CHAC-BOUL-5) nothing can be done.
        out.append(Command("pass" if state.river_blocked() else "river_exit", seat))
        return
    out.append(Command("pass", seat))
    ability = None if adv.ability_used else adv.ability
    can_act = adv.actions > 0
    kind = board.kind.get(here)
    if can_act or ability == "sprint":
        for to in board.moves.get(here, ()):
            if state.can_enter(to):
                if can_act:
                    out.append(Command("move", seat, {"to": to}))
                if ability == "sprint" and kind != "river" and _may_sprint_to(state, to):
                    out.append(Command("sprint", seat, {"to": to}))
        if here == board.exit_from:
            if can_act:
                out.append(Command("move", seat, {"to": "exit"}))
            if ability == "sprint":
                out.append(Command("sprint", seat, {"to": "exit"}))
    if ability == "linguistics":
        out.extend(
            Command("linguistics", seat, {"space": s}) for s in state.linguistics_targets(adv)
        )
    if not can_act:
        return
    if ability == "leap" and kind != "river":
        for to in board.diagonals.get(here, ()):
            if state.can_enter(to):
                out.append(Command("leap", seat, {"to": to}))
    if kind == "zone":
        if state.decks[f"Z{board.zone_number[here]}"]:
            out.append(Command("search", seat))
        out.append(Command("decipher", seat))
    elif kind == "river":
        if not adv.lying and state.decks["R"]:
            out.append(Command("search", seat))
    elif kind == "lava":
        if here not in state.emptied and state.decks["L"]:
            out.append(Command("take", seat))
    elif kind == "bridge":
        out.append(Command("sabotage", seat))
    if state.options["exchange_treasures"] and here != board.river[-1]:
        out.extend(
            Command("exchange", seat, {"with": i})
            for i, s in enumerate(state.seats)
            if i != seat
            and (a := s.adv)
            and a.status == "alive"
            and a.space == here
            and (a.cards or adv.cards)
        )
    elif kind == "corridor" and state.alcoves.get(here) is not None:
        if attempt is not None and attempt["seat"] == seat and attempt["dice"]:
            out.append(Command("reroll", seat))
        out.append(Command("alcove", seat))
