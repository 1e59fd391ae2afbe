"""Playing a command the random menu offered for this very state (random play's commands):
the engine made it legal, so it is not validated again, and each event is folded as it is
made, by its own fold. The events are the ones `rules.validate` gives (a test plays random
games of every game both ways); a turn's end is worded before the action is folded, as
`validate` words it."""

from __future__ import annotations

from typing import Any

from companion.game.moctezuma import rules
from companion.game.moctezuma.fold import _FOLDS, _explored, _kept, _moved, _returned
from companion.game.moctezuma.state import MoctezumaState
from companion.game.protocol import Command, Event


def play_offered(state: MoctezumaState, command: Command) -> list[Event]:
    kind, seat = command.type, command.seat
    if kind == "move":  # nearly half the commands: played here, spared a call
        moved = {"type": "moved", "seat": seat, "to": command.args["to"]}
        if state.points == 1:
            return _folded(state, [moved, *rules._end_turn(state, seat, left=0)])
        _moved(state, moved)
        return [moved]
    if kind == "explore":
        return _explore(state, seat, command.args)
    if kind == "keep":
        return _keep(state, seat, command.args)
    # The rarer commands (Research, ending a turn, a note) take the validating path.
    return _folded(state, rules.validate(state, command))


def _folded(state: MoctezumaState, events: list[Event]) -> list[Event]:
    for event in events:
        _FOLDS[event["type"]](state, event)
    return events


def _explore(state: MoctezumaState, seat: int, args: Any) -> list[Event]:
    size = args["size"]
    temple = state.seats[seat].at
    cards = state.decks[temple][: -size - 1 : -1]
    if int not in map(type, cards):  # nothing to keep: the cards go back at once
        return _folded(state, rules._explore(state, seat, args))
    explored = {
        "type": "explored",
        "seat": seat,
        "temple": temple,
        "cost": rules.COSTS[size],
        "cards": cards,
    }
    _explored(state, explored)
    return [explored]


def _keep(state: MoctezumaState, seat: int, args: Any) -> list[Event]:
    pending = state.explore
    cards, temple, index = pending["cards"], pending["temple"], args["card"]
    kept = {"type": "kept", "seat": seat, "temple": temple, "points": cards[index]}
    back = rules._returned(state, seat, temple, cards[:index] + cards[index + 1 :], 0)
    if state.points == 0:
        return _folded(state, [kept, back, *rules._end_turn(state, seat)])
    _kept(state, kept)
    _returned(state, back)
    return [kept, back]
