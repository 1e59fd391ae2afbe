"""The JSON each page receives: built only from the table's views, never from its state."""

from __future__ import annotations

from typing import Any

from companion.game.protocol import Command
from companion.table import Table
from web.parts import page_parts

FIXED_SEED = "Test mode: the host can fix a game's hidden cards in advance, so they are not secret."


def table_payload(table: Table, fixed_seeds: bool = False) -> dict[str, Any]:
    """What anyone at the table may see: the public view and what the table waits for.
    `fixed_seeds`: the app lets the host seed games (tests, replays); the pages say so."""
    version = table.version
    view = table.public_view()
    payload = {
        "version": version,
        "game": table.game_name,
        "parts": page_parts(table.game_name),
        "seats": table.seats,
        "view": view,
        "prompts": [p.to_json() for p in table.prompts()],
    }
    payload.update(reveal_checked(table, view))
    if fixed_seeds:
        payload["fixed_seed"] = FIXED_SEED
    return payload


def reveal_checked(table: Table, view: dict[str, Any]) -> dict[str, bool]:
    """Once the game ends, whether its reveal hashes to the commitment published at setup
    (the game's fairness check), checked here: phones cannot hash (no WebCrypto over plain http)."""
    game = table.game
    if not (view.get("reveal") and view.get("commitment")) or not hasattr(game, "reveal_matches"):
        return {}
    return {"reveal_checked": game.reveal_matches(view["commitment"], view["reveal"])}


def seat_payload(table: Table, seat: int) -> dict[str, Any]:
    """One seat's private page: its seat view and the commands it may send now."""
    version = table.version
    view = table.seat_view(seat)
    payload = {
        "version": version,
        "game": table.game_name,
        "parts": page_parts(table.game_name),
        "seats": table.seats,
        "seat": seat,
        "view": view,
        "prompts": [p.to_json() for p in table.prompts()],
        **commands(table, seat),
    }
    if hasattr(table.game, "seat_commands"):
        offers = offered(table, seat, view)
        payload["offers"] = [c.to_json() for c in offers]
        payload["offer_labels"] = [table.game.describe(c) for c in offers]
    payload.update(reveal_checked(table, view))  # the scores and reveal, as on the table
    return payload


def commands(table: Table, seat: int | None) -> dict[str, list]:
    """The commands `seat` may send ("legal", as JSON) and, in the same order, the words the
    game describes each with ("labels", for their buttons)."""
    game, legal = table.game, table.legal(seat)
    return {
        "legal": [c.to_json() for c in legal],
        "labels": [game.describe(c) for c in legal] if game else [],
    }


def offered(table: Table, seat: int, view: dict[str, Any] | None = None) -> list[Command]:
    """What a seat's page offers as buttons: its legal commands, or the game's own offer
    (`seat_commands`) when that holds steps the rules refuse with a reason worth reading."""
    legal = table.legal(seat)
    offer = getattr(table.game, "seat_commands", None)
    if offer is None:
        return legal
    return offer(table.seat_view(seat) if view is None else view, seat, legal)


def host_payload(table: Table, fixed_seeds: bool = False) -> dict[str, Any]:
    """The host's page: the public view plus the table's own commands (dice, corrections)."""
    payload = table_payload(table, fixed_seeds)
    payload.update(commands(table, None))
    payload["over"] = table.is_over()
    payload["uses_dice"] = bool(table.game and table.game.uses_dice)
    return payload
