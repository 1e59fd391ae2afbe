"""The public table: its view as JSON and as an event stream."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.game.protocol import RuleError
from web.guard import client_key, refuse, state
from web.views import table_payload

bp = Blueprint("table_api", __name__, url_prefix="/api/table")


@bp.get("")
def view():
    return jsonify(table_payload(state().table, state().fixed_seeds))


@bp.get("/board")
def board():
    """The map's layout, derived from the current game's board file (the default board when
    there is no game). Public: no game state in it."""
    from web.board_layout import layout_for

    board = state().table.public_view().get("board")
    try:
        response = jsonify(layout_for(board.get("file") if isinstance(board, dict) else None))
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
