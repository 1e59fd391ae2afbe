"""The public table: its view as JSON and as an event stream."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from companion.game import GAMES, load_game
from companion.game.protocol import RuleError
from web.guard import client_key, refuse, state
from web.streams import HAND_OVER, Render
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
    return event_stream(lambda: table_payload(table, fixed_seeds), "table")


def event_stream(render: Render, view: str) -> Response:
    """The live updates of `render`'s payload; pages showing the same `view` share each
    rendering. The server may take the stream over after its first view (web.server)."""
    events = state().broadcaster.stream(
        render, client_key(), view=view, hand_over=request.environ.get(HAND_OVER)
    )
    response = Response(events, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
