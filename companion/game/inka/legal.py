"""What each seat (or the table) may do now: complete commands, ready for a menu."""

from __future__ import annotations

from companion.game.inka.state import COLOURS, STATUES, InkaState
from companion.game.protocol import Command


def legal(state: InkaState, seat: int | None) -> list[Command]:
    stage = state.stage
    if stage == "setup":
        if seat is None:
            if state.first is not None:
                return []
            return [Command("first_player", None, {"player": s}) for s in range(len(state.seats))]
        if state.seats[seat].colour is not None:
            return []
        taken = {p.colour for p in state.seats}
        return [Command("choose_colour", seat, {"colour": c}) for c in COLOURS if c not in taken]
    if seat is None or seat != state.turn:
        return []
    if stage == "starts":
        return [Command("place_counter", seat)]
    if stage == "tiles":
        return [Command("place_tile", seat)]
    if stage != "play":
        return []
    return _turn(state, seat)


def _turn(state: InkaState, seat: int) -> list[Command]:
    if state.phase == 1:
        return [Command("lift_blocker", seat)]
    player = state.seats[seat]
    out: list[Command] = []
    if state.phase in (2, 3):
        if state.points:
            if state.phase == 2 or not state.options["strict_phases"]:
                out.append(Command("move_tile", seat))
            out.append(Command("snake", seat, {"count": 1}))
            if player.statues < STATUES:
                out.append(Command("collect_statue", seat, {"colour": player.colour}))
            out.append(Command("secret_passage", seat))
            out.append(Command("diamond", seat))
        if player.statues == STATUES:
            out.append(Command("exit", seat))
        out.append(Command("place_blocker", seat, {"on": "space"}))
        out.append(Command("place_blocker", seat, {"on": "tile"}))
    out.append(Command("end_turn", seat))
    return out


def seats_with_commands(state: InkaState) -> list[int]:
    """The seats that may have legal commands now (a shortcut for random play)."""
    if state.stage == "setup":
        return [i for i, p in enumerate(state.seats) if p.colour is None]
    return [state.turn] if state.turn is not None else []
