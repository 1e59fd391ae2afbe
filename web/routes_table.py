"""The public table: its view as JSON and as an event stream."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from web.guard import state
from web.views import table_payload

bp = Blueprint("table_api", __name__, url_prefix="/api/table")


@bp.get("")
def view():
    return jsonify(table_payload(state().table))


@bp.get("/board")
def board():
    """The map's layout, derived from the board data file (public: no game state in it)."""
    from web.board_layout import default_layout

    response = jsonify(default_layout())
    response.headers["Cache-Control"] = "max-age=3600"
    return response


@bp.get("/stream")
def stream():
    table = state().table
    return event_stream(state().broadcaster.stream(lambda: table_payload(table)))


def event_stream(events) -> Response:
    response = Response(events, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
