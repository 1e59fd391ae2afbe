"""Folding events into the state: the only place the state changes. An event worth a line in
the log goes into it as it is (`log_lines` words it when a view shows it), appended as
`MoctezumaState.say` does but written out: a simulated game folds hundreds of events."""

from __future__ import annotations

from companion.game.moctezuma.state import MoctezumaState
from companion.game.protocol import Event


def fold(state: MoctezumaState, event: Event) -> MoctezumaState:
    _FOLDS[event["type"]](state, event)
    return state


def _moved(state: MoctezumaState, e: Event) -> None:
    state.seats[e["seat"]].at = e["to"]
    state.points -= 1
    state.log.append(e)
    state.log_count += 1


def _researched(state: MoctezumaState, e: Event) -> None:
    seat = state.seats[e["seat"]]
    seen = {space: face for space, face in e["seen"]}
    seat.research = seen
    if state.options["record_sheet"] == "auto":
        seat.record.chits.update(seen)
    state.points -= e["cost"]
    state.log.append(e)
    state.log_count += 1


def _explored(state: MoctezumaState, e: Event) -> None:
    seat, temple, cards = e["seat"], e["temple"], e["cards"]
    deck = state.decks[temple]
    del deck[len(deck) - len(cards) :]
    kinds = list(map(type, cards))
    if str in kinds and state.options["record_sheet"] == "auto":
        # MOCT-EXPL-2: the name card, seen, never kept
        state.seats[seat].record.names[temple] = cards[kinds.index(str)]
    # The event itself, which nothing changes, rather than two copies of what it says.
    state.seats[seat].drawn = state.explore = e
    state.points -= e["cost"]
    state.log.append(e)
    state.log_count += 1


def _kept(state: MoctezumaState, e: Event) -> None:
    state.seats[e["seat"]].kept.append((e["temple"], e["points"]))
    state.log.append(e)
    state.log_count += 1


def _returned(state: MoctezumaState, e: Event) -> None:
    # The bottom of the deck is the list's start: the first card back ends up highest.
    state.decks[e["temple"]][:0] = e["cards"][::-1]
    state.explore = None
    if e["refund"]:
        state.points += e["refund"]
    elif int not in map(type, e["cards"]):  # no treasure drawn: worth a line
        state.log.append(e)
    state.log_count += 1


def _turn_ended(state: MoctezumaState, e: Event) -> None:
    state.seats[e["seat"]].carry = e["carry"]
    state.points = 0


def _chit_turned(state: MoctezumaState, e: Event) -> None:
    state.turned = e["space"] + 1
    state.log.append(e)
    state.log_count += 1


def _turn_started(state: MoctezumaState, e: Event) -> None:
    seat = state.turn = e["seat"]
    state.points = e["points"]
    state.seats[seat].carry = 0
    if seat == state.first:
        state.round += 1
    state.log.append(e)
    state.log_count += 1


def _game_over(state: MoctezumaState, e: Event) -> None:
    state.over = True
    state.explore = None
    state.result = e["result"]
    state.log.append(e)
    state.log_count += 1


def _noted(state: MoctezumaState, e: Event) -> None:
    state.seats[e["seat"]].record.notes.append(e["text"])


def _placed(state: MoctezumaState, e: Event) -> None:
    state.seats[e["seat"]].at = e["at"]
    state.log.append(e)
    state.log_count += 1


_FOLDS = {
    "moved": _moved,
    "researched": _researched,
    "explored": _explored,
    "kept": _kept,
    "returned": _returned,
    "turn_ended": _turn_ended,
    "chit_turned": _chit_turned,
    "turn_started": _turn_started,
    "game_over": _game_over,
    "noted": _noted,
    "placed": _placed,
}
