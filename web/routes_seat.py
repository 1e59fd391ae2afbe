"""One seat's private page: its view, its commands, and its game's private reveals."""

from __future__ import annotations

import base64

from flask import Blueprint, jsonify

from companion.game.protocol import Command, RuleError
from companion.game.reveals import NothingToReveal, media_type
from web.guard import json_body, refuse, require_seat, state
from web.routes_table import event_stream
from web.views import offered, seat_payload

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
    if cmd.type not in {c.type for c in offered(table, seat)}:
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


@bp.post("/reveal/<name>")
def reveal(name: str):
    """A private reveal the game on the table offers (its bundle's `private_reveal`), built from
    this seat's own view and handed out once, to this seat only."""
    seat = require_seat()
    web = state()
    game = web.table.game
    private_reveal = getattr(game, "private_reveal", None)
    if private_reveal is None:
        return refuse(404, "This game has nothing to show privately.")
    try:
        shown = private_reveal(name, web.table.seat_view(seat), seat, web.data_dir)
    except NothingToReveal as exc:
        return refuse(410 if exc.gone else 404, str(exc))
    if not web.handouts.claim(f"{name}:{shown.key}"):
        return refuse(410, shown.again)
    picture = None
    if shown.picture is not None:
        data = base64.b64encode(shown.picture).decode("ascii")
        picture = f"data:{media_type(shown.picture)};base64,{data}"
    response = jsonify(picture=picture, **shown.details)
    response.headers["Cache-Control"] = "no-store"
    return response
