"""What people may see: the public view (anyone at the table) and a seat's view (its secrets).

Documented key by key in docs/moctezuma-views.md. Before the game is over nothing here carries
a face-down chit, the 16th chit, a deck's order, a name card's place, or the points of another
seat's cards.
"""

from __future__ import annotations

from typing import Any

from companion.game.moctezuma.log_lines import log_lines
from companion.game.moctezuma.rules import adjacent, place_name
from companion.game.moctezuma.state import MoctezumaState


def _card(card: int | str) -> dict[str, Any]:
    if isinstance(card, int):
        return {"kind": "treasure", "points": card}
    return {"kind": "clue" if card == "Clue" else "king", "name": card}


def public_view(state: MoctezumaState) -> dict[str, Any]:
    over = state.over
    show_temples = state.options["show_card_temples"]
    seats = []
    for i, seat in enumerate(state.seats):
        out: dict[str, Any] = {
            "seat": i,
            "name": seat.name,
            "at": seat.at,
            "place": place_name(seat.at),
            "cards": len(seat.kept),
        }
        if show_temples or over:
            out["card_temples"] = sorted(t for t, _ in seat.kept)
        seats.append(out)
    turn = None if over else state.turn
    return {
        "game": "moctezuma",
        "round": state.round,
        "rounds": len(state.spaces),
        "turn": turn,
        "points": 0 if over else state.points,
        "first": state.first,
        "options": dict(state.options),
        "seats": seats,
        "locations": [
            {
                "at": at,
                "name": place_name(at),
                "next_to": list(adjacent(state, at)),
                "cards_left": len(state.decks[at]) if at else None,
                "researchers": [i for i, s in enumerate(state.seats) if s.at == at],
            }
            for at in range(11)
        ],
        "chits": [
            {
                "space": space,
                "column": column,
                "king": king,
                "face": state.chit(space) if state.face_up(space) or over else None,
                "face_up": state.face_up(space),
            }
            for space, (column, king) in enumerate(state.spaces)
        ],
        "chits_turned": state.turned,
        "exploring": (
            {
                "seat": state.explore["seat"],
                "temple": state.explore["temple"],
                "cards": len(state.explore["cards"]),
            }
            if state.explore
            else None
        ),
        "over": over,
        "result": _result(state) if over else None,
        "commitment": state.commitment,
        "reveal": {"salt": state.salt, "hidden": state.hidden} if over else None,
        "log": log_lines(state, state.log),
        "log_count": state.log_count,
    }


def _result(state: MoctezumaState) -> dict[str, Any]:
    result = dict(state.result or {})
    result["kept"] = [[list(k) for k in seat.kept] for seat in state.seats]
    result["unused_chit"] = state.hidden["unused"]
    return result


def seat_view(state: MoctezumaState, index: int) -> dict[str, Any]:
    view = public_view(state)
    seat = state.seats[index]
    record = seat.record
    pending = state.explore if state.explore and state.explore["seat"] == index else None
    view["you"] = {
        "seat": index,
        "name": seat.name,
        "hand": [{"temple": t, "points": p} for t, p in seat.kept],
        "research": (
            [{"space": s, "face": f} for s, f in seat.research.items()]
            if seat.research is not None
            else None
        ),
        "drawn": (
            {
                "temple": seat.drawn["temple"],
                "cards": [_card(c) for c in seat.drawn["cards"]],
                "choose": pending is not None,
            }
            if seat.drawn is not None
            else None
        ),
        "record": {
            "mode": state.options["record_sheet"],
            "chits": [{"space": s, "face": f} for s, f in sorted(record.chits.items())],
            "names": [{"temple": t, "name": n} for t, n in sorted(record.names.items())],
            "kept": (
                [{"temple": t, "points": p} for t, p in seat.kept]
                if state.options["record_sheet"] == "auto"
                else []
            ),
            "notes": list(record.notes),
        },
    }
    return view
