"""Moctezuma's Revenge! on the OLED: whose turn, where they stand, points left, the round and
the chits turned. Pure functions of the public view (docs/moctezuma-views.md) and the prompts;
the panel takes what is not here from `companion.screens.generic`.

What a Research peeks at and what an Explore draws are the seat's alone: they are drawn only
by `peek`, from the seat's view, while its player holds MENU (MOCT-RES-1, MOCT-EXPL-1). The
menu offers every card of an Explore by its number, so the shared screen never tells which of
them are treasures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.game.protocol import Command, Prompt
from companion.screens import common
from companion.screens.canvas import BIG, SMALL, WIDTH, Canvas, Screen

View = Mapping[str, Any]

TYPED_NAME = "Chit"
PEEK_LABEL = "Peek at what I saw"
PEEK_AFTER = frozenset({"research", "explore"})
# Refusing to keep the name card would show the table which drawn card it is (MOCT-EXPL-2).
PRIVATE_RULES = frozenset({"MOCT-EXPL-2"})
FACES = {"Cursed": "C", "Safe": "S"}
LAST_FACES = 6  # the turned chits' faces that fit on a line


def _points(n: int) -> str:
    return f"{n} pt{'' if n == 1 else 's'}"


def status(view: View, prompts: Sequence[Prompt]) -> Screen:
    """Round and chits turned, whose turn with the points left, where they stand, and the
    faces of the chits turned so far."""
    turn = view.get("turn")
    if turn is None:
        from companion.screens.generic import status as generic_status

        return generic_status(view, prompts)
    canvas = Canvas("status")
    canvas.bar(0, f"Round {view['round']} of {view['rounds']}")
    seat = view["seats"][turn]
    points = canvas.text((WIDTH - 2, 24), _points(int(view["points"])), BIG, anchor="rm")
    canvas.text((2, 24), seat["name"], BIG, anchor="lm", width=points.box[0] - 6)
    exploring = view.get("exploring")
    if exploring is not None:
        drew = exploring["cards"]
        canvas.text((2, 40), f"keeps 1 of {drew} cards", SMALL, anchor="lm")
        canvas.text((2, 56), "hold MENU: peek", SMALL, anchor="lm")
        return canvas.done()
    canvas.text((2, 40), f"at {seat['place']}", SMALL, anchor="lm")
    canvas.text((2, 56), _turned(view), SMALL, anchor="lm")
    return canvas.done()


def _turned(view: View) -> str:
    """The faces of the chits turned so far (C cursed, S safe), the last few when many."""
    faces = "".join(FACES.get(c["face"], "?") for c in view["chits"] if c["face_up"])
    if not faces:
        return "No chit turned yet"
    shown = faces if len(faces) <= LAST_FACES else "\u2026" + faces[1 - LAST_FACES :]
    return f"Chits turned: {shown}"


def game_over(view: View) -> Screen:
    result = view.get("result") or {}
    names = " and ".join(view["seats"][i]["name"] for i in result.get("winners", []))
    verb = "wins" if len(result.get("winners", [])) == 1 else "win"
    return common.notice("Game over", "The scores are on the table page.", big=f"{names} {verb}")


def actions_left(view: View, seat: int | None) -> int | None:
    """The action points left, on the menu of the player whose turn it is."""
    return int(view["points"]) if seat is not None and view.get("turn") == seat else None


def menu_commands(view: View, seat: int | None, legal: list[Command]) -> list[Command]:
    """While a player keeps one of the cards drawn: every card by its number (the legal ones
    would show which are treasures); otherwise the legal commands."""
    exploring = view.get("exploring")
    if seat is not None and exploring is not None and exploring["seat"] == seat:
        return [Command("keep", seat, {"card": i}) for i in range(exploring["cards"])]
    return legal


def typed(view: View, command: Command) -> tuple[list[int], int, int] | None:
    """A Research's chits are typed by their number (1-15), starting from the next ones to be
    turned; only face-down chits may be peeked at (MOCT-RES-1)."""
    if command.type != "research":
        return None
    down = [c["space"] + 1 for c in view["chits"] if not c["face_up"]]
    count = min(int(command.args.get("size", 2)), len(down))
    return down[:count], down[0], view["rounds"]


def complete(command: Command, values: list[int]) -> Command:
    return Command(command.type, command.seat, {**command.args, "chits": [v - 1 for v in values]})


def secret(seat_view: View) -> dict | None:
    """What the seat saw last: its Research's chits and its Explore's cards."""
    you = seat_view.get("you") or {}
    research, drawn = you.get("research"), you.get("drawn")
    if research is None and drawn is None:
        return None
    return {"research": research, "drawn": drawn}


def _card(card: Mapping[str, Any]) -> str:
    return str(card["points"]) if card["kind"] == "treasure" else card["name"]


def peek(secret: Mapping[str, Any], picture: Any, seconds_left: float) -> Screen:
    """The private peek: the chits of the last Research and the cards of the last Explore,
    numbered as the menu's chits and cards are."""
    canvas = Canvas("peek")
    canvas.bar(0, "Only you", str(round(max(0.0, seconds_left))))
    lines = []
    drawn = secret.get("drawn")
    if drawn is not None:
        cards = ", ".join(f"{i + 1}) {_card(c)}" for i, c in enumerate(drawn["cards"]))
        lines.append(f"Temple {drawn['temple']}: {cards}.")
    research = secret.get("research")
    if research is not None and not (drawn and drawn["choose"]):
        chits = ", ".join(f"{r['space'] + 1} {r['face']}" for r in research)
        lines.append(f"Chits: {chits}.")
    canvas.fitted(14, " ".join(lines))
    return canvas.done()
