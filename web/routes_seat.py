"""One seat's private page: its view, its commands, and the glyph hand-out."""

from __future__ import annotations

import base64

from flask import Blueprint, jsonify

from companion.game.protocol import Command, RuleError
from web.glyphs import SHOW_SECONDS, media_type
from web.guard import json_body, refuse, require_seat, state
from web.routes_table import event_stream
from web.views import seat_payload

bp = Blueprint("seat_api", __name__, url_prefix="/api/seat")


@bp.get("")
def view():
    seat = require_seat()
    return jsonify(seat_payload(state().table, seat))


@bp.get("/stream")
def stream():
    seat = require_seat()
    table = state().table
    return event_stream(lambda: seat_payload(table, seat), f"seat {seat}")


@bp.post("/command")
def command():
    """A seat acts for itself only, and only with the kinds of command open to it now."""
    seat = require_seat()
    data = json_body()
    try:
        cmd = Command.from_json(data)
    except RuleError as exc:
        return refuse(400, exc.reason)
    if cmd.seat is not None and cmd.seat != seat:
        return refuse(403, "A phone can only act for its own seat.")
    table = state().table
    if cmd.type not in {c.type for c in table.legal(seat)}:
        return refuse(409, "That is not one of your actions now; the buttons show what you can do.")
    return outcome_response(table.submit(Command(cmd.type, seat, cmd.args)), for_player=True)


def outcome_response(outcome, for_player: bool = False):
    """The table's answer as JSON. A player reads the reason without the rule ID (it stays in
    "rule" for whoever wants to look it up); the host sees both."""
    if outcome.ok:
        return jsonify(ok=True, version=outcome.version)
    reason = outcome.reason
    if for_player and outcome.rule:
        reason = reason.removesuffix(f" ({outcome.rule})")
    return refuse(409, reason, rule=outcome.rule, version=outcome.version)


@bp.post("/glyph")
def glyph():
    """The glyph picture of this seat's last decipher, handed out once (CHAC-GLYPH-2)."""
    seat = require_seat()
    web = state()
    view = web.table.seat_view(seat)
    decipher = (view.get("you") or {}).get("decipher")
    if not decipher:
        return refuse(404, "You have not deciphered a glyph.")
    if view.get("phase") == "over":
        return refuse(410, "The game is over: no glyph is shown any more.")
    key = f"{view.get('commitment', '')}:{seat}:{decipher['id']}"
    if not web.handouts.claim(key):
        return refuse(410, "That glyph has already been shown; decipher again to see it again.")
    picture = web.glyphs.picture(decipher["number"])
    if picture is None:
        message = (
            f"No picture of this glyph is stored: peek at the clue tile of zone "
            f"{decipher['zone']} (number {decipher['number']}) by the walls room."
        )
        response = jsonify(picture=None, message=message, zone=decipher["zone"])
    else:
        data = base64.b64encode(picture).decode("ascii")
        response = jsonify(
            picture=f"data:{media_type(picture)};base64,{data}",
            seconds=SHOW_SECONDS,
            zone=decipher["zone"],
        )
    response.headers["Cache-Control"] = "no-store"
    return response
