"""The steps a player in turn is offered, on the panel's menu and the seat page alike.

In phases 2 and 3 that is every kind of step a player may report, legal or not: a player who
reports a step the rules refuse (a fourth point, a statue of another colour, an exit before the
third statue, the blocking counter on a target tile) reads why. Otherwise the legal commands.
Kept apart from the OLED drawing so the web pages can ask without loading it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.game.inka.state import COLOURS
from companion.game.protocol import Command


def offered(view: Mapping[str, Any], seat: int | None, legal: list[Command]) -> list[Command]:
    if seat is None or view.get("stage") != "play" or view.get("turn") != seat:
        return legal
    if view.get("phase") not in (2, 3):
        return legal
    own = view["seats"][seat].get("colour")
    others = [p["colour"] for p in view["seats"] if p.get("colour") not in (None, own)]
    return [
        Command("move_tile", seat),
        Command("snake", seat, {"count": 1}),
        Command("collect_statue", seat, {"colour": own}),
        Command("secret_passage", seat),
        Command("diamond", seat),
        Command("exit", seat),
        *(Command("place_blocker", seat, {"on": on}) for on in ("space", "tile", "target")),
        *(Command("collect_statue", seat, {"colour": c}) for c in COLOURS if c in others),
        Command("end_turn", seat),
    ]
