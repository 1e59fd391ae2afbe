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
