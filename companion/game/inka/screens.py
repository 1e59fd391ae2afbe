"""Inka on the OLED: whose turn, the phase and the action points left; during setup whose
placement it is and how many stepping tiles are left. Pure functions of the public view
(docs/inka-views.md) and the prompts; the panel takes what is not here from
`companion.screens.generic` (Inka has no secrets to peek at).

The menu offers every kind of step a player may report in phases 2 and 3, not only the legal
ones (`steps.offered`, which the seat page offers too), so a refused step is answered with why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.game.inka import steps
from companion.game.inka.state import STEPPING_TILES
from companion.game.protocol import Command, Prompt
from companion.screens import common
from companion.screens.canvas import BIG, SMALL, WIDTH, Canvas, Screen
from companion.screens.generic import status as generic_status

View = Mapping[str, Any]

# INKA-TURN-1's phases, short enough for a line of the OLED.
PHASES = {1: "Lift the blocker", 2: "Move tiles", 3: "Move the counter", 4: "Blocker placed"}
SETUP_TITLES = {"starts": "Setup: starts", "tiles": "Setup: tiles"}


def _player(view: View, seat: int) -> str:
    """The name and, once chosen, the colour: on a shared screen the colour is what people
    look for on the board."""
    entry = view["seats"][seat]
    colour = entry.get("colour")
    return f"{entry['name']} ({colour})" if colour else entry["name"]


def status(view: View, prompts: Sequence[Prompt]) -> Screen:
    stage = view.get("stage")
    turn = view.get("turn")
    if stage == "play" and turn is not None:
        return _turn(view, turn)
    if stage in SETUP_TITLES and turn is not None:
        return _placement(view, stage, turn)
    return generic_status(view, prompts)


def _turn(view: View, turn: int) -> Screen:
    """Turn number and phase, whose turn, points left, the phase in words, statues held."""
    canvas = Canvas("status")
    canvas.bar(0, f"Turn {view.get('turn_number', 0)}", f"Phase {view.get('phase')} of 4")
    points = int(view.get("points") or 0)
    left = canvas.text(
        (WIDTH - 2, 24), f"{points} pt{'' if points == 1 else 's'}", BIG, anchor="rm"
    )
    canvas.text((2, 24), _player(view, turn), BIG, anchor="lm", width=left.box[0] - 6)
    canvas.text((2, 40), PHASES.get(view.get("phase"), ""), SMALL, anchor="lm")
    statues = view["seats"][turn].get("statues", 0)
    canvas.text((2, 56), f"Statues {statues}/{view.get('statues_each', 3)}", SMALL, anchor="lm")
    canvas.text((WIDTH - 2, 56), "MENU: act", SMALL, anchor="rm")
    return canvas.done()


def _placement(view: View, stage: str, turn: int) -> Screen:
    """Setup in turn: whose placement it is, and how many stepping tiles are left."""
    canvas = Canvas("status")
    canvas.bar(0, SETUP_TITLES[stage])
    canvas.text((2, 24), _player(view, turn), BIG, anchor="lm")
    if stage == "tiles":
        left = view.get("tiles_left", 0)
        canvas.text((2, 42), f"{left} of {STEPPING_TILES} tiles left", BIG, anchor="lm")
        what = "places a tile"
    else:
        what = "counter on a start"
    canvas.text((2, 57), what, SMALL, anchor="lm")
    return canvas.done()


def game_over(view: View) -> Screen:
    result = view.get("result") or {}
    winner = result.get("winner")
    if winner is None:
        return common.notice("Game over")
    statues = view.get("statues_each", 3)
    return common.notice(
        "Game over", f"Out with all {statues} statues.", big=f"{_player(view, winner)} wins"
    )


def actions_left(view: View, seat: int | None) -> int | None:
    """The action points left, on the menu of the player whose turn it is."""
    playing = view.get("stage") == "play" and seat is not None and view.get("turn") == seat
    return int(view.get("points") or 0) if playing else None


def menu_commands(view: View, seat: int | None, legal: list[Command]) -> list[Command]:
    """In phases 2 and 3, every step a player may report, legal or not, so a refused one is
    answered with its reason; otherwise the legal commands."""
    return steps.offered(view, seat, legal)
