"""The HTML shells: each page is a small template plus vanilla JS that draws the live view."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request

from web.access import SEAT_COOKIE
from web.guard import current_seat, is_host, state
from web.parts import game_title
from web.routes_host import set_cookie

bp = Blueprint("pages", __name__)

# Pages load only their own scripts and styles; inline style attributes are used by the map.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"
)


@bp.after_request
def page_headers(response):
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_context_processor
def titles():
    return {"game_title": game_title(state().table.game_name)}


@bp.get("/")
def table_page():
    return render_template("table.html")


@bp.get("/join/<token>")
def join(token: str):
    """The QR code's link: remember the seat in a cookie, then show the seat page."""
    seat = state().access.seat_for(token)
    if seat is None:
        return error_page(404, "This join link is no longer valid. Ask the host for your QR code.")
    response = redirect("/seat", code=303)
    set_cookie(response, SEAT_COOKIE, token)
    return response


@bp.get("/seat")
def seat_page():
    if current_seat() is None:
        has_cookie = SEAT_COOKIE in request.cookies
        message = (
            "This phone's seat is not in the current game. Scan your QR code again."
            if has_cookie
            else "Scan your seat's QR code on the host's screen to join."
        )
        return error_page(403, message)
    return render_template("seat.html")


@bp.get("/host")
def host_page():
    # Only the running companion registers its status and simulated-table endpoints
    # (web/sim.py); pages served without it must not poll what is not there.
    blueprints = current_app.blueprints
    return render_template(
        "host.html",
        signed_in=is_host(),
        has_service="service_api" in blueprints,
        has_sim="sim" in blueprints,
    )


def error_page(status: int, message: str):
    return render_template("message.html", message=message), status
