"""Temple of Chac on the OLED: pure functions from the engine's views and prompts to a Screen,
and what the generic panel asks a game's screens for (see `companion.screens.generic`).

They read only `public_view` / `seat_view` output (docs/chac-views.md) and Prompts, so
nothing secret can reach the table's shared screen unless a seat's view is passed on purpose
(the private peek).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.game.protocol import Prompt
from companion.screens import common
from companion.screens.canvas import BIG, HUGE, SMALL, WIDTH, Canvas, Screen

View = Mapping[str, Any]

PHASES = {
    "setup": "Setup",
    "load": "Load",
    "roll": "Roll",
    "actions": "Actions",
    "walls": "Walls",
    "boulder": "Boulder",
    "replace": "Replacements",
    "score": "Scoring",
    "over": "Game over",
}
WALL_CARD_MARKS = {"blank": "", "left": "\u25c0", "right": "\u25b6", "both": "\u25c0\u25b6"}
# Commands answered by typing one number on the panel: command -> (argument, lowest, highest).
NUMBER_COMMANDS = {"slab": ("number", 1, 14)}  # CHAC-LAVA-3: the number under a turned slab
# The private peek (hold MENU): its menu item, and the commands after which it is offered.
PEEK_LABEL = "Peek at glyph"
PEEK_AFTER = frozenset({"decipher"})


def seat_name(view: View, seat: int | None) -> str:
    """The adventurer's first name when one is in play, else the player's name."""
    if seat is None:
        return "Table"
    seats = view.get("seats") or []
    if not 0 <= seat < len(seats):
        return f"Seat {seat + 1}"
    adv = seats[seat].get("adventurer")
    return adv["first_name"] if adv else seats[seat]["name"]


def _title(view: View) -> str:
    phase = PHASES.get(view.get("phase", ""), str(view.get("phase", "")).title())
    rnd = view.get("round") or 0
    return f"Round {rnd} \u00b7 {phase}" if rnd else phase


def _keeper(view: View) -> str:
    keeper = view.get("dicekeeper")
    return "" if keeper is None else f"Dice: {view['seats'][keeper]['name']}"


def _keeper_line(canvas: Canvas, view: View) -> int:
    """The dicekeeper at the bottom right; returns the width left of it for a hint."""
    keeper = _keeper(view)
    if not keeper:
        return WIDTH - 4
    return canvas.text((WIDTH - 2, 58), keeper, SMALL, anchor="rm", width=70).box[0] - 6


def status(view: View, prompts: Sequence[Prompt]) -> Screen:
    """Round and phase, the dicekeeper, whose turn it is and how many actions they have left;
    otherwise what the table must do next."""
    canvas = Canvas("status")
    canvas.bar(0, _title(view), team_score(view))
    room = _keeper_line(canvas, view)
    turn = view.get("turn")
    act = next((p for p in prompts if p.kind == "act"), None)
    if turn is not None and act is not None and view.get("phase") == "actions":
        adv = view["seats"][turn].get("adventurer") or {}
        actions = int(adv.get("actions") or 0)
        canvas.text((2, 26), seat_name(view, turn), BIG, anchor="lm", width=82)
        canvas.text((WIDTH - 3, 28), str(actions), HUGE, anchor="rm")
        canvas.text((WIDTH - 3, 45), "actions" if actions != 1 else "action", SMALL, anchor="rm")
        space = adv.get("space")
        canvas.text((2, 45), f"on {space}" if space else "", SMALL, anchor="lm", width=80)
        canvas.text((2, 58), "MENU: act", SMALL, anchor="lm", width=room)
        return canvas.done()
    prompt = prompts[0] if prompts else None
    text = prompt.text if prompt else "Waiting for the table"
    bottom = canvas.paragraph(14, text, BIG if len(text) <= 24 else SMALL, bottom=52)
    hint = _hint(prompt)
    if hint and bottom <= 52:
        canvas.text((2, 58), hint, SMALL, anchor="lm", width=room)
    return canvas.done()


def team_score(view: View) -> str:
    """CHAC-COOP-1: in co-op, the treasure escaped so far over the target ("12+1c/35"; a
    casket's value comes at the end); nothing otherwise."""
    team = view.get("coop")
    if not team:
        return ""
    escaped = team.get("escaped")
    if escaped is None:
        return f"goal {team['target']}"
    caskets = f"+{escaped['caskets']}c" if escaped["caskets"] else ""
    return f"{escaped['value']}{caskets}/{team['target']}"


def _hint(prompt: Prompt | None) -> str:
    if prompt is None:
        return ""
    return {
        "roll": "Throw, or MENU: type",
        "confirm": "OK: go",
        "choose": "MENU: choose",
        "enter": "MENU: enter",
        "act": "MENU: act",
    }.get(prompt.kind, "")


def roll_wait(view: View, prompt: Prompt) -> Screen:
    """Waiting for a throw: how many dice and what for, big."""
    canvas = Canvas("roll")
    canvas.bar(0, _title(view))
    n = prompt.dice
    canvas.text((WIDTH / 2, 24), f"Roll {n} {'die' if n == 1 else 'dice'}", BIG, anchor="mm")
    what = prompt.text.split(" for ", 1)[-1] if " for " in prompt.text else prompt.purpose
    who = f"{seat_name(view, prompt.seat)}, " if prompt.seat is not None else ""
    canvas.text((WIDTH / 2, 40), f"{who}for {what}", SMALL, anchor="mm")
    room = _keeper_line(canvas, view)
    canvas.text((2, 58), "MENU: type", SMALL, anchor="lm", width=room)
    return canvas.done()


def walls(view: View) -> Screen:
    """The three wall cards just revealed and where both walls stand (CHAC-WALL-2/3)."""
    w = view.get("walls") or {}
    canvas = Canvas("walls")
    canvas.bar(0, "Wall cards", f"{w.get('cards_left', 0)} left")
    cards = list(w.get("last_revealed") or [])
    for i, card in enumerate(cards[:3]):
        left = 4 + i * 42
        canvas.frame((left, 14, left + 37, 34))
        mark = WALL_CARD_MARKS.get(card, "?")
        canvas.text((left + 19, 24), mark or "\u2013", BIG, anchor="mm", width=34)
    for row, (label, key) in enumerate((("Left", "left"), ("Right", "right"))):
        y = 38 + row * 13
        steps = int(w.get(key) or 0)
        canvas.text((2, y + 6), label, SMALL, anchor="lm")
        for k in range(3):
            box = (40 + k * 14, y + 1, 51 + k * 14, y + 11)
            canvas.fill(box) if k < steps else canvas.frame(box)
        canvas.text((WIDTH - 2, y + 6), f"{steps}/3", BIG, anchor="rm")
    if w.get("closed"):
        canvas.fill((0, 14, WIDTH - 1, 34))
        canvas.text((WIDTH / 2, 24), "The walls meet!", BIG, anchor="mm", invert=True)
    return canvas.done()


def boulder(view: View, moved: int, dice: Sequence[int] = ()) -> Screen:
    """The boulder's move: how far, where it is now, and what it opened or sealed."""
    b = view.get("boulder") or {}
    canvas = Canvas("boulder")
    canvas.bar(0, "Boulder", " ".join(map(str, dice)))
    canvas.text((4, 27), f"+{moved}", HUGE, anchor="lm")
    canvas.text((WIDTH - 3, 27), f"\u2192 {b.get('space', '?')}", HUGE, anchor="rm", width=80)
    left = int(b.get("last_index", 0)) - int(b.get("index", 0))
    if b.get("sealed"):
        line = "The exit is sealed!"
    else:
        line = f"{left} space{'s' if left != 1 else ''} to the exit"
    canvas.text((2, 46), line, SMALL, anchor="lm")
    opened = [k for k, v in (view.get("sun_open") or {}).items() if v]
    if opened:
        canvas.text((2, 58), f"Sun open: {' '.join(opened)}", SMALL, anchor="lm")
    return canvas.done()


def fates(eliminated: Sequence[str], escaped: Sequence[str]) -> Screen:
    """Adventurers just eliminated or escaped, names big."""
    canvas = Canvas("fates")
    title = "Eliminated" if eliminated else "Escaped"
    if eliminated and escaped:
        title = "Out of the temple"
    canvas.bar(0, title)
    y = 22
    for name in eliminated:
        canvas.text((2, y), f"\u2020 {name}", BIG, anchor="lm")
        y += 17
    for name in escaped:
        canvas.text((2, y), f"\u2191 {name} escaped", BIG, anchor="lm")
        y += 17
    return canvas.done()


def game_over(view: View) -> Screen:
    result = view.get("result") or {}
    canvas = Canvas("over")
    canvas.bar(0, "Game over")
    winners = result.get("winners") or []
    scores = result.get("scores") or {}
    team = result.get("coop")
    if team is not None:  # CHAC-COOP-1: all win or lose together
        canvas.text((WIDTH / 2, 24), "Team wins" if team["won"] else "Team loses", BIG, anchor="mm")
        canvas.text((WIDTH / 2, 46), f"{team['total']}/{team['target']}", HUGE, anchor="mm")
        return canvas.done()
    if not winners:
        canvas.paragraph(18, "Nobody escaped. Nobody wins.", BIG)
        return canvas.done()
    names = " & ".join(view["seats"][w]["name"] for w in winners)
    canvas.text((WIDTH / 2, 24), names, BIG, anchor="mm")
    canvas.text((WIDTH / 2, 46), str(scores.get(str(winners[0]), "")), HUGE, anchor="mm")
    return canvas.done()


def secret(seat_view: View) -> dict | None:
    """What the seat may peek at alone now: its own deciphered trap (from its seat view, the one
    place it may come from), or None."""
    return (seat_view.get("you") or {}).get("decipher")


def peek(
    decipher: Mapping[str, Any], picture: Callable[[int], Any] | None, seconds_left: float
) -> Screen:
    """The private peek at a deciphered glyph, with its picture when the catalog has it."""
    image = picture(decipher["number"]) if picture else None
    if image is None:
        # CHAC-GLYPH-2: no glyph pictures yet; the trap clue tile is peeked at by hand.
        return common.peek(None, seconds_left, f"Turn tile {decipher['number']}")
    return common.peek(image, seconds_left, f"Zone {decipher['zone']} glyph")


def actions_left(view: View, seat: int | None) -> int | None:
    """The actions the seat has left this turn, for the menu's corner; None outside actions."""
    if seat is None or view.get("phase") != "actions":
        return None
    adv = view["seats"][seat].get("adventurer") or {}
    return adv.get("actions")


def notices(old: View, new: View) -> list[Screen]:
    """What happened between two public views that the table should see for a moment."""
    out = []
    if new["walls"]["cards_left"] < old["walls"]["cards_left"]:
        out.append(walls(new))
    old_roll = old.get("roll") or {}
    last = new.get("last_dice") or {}
    if old_roll.get("purpose") == "boulder" and last.get("purpose") == "boulder":
        moved = new["boulder"]["index"] - old["boulder"]["index"]
        out.append(boulder(new, moved, last.get("values") or ()))
    before = _fates(old)
    left = {n: fate for n, fate in _fates(new).items() if fate and not before.get(n)}
    if left:
        eliminated = [n for n, fate in left.items() if fate != "escaped"]
        escaped = [n for n, fate in left.items() if fate == "escaped"]
        out.append(fates(eliminated, escaped))
    return out


def _fates(view: View) -> dict[str, str | None]:
    """Each adventurer's `fate`: how it left play, None while waiting or in the temple."""
    out = {}
    for seat in view.get("seats") or []:
        for key in ("previous", "adventurer"):
            adv = seat.get(key)
            if adv:
                out[adv["first_name"]] = adv["fate"]
    return out
