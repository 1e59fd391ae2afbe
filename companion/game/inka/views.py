"""What people may see: the public view and a seat's view (docs/inka-views.md).

Inka has no secrets at the table: the stepping tiles are shuffled face down but placed face
up, and the companion draws nothing. The seed a table is set up with is the only thing it
holds that no view carries.
"""

from __future__ import annotations

from typing import Any

from companion.game.inka.state import ACTION_POINTS, PHASES, STATUES, STEPPING_TILES, InkaState

LOG_LINES = 20


def public_view(state: InkaState) -> dict[str, Any]:
    playing = state.stage == "play"
    return {
        "game": "inka",
        "stage": state.stage,
        "options": dict(state.options),
        "first": state.first,
        "order": state.clockwise(),
        "turn": state.turn,
        "turn_number": state.turn_number,
        "phase": state.phase if playing else None,
        "phase_name": PHASES[state.phase] if playing else None,
        "phase_names": list(PHASES.values()),
        "points": state.points if playing else 0,
        "action_points": ACTION_POINTS,
        "spent": dict(state.spent) if playing else None,
        "tiles_left": state.tiles_left,
        "stepping_tiles": STEPPING_TILES,
        "statues_each": STATUES,
        "seats": [
            {
                "seat": i,
                "name": p.name,
                "colour": p.colour,
                "statues": p.statues,
                "blocker": p.blocker,
                "started": p.started,
            }
            for i, p in enumerate(state.seats)
        ],
        "log": state.log[-LOG_LINES:],
        "log_count": state.log_count,
        "result": {"winner": state.winner} if state.winner is not None else None,
    }


def seat_view(state: InkaState, seat: int) -> dict[str, Any]:
    if not 0 <= seat < len(state.seats):
        raise ValueError(f"There is no seat {seat} at this table.")
    view = public_view(state)
    player = state.seats[seat]
    view["you"] = {
        "seat": seat,
        "name": player.name,
        "colour": player.colour,
        "your_turn": state.turn == seat and state.stage != "over",
    }
    return view
