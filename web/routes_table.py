"""The public table: its view as JSON and as an event stream."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.game import GAMES, load_game
from companion.game.protocol import RuleError
from web.guard import client_key, refuse, state
from web.views import table_payload

bp = Blueprint("table_api", __name__, url_prefix="/api/table")


@bp.get("")
def view():
    return jsonify(table_payload(state().table, state().fixed_seeds))


@bp.get("/board")
def board():
    """The map's layout, from the current game's bundle (the default game's when there is no
    game yet). Public: no game state in it."""
    table = state().table
    game = table.game or load_game(next(iter(GAMES)))
    if not hasattr(game, "board_layout"):
        return refuse(404, f"{game.title} has no board map.")
    try:
        response = jsonify(game.board_layout(table.public_view() if table.has_game else None))
    except RuleError as exc:
        return refuse(404, f"The game's board file cannot be read: {exc.reason}")
    response.headers["Cache-Control"] = "no-cache"  # a new game may use another board
    return response


@bp.get("/stream")
def stream():
    table, fixed_seeds = state().table, state().fixed_seeds
    render = lambda: table_payload(table, fixed_seeds)  # noqa: E731
    return event_stream(state().broadcaster.stream(render, client_key(), view="table"))


def event_stream(events) -> Response:
    response = Response(events, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
