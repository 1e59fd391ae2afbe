"""Checking commands against the rules.

`validate` never changes the state: it returns the events a command causes, or raises a
RuleError whose sentence a player understands and whose `rule` names the rule broken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.game.arguments import is_int, seat_of
from companion.game.inka.fold import points
from companion.game.inka.state import ACTION_POINTS, COLOURS, STATUES, InkaState
from companion.game.protocol import Command, RuleError

Event = dict[str, Any]
MAX_SNAKES = 3  # one turn's points can pay for at most three snakes


# -- setup ---------------------------------------------------------------------------------------


def _choose_colour(state: InkaState, cmd: Command) -> list[Event]:
    if state.stage != "setup":
        raise RuleError("Colours are chosen before the game begins.", "INKA-SET-1")
    seat = seat_of(state, cmd, None)
    player = state.seats[seat]
    if player.colour is not None:
        raise RuleError(f"{player.name} already plays {player.colour}.", "INKA-SET-1")
    colour = cmd.args.get("colour")
    if colour not in COLOURS:
        raise RuleError(f"Choose one of the colours: {', '.join(COLOURS)}.", "INKA-SET-1")
    taken = next((p.name for p in state.seats if p.colour == colour), None)
    if taken is not None:
        raise RuleError(f"{taken} already plays {colour}.", "INKA-SET-1")
    return [{"type": "colour_chosen", "seat": seat, "colour": colour}]


def _first_player(state: InkaState, cmd: Command) -> list[Event]:
    if state.stage != "setup" or state.first is not None:
        raise RuleError("The youngest player is named once, before the game.", "INKA-SET-1")
    if cmd.seat is not None:
        raise RuleError("The host names the youngest player, who begins.", "INKA-SET-1")
    seat = cmd.args.get("player")
    if not is_int(seat) or not 0 <= seat < len(state.seats):
        raise RuleError('Name the youngest player\'s seat number as "player".', "INKA-SET-1")
    return [{"type": "first_player", "seat": seat}]


def _in_turn(state: InkaState, cmd: Command, stage: str, rule: str, what: str) -> int:
    """The seat doing `what` in `stage`, which must be the one whose turn it is."""
    if state.stage != stage:
        raise RuleError(f"Not now: {what} {_WHEN[stage]}.", rule)
    assert state.turn is not None
    seat = seat_of(state, cmd, state.turn)
    if seat != state.turn:
        raise RuleError(f"It is {state.name(state.turn)}'s turn, not {state.name(seat)}'s.", rule)
    return seat


_WHEN = {
    "starts": "happens once the colours and the youngest player are known",
    "tiles": "happens after every counter is on a starting space",
    "play": "happens in a player's turn, once the 13 stepping tiles are placed",
}


def _place_counter(state: InkaState, cmd: Command) -> list[Event]:
    what = "putting the counters on starting spaces"
    seat = _in_turn(state, cmd, "starts", "INKA-SET-1", what)
    return [{"type": "counter_placed", "seat": seat}]


def _place_tile(state: InkaState, cmd: Command) -> list[Event]:
    seat = _in_turn(state, cmd, "tiles", "INKA-SET-2", "placing the stepping tiles")
    return [{"type": "tile_placed", "seat": seat}]


# -- a turn (INKA-TURN-1) ------------------------------------------------------------------------


def _turn(state: InkaState, cmd: Command) -> int:
    seat = _in_turn(state, cmd, "play", "INKA-TURN-1", "this")
    if state.phase == 1:
        raise RuleError(
            f"{state.name(seat)} first lifts the blocking counter off the board (phase 1).",
            "INKA-TURN-1",
        )
    return seat


def _lift(state: InkaState, cmd: Command) -> list[Event]:
    seat = _in_turn(state, cmd, "play", "INKA-TURN-1", "this")
    if state.phase != 1:
        raise RuleError(
            f"{state.name(seat)}'s blocking counter is not left on the board from last turn.",
            "INKA-TURN-1",
        )
    return [{"type": "blocker_lifted", "seat": seat}]


def _spend(state: InkaState, cmd: Command, kind: str, cost: int = 1) -> list[Event]:
    """`cost` action points spent on `kind` in phase 2 or 3, if they are left."""
    seat = _turn(state, cmd)
    name = state.name(seat)
    if state.phase == 4:
        raise RuleError(
            f"{name} has placed the blocking counter: the turn's points are over.", "INKA-TURN-1"
        )
    if state.points < cost:
        spent = ACTION_POINTS - state.points
        raise RuleError(
            f"{name} has {points(state.points)} left ({spent} of {ACTION_POINTS} spent this "
            "turn); "
            f"this needs {points(cost)}.",
            "INKA-TURN-1",
        )
    return [{"type": "spent", "seat": seat, "kind": kind, "points": cost}]


def _move_tile(state: InkaState, cmd: Command) -> list[Event]:
    seat = _turn(state, cmd)
    tile = cmd.args.get("tile", "stepping")
    if tile == "target":
        raise RuleError(
            "Target tiles are not stepping tiles: only a diamond moves them.", "INKA-TILE-1"
        )
    if tile != "stepping":
        raise RuleError('A tile moved is "stepping" (or, from a diamond, a target tile).')
    if state.phase == 3 and state.options["strict_phases"]:
        raise RuleError(
            f"{state.name(seat)} has moved the playing counter: stepping tiles move before it "
            "(phase 2 before phase 3).",
            "INKA-TURN-1",
        )
    return _spend(state, cmd, "tile")


def _snake(state: InkaState, cmd: Command) -> list[Event]:
    count = cmd.args.get("count", 1)
    if not is_int(count) or not 1 <= count <= MAX_SNAKES:
        raise RuleError(f'Say how many snakes were passed as "count" (1 to {MAX_SNAKES}).')
    return _spend(state, cmd, "snake", count)


def _statue(state: InkaState, cmd: Command) -> list[Event]:
    seat = _turn(state, cmd)
    player = state.seats[seat]
    colour = cmd.args.get("colour", player.colour)
    if colour not in COLOURS:
        raise RuleError(f"A statue is one of the colours {', '.join(COLOURS)}.")
    if colour != player.colour:
        raise RuleError(
            f"{player.name} collects only {player.colour} statues, not {colour} ones.",
            "INKA-STAT-1",
        )
    if player.statues >= STATUES:
        raise RuleError(
            f"{player.name} has all {STATUES} {colour} statues already; there is no fourth.",
            "INKA-STAT-1",
        )
    return _spend(state, cmd, "statue")


def _place_blocker(state: InkaState, cmd: Command) -> list[Event]:
    seat = _turn(state, cmd)
    player = state.seats[seat]
    on = cmd.args.get("on")
    if player.blocker != "off":
        raise RuleError(f"{player.name}'s blocking counter is already on the board.", "INKA-TURN-1")
    if on == "target":
        raise RuleError("A blocking counter may not go on a target tile.", "INKA-TURN-1")
    if on not in ("space", "tile"):
        raise RuleError('Say where the blocking counter goes as "on": "space" or "tile".')
    return [{"type": "blocker_placed", "seat": seat, "on": on}]


def _exit(state: InkaState, cmd: Command) -> list[Event]:
    seat = _turn(state, cmd)
    player = state.seats[seat]
    if player.statues < STATUES:
        raise RuleError(
            f"{player.name} has {player.statues} of {STATUES} statues: exits are for a player "
            f"holding all {STATUES}.",
            "INKA-END-1",
        )
    if state.phase == 4:
        raise RuleError(
            f"{player.name} has placed the blocking counter: the counter moves before that.",
            "INKA-TURN-1",
        )
    return [{"type": "exited", "seat": seat}]


def _end_turn(state: InkaState, cmd: Command) -> list[Event]:
    seat = _turn(state, cmd)
    return [{"type": "turn_ended", "seat": seat}]


VALIDATORS: dict[str, Callable[[InkaState, Command], list[Event]]] = {
    "choose_colour": _choose_colour,
    "first_player": _first_player,
    "place_counter": _place_counter,
    "place_tile": _place_tile,
    "lift_blocker": _lift,
    "move_tile": _move_tile,
    "snake": _snake,
    "collect_statue": _statue,
    "secret_passage": lambda s, c: _spend(s, c, "passage"),  # INKA-SPEC-1
    "diamond": lambda s, c: _spend(s, c, "diamond"),  # INKA-SPEC-2
    "place_blocker": _place_blocker,
    "exit": _exit,
    "end_turn": _end_turn,
}


def validate(state: InkaState, cmd: Command) -> list[Event]:
    if state.stage == "over":
        raise RuleError(f"The game is over: {state.name(state.winner or 0)} has won.", "INKA-END-1")
    check = VALIDATORS.get(cmd.type)
    if check is None:
        raise RuleError(f"Inka has no command {cmd.type!r}; see docs/inka-commands.md.")
    return check(state, cmd)
