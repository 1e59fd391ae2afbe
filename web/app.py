"""The Flask app factory: the public table page, each seat's private page and the host page.

Every page is built from the table's views only (public view, one seat's view), so a hidden
value cannot reach a page that may not see it. Pages update through server-sent events.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.table import Table
from web.access import Access
from web.handouts import HandOuts
from web.ports import ServicePorts
from web.ratelimit import RateLimiter
from web.streams import Broadcaster

MAX_BODY_BYTES = 16 * 1024


@dataclass
class Limits:
    """Requests per client (a seat's or host's cookie, else the address): rate/s and burst."""

    reads: tuple[float, float] = (20.0, 60.0)
    writes: tuple[float, float] = (5.0, 20.0)
    pin_tries: tuple[float, float] = (5 / 60, 5.0)  # five tries, then one more every 12 s


@dataclass
class WebState:
    table: Table
    data_dir: Path
    access: Access
    broadcaster: Broadcaster
    handouts: HandOuts
    camera_frame: Callable[[], bytes | None] | None
    public_port: int | None
    reads: RateLimiter
    writes: RateLimiter
    pin_tries: RateLimiter
    names: frozenset[str]  # the host names this companion answers to, besides its addresses
    fixed_seeds: bool  # tests and benchmarks only: the host may fix a game's seed
    # The running companion's parts (web.sim.install), when a service runs the app.
    service: ServicePorts | None = None


def create_app(
    table: Table,
    data_dir: str | Path,
    *,
    camera_frame: Callable[[], bytes | None] | None = None,
    public_port: int | None = None,
    limits: Limits | None = None,
    names: Iterable[str] = (),
    fixed_seeds: bool = False,
) -> Flask:
    """The web app for `table`; secrets (tokens, PIN, reveals handed out) live in `data_dir`.

    `camera_frame` returns the latest annotated camera JPEG (dice outlined), or None while no
    camera is attached; `public_port` is the port phones reach (default: the request's port).
    `names`: host names the companion answers to besides its addresses, `localhost` and the
    machine's name (e.g. its mDNS name). `fixed_seeds` lets the host give a new
    game its seed, for tests and benchmarks that replay recorded games: every page then says
    that the hidden cards are not secret.
    """
    limits = limits or Limits()
    data_dir = Path(data_dir)
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["companion"] = WebState(
        table=table,
        data_dir=data_dir,
        access=Access.load(data_dir),
        broadcaster=Broadcaster(table.subscribe),
        handouts=HandOuts(data_dir),
        camera_frame=camera_frame,
        public_port=public_port,
        reads=RateLimiter(*limits.reads),
        writes=RateLimiter(*limits.writes),
        pin_tries=RateLimiter(*limits.pin_tries),
        names=own_names(names),
        fixed_seeds=fixed_seeds,
    )

    from web import calibration, guard, pages, parts, routes_host, routes_seat, routes_table

    guard.install(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(parts.bp)
    app.register_blueprint(routes_table.bp)
    app.register_blueprint(routes_seat.bp)
    app.register_blueprint(routes_host.bp)
    app.register_blueprint(calibration.bp)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        if request.path.startswith("/api/"):
            response = jsonify(error=_plain(exc), status=exc.code)
            response.status_code = exc.code or 500
            return response
        return pages.error_page(exc.code or 500, _plain(exc))

    return app


def own_names(extra: Iterable[str]) -> frozenset[str]:
    machine = socket.gethostname().lower()
    names = {"localhost", machine, f"{machine}.local", *(n.lower().rstrip(".") for n in extra)}
    return frozenset(names)


def _plain(exc: HTTPException) -> str:
    messages = {
        404: "There is nothing here.",
        405: "This address does not accept that kind of request.",
        413: f"The request is too large (at most {MAX_BODY_BYTES // 1024} KB).",
    }
    return messages.get(exc.code or 0) or exc.description or exc.name
