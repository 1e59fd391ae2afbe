"""Checks every request passes before it reaches a page: the companion's own names in the Host
header, rate limits, cross-site POSTs, who is asking (seat cookie, host cookie), and the JSON
body of a POST."""

from __future__ import annotations

import ipaddress
import json
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, jsonify, make_response, request

from companion.atomic_file import SaveError
from web.access import HOST_COOKIE, SEAT_COOKIE


def state():
    """The app's WebState (table, access, broadcaster, hand-outs, limits)."""
    return current_app.extensions["companion"]


def install(app: Flask) -> None:
    app.before_request(_check_request)
    app.register_error_handler(SaveError, _not_saved)


def _not_saved(exc: SaveError):
    """Sign-ins, seat links and reveal hand-outs are saved before they count: nothing changed."""
    return refuse(503, f"{exc}. Nothing changed; try again once the disk is fixed.")


def client_key() -> str:
    """Whom to rate limit: the valid cookie a phone carries, else its address (a made-up
    cookie does not buy a fresh bucket)."""
    access = state().access
    seat_token = request.cookies.get(SEAT_COOKIE)
    if seat_token and access.seat_for(seat_token) is not None:
        return seat_token
    host_session = request.cookies.get(HOST_COOKIE)
    if host_session and access.is_host(host_session):
        return host_session
    return request.remote_addr or "unknown"


def _check_request():
    if not own_host(request.host, state().names):
        return refuse(421, "This companion answers only to its own names and addresses.")
    if request.path.startswith(("/static/", "/parts/")):  # files, like the pages' own
        return None
    web = state()
    limiter = web.reads if request.method in ("GET", "HEAD") else web.writes
    if not limiter.allow(client_key()):
        return refuse(429, "Too many requests from this phone; wait a moment and try again.")
    if request.method == "POST" and not same_origin():
        return refuse(403, "This request came from another site and was refused.")
    return None


def own_host(host: str, names: frozenset[str]) -> bool:
    """Whether a Host header names this companion: an IP address (a page another site serves
    cannot have one as its origin) or one of its own names. A foreign name is what a DNS
    rebinding attack sends: its page, served from its name, then talks to our address."""
    try:
        name = urlsplit("//" + host).hostname
    except ValueError:  # e.g. an unclosed IPv6 bracket
        return False
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return name.rstrip(".").lower() in names
    return True


def same_origin() -> bool:
    """A browser POST must come from one of our pages (Fetch Metadata, else the Origin header).

    Non-browser clients send neither header; they cannot carry a victim's cookies anyway.
    """
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin != "null" and urlsplit(origin).netloc == request.host


def refuse(status: int, message: str, **extra: Any):
    response = make_response(jsonify(error=message, status=status, **extra), status)
    return response


def json_body() -> dict[str, Any]:
    """The POST's JSON object, or a clear 400 (a form post cannot pass for JSON: CSRF)."""
    if not request.is_json:
        abort(refuse(415, "Send JSON (Content-Type: application/json)."))
    try:
        data = json.loads(request.get_data(cache=True))
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested past the parser
        data = None
    if not isinstance(data, dict):
        abort(refuse(400, "The request body must be a JSON object."))
    if nesting(data) > MAX_NESTING:
        abort(refuse(400, f"The request is nested too deeply (at most {MAX_NESTING} levels)."))
    return data


MAX_NESTING = 8  # the deepest request (calibration's corners, a game's options) needs 4


def nesting(value: Any) -> int:
    """How deeply lists and objects nest in `value` (walked without recursion)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            todo.extend((child, depth + 1) for child in item)
    return deepest


def current_seat() -> int | None:
    """The seat whose cookie this request carries, if the seat is in the current game."""
    web = state()
    seat = web.access.seat_for(request.cookies.get(SEAT_COOKIE))
    if seat is None or seat >= len(web.table.seats):
        return None
    return seat


def require_seat() -> int:
    seat = current_seat()
    if seat is None:
        abort(refuse(403, "This phone has not joined a seat; scan your seat's QR code."))
    return seat


def is_host() -> bool:
    return state().access.is_host(request.cookies.get(HOST_COOKIE))


def require_host() -> None:
    if not is_host():
        abort(refuse(403, "Host only: enter the PIN shown on the companion's screen."))
