"""The host's page: PIN login, game setup, dice entry and corrections, undo, QR codes, camera."""

from __future__ import annotations

import io

from flask import Blueprint, Response, jsonify, request

from companion.game import GAMES, load_game
from companion.game.protocol import Command, RuleError
from web import boards
from web.access import HOST_COOKIE, base_url
from web.guard import client_key, json_body, refuse, require_host, state
from web.parts import part_files
from web.routes_seat import outcome_response
from web.routes_table import event_stream
from web.views import host_payload

bp = Blueprint("host_api", __name__, url_prefix="/api/host")

COOKIE_MAX_AGE = 60 * 60 * 24 * 30
MAX_NAME = 24


@bp.post("/login")
def login():
    web = state()
    pin = json_body().get("pin")  # a malformed request is no PIN try
    if not web.pin_tries.allow(request.remote_addr or client_key()):
        return refuse(429, "Too many PIN tries; wait a minute before trying again.")
    if not isinstance(pin, str) or not web.access.check_pin(pin.strip()):
        return refuse(403, "That PIN is not right; it is shown on the companion's screen.")
    response = jsonify(ok=True)
    set_cookie(response, HOST_COOKIE, web.access.open_host_session())
    return response


@bp.get("")
def view():
    require_host()
    payload = host_payload(state().table, state().fixed_seeds)
    payload["joins"] = join_links(state(), public_base())
    return jsonify(payload)


@bp.get("/stream")
def stream():
    require_host()
    web = state()
    base = public_base()  # the stream outlives the request: read what it needs now

    def render():
        payload = host_payload(web.table, web.fixed_seeds)
        payload["joins"] = join_links(web, base)
        return payload

    return event_stream(render, f"host {base}")


@bp.get("/games")
def games():
    """The games the companion hosts, each with what its setup form offers."""
    require_host()
    return jsonify(
        [
            {
                "name": game.name,
                "title": game.title,
                "min_seats": game.min_seats,
                "max_seats": game.max_seats,
                "uses_dice": game.uses_dice,
                "options": [option.to_json() for option in game.options],
                "parts": part_files(game.name),
            }
            for game in map(load_game, GAMES)
        ]
    )


@bp.post("/new-game")
def new_game():
    """Body: {"seats": ["Ana", "Ben", ...] in playing order, "options": {...}}; a board is
    chosen by name (`"options": {"board": "default"}`). The companion deals the hidden cards
    from the OS's randomness: a seed is accepted only where the app allows fixed seeds."""
    require_host()
    web = state()
    data = json_body()
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        return refuse(400, '"seats" must be a list of player names in playing order.')
    seats = [s.strip() for s in seats]
    if any(not s or len(s) > MAX_NAME or not s.isprintable() for s in seats):
        return refuse(400, f"Every player needs a name of 1 to {MAX_NAME} printable characters.")
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(_simple(v, 2) for v in options.values()):
        return refuse(400, '"options" must be an object of simple values.')
    if "board" in options:
        try:
            options = {**options, "board": boards.resolve(web.data_dir, options["board"])}
        except ValueError as exc:
            return refuse(400, str(exc))
    seed = data.get("seed")
    if seed is not None and not web.fixed_seeds:
        return refuse(
            400, "The companion deals the hidden cards itself: a game cannot be given a seed."
        )
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        return refuse(400, '"seed" must be a whole number of 0 or more.')
    game = data.get("game", next(iter(GAMES)))  # the first registered game by default
    if not isinstance(game, str):
        return refuse(400, '"game" must name a game.')
    outcome = web.table.new_game(game, options, seats, seed)
    return outcome_response(outcome)


def _simple(value: object, depth: int) -> bool:
    """Options are scalars, or small lists/objects of them (e.g. alcove_faces)."""
    if isinstance(value, str | int | float | bool) or value is None:
        return True
    if depth == 0:
        return False
    if isinstance(value, list):
        return len(value) <= 16 and all(_simple(v, depth - 1) for v in value)
    if isinstance(value, dict):
        return len(value) <= 16 and all(_simple(v, depth - 1) for v in value.values())
    return False


@bp.post("/command")
def command():
    """Any table command: dice read by hand, corrections, ending the game."""
    require_host()
    try:
        cmd = Command.from_json(json_body())
    except RuleError as exc:
        return refuse(400, exc.reason)
    return outcome_response(state().table.submit(cmd))


@bp.post("/undo")
def undo():
    require_host()
    return outcome_response(state().table.undo())


@bp.post("/reissue")
def reissue():
    """New QR codes for every seat; phones that joined before must scan again."""
    require_host()
    state().access.reissue_seats()
    state().broadcaster.drop_all()  # open seat pages reconnect with their old cookie: refused
    return jsonify(ok=True)


@bp.get("/qr/<int:seat>.svg")
def qr(seat: int):
    require_host()
    if not 0 <= seat < len(state().table.seats):
        return refuse(404, f"There is no seat {seat + 1} in this game.")
    import segno

    out = io.BytesIO()
    segno.make(join_links(state(), public_base())[seat]["url"], error="m").save(
        out, kind="svg", scale=6, border=2, dark="#000", light="#fff"
    )
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.get("/camera")
def camera():
    """The latest camera frame with the dice it sees outlined, or a placeholder."""
    require_host()
    frame_source = state().camera_frame
    frame = frame_source() if frame_source else None
    if frame is None:
        return Response(CAMERA_PLACEHOLDER, mimetype="image/svg+xml", headers=NO_STORE)
    return Response(frame, mimetype="image/jpeg", headers=NO_STORE)


NO_STORE = {"Cache-Control": "no-store"}
CAMERA_PLACEHOLDER = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 240" width="320" height="240">'
    '<rect width="320" height="240" fill="#222"/>'
    '<text x="160" y="115" fill="#eee" font-family="sans-serif" font-size="18" '
    'text-anchor="middle">No camera attached</text>'
    '<text x="160" y="142" fill="#aaa" font-family="sans-serif" font-size="14" '
    'text-anchor="middle">Enter the dice by hand below</text></svg>'
)


def public_base() -> str:
    """The root URL phones use: the LAN IP and the port this page was reached on."""
    port = state().public_port or request.host.rpartition(":")[2]
    return base_url(int(port) if str(port).isdigit() else 80)


def join_links(web, base: str) -> list[dict]:
    return [
        {"seat": seat, "name": name, "url": base + web.access.join_path(seat)}
        for seat, name in enumerate(web.table.seats)
    ]


def set_cookie(response: Response, name: str, value: str) -> None:
    response.set_cookie(
        name, value, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Strict", path="/"
    )
