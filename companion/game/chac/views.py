"""What people may see: the public view (anyone at the table) and a seat's view (its secrets).

Documented key by key in docs/chac-views.md. Nothing here may carry the wall deck order, the
treasure deck orders, casket values or another seat's card values before the game is over.
"""

from __future__ import annotations

from typing import Any

from companion.game.chac.hidden import ADVENTURERS
from companion.game.chac.state import Adventurer, ChacState

LOG_LINES = 20


def _adventurer(state: ChacState, adv: Adventurer) -> dict[str, Any]:
    in_play = adv.status == "alive"
    out: dict[str, Any] = {
        "name": adv.name,
        "first_name": adv.first_name,
        "ability": adv.ability,
        "space": adv.space,
        "status": adv.status,
        "fate": adv.fate,
        "cards": len(adv.cards),
        "load_level": state.load_level(adv) if in_play else None,
        "actions": adv.actions if in_play and state.phase == "actions" else 0,
        "ability_used": adv.ability_used,
        "lying": adv.lying,
    }
    if state.coop and state.options["show_cards"] and state.options["treasure_mode"] == "digital":
        # CHAC-COOP-1: the team plans together; caskets stay unknown until the end.
        out["card_values"] = [state.values[c] for c in adv.cards]
    return out


def _seat(state: ChacState, index: int, over: bool) -> dict[str, Any]:
    seat = state.seats[index]
    out: dict[str, Any] = {"seat": index, "name": seat.name, "chosen": bool(seat.advs)}
    if not seat.advs:
        out.update(adventurer=None, previous=None, replacement="none", out=False)
        return out
    adv = seat.advs[seat.current]
    out["adventurer"] = _adventurer(state, adv)
    out["previous"] = _adventurer(state, seat.advs[0]) if seat.current == 1 else None
    spare = seat.advs[1]
    if seat.current == 1:
        out["replacement"] = "in play"
    elif spare.status == "waiting" and adv.status in ("alive", "eliminated"):
        out["replacement"] = "waiting"
    else:
        out["replacement"] = "none"
    if over:
        out["replacement_name"] = spare.name
    out["out"] = adv.status == "eliminated" and not state.waiting_replacement(seat)
    return out


def public_view(state: ChacState) -> dict[str, Any]:
    board = state.board
    over = state.phase == "over"
    slabs = {}
    for cell in board.slabs:
        number = state.slabs.get(cell)
        if cell in state.fallen:
            slabs[cell] = {"state": "fallen", "number": number}
        elif cell in state.emptied:
            slabs[cell] = {"state": "emptied", "number": number}
        elif number is not None:
            slabs[cell] = {"state": "number", "number": number}
        else:
            slabs[cell] = {"state": "unknown", "number": None}
    view: dict[str, Any] = {
        "game": "chac",
        # Which board this game is played on, so the pages draw that one.
        "board": {"name": board.name, "file": state.options["board"]},
        "round": state.round,
        "phase": state.phase,
        "dicekeeper": state.dicekeeper,
        "turn": state.actor(),
        "options": {k: v for k, v in state.options.items() if k != "board"},
        "coop": _team(state),
        "exchange": (
            {
                "seat": state.offer["seat"],
                "with": state.offer["with"],
                "cards": len(state.offer["cards"]),
                "ask": state.offer["ask"],
            }
            if state.offer
            else None
        ),
        "triplets": (
            {k: state.triplets[k] for k in ("contenders", "faces")} if state.triplets else None
        ),
        "seats": [_seat(state, i, over) for i in range(len(state.seats))],
        "walls": {
            "left": state.walls[0],
            "right": state.walls[1],
            "closed": state.walls_closed(),
            "cards_left": len(state.hidden["walls"]) - state.wall_pos,
            "last_revealed": list(state.wall_shown),
        },
        "boulder": {
            "space": board.corridor[state.boulder],
            "index": state.boulder,
            "last_index": len(board.corridor) - 1,
            "sealed": state.sealed,
        },
        "planks": state.planks,
        "sun_open": dict(state.sun_open),
        "lava": {"revealed": state.lava_revealed, "slabs": slabs, "sun": dict(board.sun)},
        "alcoves": [
            {
                "space": a.space,
                "kind": a.kind,
                "value": a.value,
                "card": state.alcoves[a.space] is not None,
            }
            for a in board.alcoves.values()
        ],
        "decks": {name: len(cards) for name, cards in state.decks.items()},
        "discard": len(state.discard),
        # CHAC-GLYPH-1: the trap numbers lie number side up by the walls room.
        "traps": {z: n for z, n in sorted(state.hidden["traps"].items())},
        "last_dice": state.last_dice,
        "roll": dict(state.roll) if state.roll else None,
        "slab_wait": dict(state.slab_wait) if state.slab_wait else None,
        "alcove": (
            {k: state.alcove[k] for k in ("seat", "space", "dice", "missing")}
            if state.alcove
            else None
        ),
        "river": dict(state.river) if state.river else None,
        "commitment": state.commitment,
        "log": state.log[-LOG_LINES:],
        "log_count": state.log_count,
        "result": state.result,
        "reveal": {"salt": state.salt, "hidden": state.hidden} if over else None,
    }
    if view["roll"] is not None:
        view["roll"].pop("which", None)
    return view


def _team(state: ChacState) -> dict[str, Any] | None:
    """CHAC-COOP-1: the target and the treasure escaped so far (caskets counted apart: their
    values are revealed at the end); what the team still carries when cards are shown."""
    if not state.coop:
        return None
    digital = state.options["treasure_mode"] == "digital"

    def tally(advs: list[Adventurer]) -> dict[str, int]:
        cards = [state.values[c] for a in advs for c in a.cards]
        return {
            "value": sum(int(v) for v in cards if v != "casket"),
            "caskets": sum(1 for v in cards if v == "casket"),
            "cards": len(cards),
        }

    advs = [a for s in state.seats if (a := s.adv) is not None]
    escaped = [a for a in advs if a.status == "escaped"]
    inside = [a for a in advs if a.status == "alive"]
    return {
        "level": state.options["level"],
        "target": state.target(),
        "escaped_adventurers": len(escaped),
        # Physical cards: the values are entered at the end; only the counts are known.
        "escaped": tally(escaped) if digital else None,
        "carried": tally(inside) if digital and state.options["show_cards"] else None,
    }


def seat_view(state: ChacState, seat: int) -> dict[str, Any]:
    if not 0 <= seat < len(state.seats):
        raise ValueError(f"There is no seat {seat} at this table.")
    view = public_view(state)
    s = state.seats[seat]
    you: dict[str, Any] = {"seat": seat, "name": s.name}
    if not s.advs:
        you["dealt"] = list(s.dealt)
        # Printed on the adventurer cards, so public: the page shows them while choosing.
        you["dealt_abilities"] = {name: ADVENTURERS[name] for name in s.dealt}
    else:
        spare = s.advs[1]
        you["replacement"] = {"name": spare.name, "ability": spare.ability, "status": spare.status}
        adv = s.advs[s.current]
        if state.options["treasure_mode"] == "digital":
            you["cards"] = [{"id": c, "value": state.values[c]} for c in adv.cards]
        else:
            you["cards"] = None
        you["card_count"] = len(adv.cards)
    you["decipher"] = dict(s.decipher) if s.decipher else None
    you["peek"] = dict(s.peek) if s.peek else None
    view["you"] = you
    return view
