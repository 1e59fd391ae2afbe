"""A person at the table, over real HTTP: the host (PIN login) and seats (join links).

Plain urllib with a cookie jar each, like one phone each; no test client in between.
"""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from typing import Any


class Phone:
    def __init__(self, base: str, timeout: float = 10.0):
        self.base = base
        self.timeout = timeout
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with self.opener.open(req, timeout=self.timeout) as response:
                status, raw, kind = response.status, response.read(), response.headers
        except urllib.error.HTTPError as exc:
            status, raw, kind = exc.code, exc.read(), exc.headers
        if kind.get_content_type() == "application/json":
            return status, json.loads(raw)
        return status, raw

    def get(self, path: str) -> tuple[int, Any]:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None) -> tuple[int, Any]:
        return self.request("POST", path, {} if body is None else body)


def host(base: str, pin: str) -> Phone:
    phone = Phone(base)
    status, body = phone.post("/api/host/login", {"pin": pin})
    assert status == 200, body
    return phone


def seat(base: str, join_url: str) -> Phone:
    """A phone that opened its seat's join link (the path of the QR code's URL)."""
    phone = Phone(base)
    path = "/" + join_url.split("/", 3)[3]
    phone.get(path)  # sets the seat cookie, then redirects to /seat
    return phone


class HttpTable:
    """Plays a game through the pages' API as the host and one phone per seat.

    The game's seed is known here, so a shadow copy of the engine follows the table exactly
    (replay is deterministic) and picks random legal commands for the seats and the table,
    with their open values filled as a player would. Only commands the table acknowledged are
    applied to the shadow. The host starts the game with that seed (a companion that allows
    fixed seeds), or, with `started`, the game is already on the table (a test wrote it to
    the log before the companion started, as a real companion takes no seed from the host).
    """

    def __init__(self, base: str, pin: str, seats: list[str], seed: int, started: bool = False):
        import random

        from companion.game import load_game

        self.base = base
        self.host = host(base, pin)
        if started:
            self.version = self.host.get("/api/host")[1]["version"]
        else:
            status, body = self.host.post("/api/host/new-game", {"seats": seats, "seed": seed})
            assert status == 200, body
            self.version = body["version"]
        joins = self.host.get("/api/host")[1]["joins"]
        self.phones = [seat(base, j["url"]) for j in joins]
        self.game = load_game("chac")
        self.state = self.game.setup({}, seats, seed)
        self.seats = len(seats)
        self.rng = random.Random(seed)

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def choose(self) -> Any:
        from companion.game.random_play import random_command

        return random_command(self.game, self.state, self.rng, self.seats)

    def send(self, command: Any) -> tuple[int, Any]:
        """Submit `command` from the phone that may; on success the shadow applies it."""
        if command.seat is None:
            status, body = self.host.post("/api/host/command", command.to_json())
        else:
            status, body = self.phones[command.seat].post("/api/seat/command", command.to_json())
        if status == 200:
            self.applied(command, body["version"])
        return status, body

    def applied(self, command: Any, version: int) -> None:
        """The table took `command` (at `version`): the shadow takes it too."""
        for event in self.game.apply(self.state, command):
            self.state = self.game.fold(self.state, json.loads(json.dumps(event)))
        self.version = version

    def public_view(self) -> dict:
        return json.loads(json.dumps(self.game.public_view(self.state)))
