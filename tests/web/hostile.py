"""Hostile requests, as raw bytes on a socket: broken request lines, foreign Host headers,
bodies that are not JSON, nested too deeply, or carry values of every wrong kind, sent with
and without valid cookies. Every one must get a 4xx answer and change nothing a page shows.

Used by tests/web/test_hostile.py (a sample) and bench/hostile.py (10,000 on the running
companion). Requests that a valid cookie could turn into a real action (undo, new QR codes,
a throw on the simulated table) are sent only without one, or with a forged one.
"""

from __future__ import annotations

import json
import random
import socket
from dataclasses import dataclass

SCALARS = [
    None,
    True,
    -1,
    2**70,
    1e308,
    -0.0,
    "",
    " ",
    "²",
    "①",
    "７",
    "\x00",
    "\u202e",
    "A" * 5000,
    "../../../etc/passwd",
    "/dev/zero",
    "%00",
    "<script>alert(1)</script>",
    "NaN",
]
CONTAINERS = [[], {}, [None], [[[]]], {"__proto__": 1}, [2**70] * 3, ["\x00", "\x01"]]
VALUES = SCALARS + CONTAINERS

# (path, the fields its body has): POST endpoints whose body is validated before they act.
CHECKED_POSTS = {
    "/api/host/login": ["pin"],
    "/api/host/new-game": ["seats", "options", "seed", "game"],
    "/api/host/command": ["type", "values", "seat", "keeper", "to"],
    "/api/seat/command": ["type", "to", "cards", "seat"],
    "/api/seat/reveal/glyph": [],
    "/api/service/roll/confirm": ["values"],
    "/api/host/calibration/start": ["step"],
    "/api/host/calibration/corners": ["points"],
    "/api/host/calibration/roll": ["faces"],
    "/api/host/calibration/number": ["number"],
}
# Endpoints that act on an empty or any body: hostile only without a valid cookie.
ACTING_POSTS = [
    "/api/host/undo",
    "/api/host/reissue",
    "/api/service/roll/discard",
    "/api/host/calibration/capture",
    "/api/host/calibration/turn",
    "/api/host/calibration/skip",
    "/api/sim/button",
    "/api/sim/throw",
    "/api/sim/camera",
]
GETS = [
    "/",
    "/seat",
    "/host",
    "/join/abc",
    "/api/table",
    "/api/table/board",
    "/api/seat",
    "/api/host",
    "/api/host/qr/0.svg",
    "/api/host/camera",
    "/api/service/status",
    "/host/calibration",
    "/api/host/calibration",
    "/api/host/calibration/frame.jpg",
    "/api/host/calibration/tile.png",
    "/static/live.js",
]


LOGIN = b"POST /api/host/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
CLOSE = b"Connection: close\r\n\r\n"
FRAMING = [
    ("negative length", LOGIN + b"Content-Length: -5\r\n" + CLOSE),
    ("two lengths", LOGIN + b"Content-Length: 2\r\nContent-Length: 3\r\n" + CLOSE + b"{}"),
    ("chunked garbage", LOGIN + b"Transfer-Encoding: chunked\r\n" + CLOSE + b"zz\r\n{}\r\n"),
    ("unknown transfer coding", LOGIN + b"Transfer-Encoding: zip\r\n" + CLOSE),
    ("NUL in a header name", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A\x00: 1\r\n" + CLOSE),
    ("HTTP/9.9", b"GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n" + CLOSE),
    ("unknown method", b"BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + CLOSE),
    ("form post", LOGIN + b"Content-Type: text/plain\r\nContent-Length: 5\r\n" + CLOSE + b"pin=1"),
    ("too large", LOGIN + b"Content-Length: 20000\r\n" + CLOSE + b"x" * 20000),
]


@dataclass(frozen=True)
class Hostile:
    what: str  # a few words for a report
    raw: bytes


def deep(depth: int, rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


def body(rng: random.Random, fields: list[str]) -> tuple[str, bytes]:
    """A hostile JSON body (as bytes) and what it is."""
    kind = rng.randrange(6)
    if kind == 0:
        depth = rng.choice([50, 1000, 3000, 5000])
        wrap = deep(depth, rng)
        if fields and rng.random() < 0.5:
            return f"nested {depth} in a field", f'{{"{rng.choice(fields)}": {wrap}}}'.encode()
        return f"nested {depth}", wrap.encode()
    if kind == 1:
        return "not JSON", rng.choice(
            [b"{", b"\xff\xfe{}", b'{"a": NaN}', b"1e999999", b"9" * 5000, b"{'a': 1}", b""]
        )
    if kind == 2:
        return "not an object", json.dumps(rng.choice([[], "x", 3, None, [{}]])).encode()
    values = {f: rng.choice(VALUES) for f in fields if rng.random() < 0.8}
    return "wrong values", json.dumps(values).encode()


def request(
    method: str,
    target: bytes,
    *,
    host: bytes = b"127.0.0.1",
    headers: dict[bytes, bytes] | None = None,
    data: bytes | None = None,
) -> bytes:
    lines = [method.encode() + b" " + target + b" HTTP/1.1", b"Host: " + host]
    for name, value in (headers or {}).items():
        lines.append(name + b": " + value)
    if data is not None:
        lines.append(b"Content-Length: " + str(len(data)).encode())
    lines.append(b"Connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n" + (data or b"")


def hostile_requests(
    count: int, cookies: dict[str, str], seed: int = 0, sim: bool = False
) -> list[Hostile]:
    """`count` hostile requests. `cookies`: "host" and "seat" cookie headers (name=value) to
    send with some of them; `sim`: the simulated table's endpoints are there."""
    rng = random.Random(seed)
    acting = [p for p in ACTING_POSTS if sim or not p.startswith("/api/sim/")]
    out = []
    for _ in range(count):
        kind = rng.randrange(10)
        cookie = rng.choice(
            [None, cookies.get("host"), cookies.get("seat"), "companion_host=\x00x"]
        )
        headers = {b"Cookie": cookie.encode()} if cookie else {}
        json_type = {b"Content-Type": b"application/json"}
        if kind <= 4:  # a checked POST with a hostile body
            path = rng.choice(list(CHECKED_POSTS))
            what, data = body(rng, CHECKED_POSTS[path])
            raw = request("POST", path.encode(), headers={**headers, **json_type}, data=data)
            out.append(Hostile(f"POST {path}: {what}", raw))
        elif kind == 5:  # an acting POST, never with a valid cookie (it would act)
            path = rng.choice(acting)
            forged = rng.choice(
                [{}, {b"Cookie": b"companion_host=forged"}, {b"Cookie": b"companion_seat="}]
            )
            data = rng.choice([b"{}", b"[]", deep(3000, rng).encode(), b"\xff"])
            if path.startswith("/api/sim/"):  # this machine's own controls act without a cookie
                data = rng.choice(
                    [b"[]", deep(3000, rng).encode(), b"\xff", '{"count": "７"}'.encode()]
                )
            raw = request("POST", path.encode(), headers={**forged, **json_type}, data=data)
            out.append(Hostile(f"POST {path} (refused)", raw))
        elif kind == 6:  # a NUL or another control byte somewhere in the request line
            target = rng.choice(GETS + list(CHECKED_POSTS)).encode()
            method = rng.choice([b"GET", b"POST", b"HEAD"])
            line = method + b" " + target + b" HTTP/1.1"
            at = rng.randrange(len(line) + 1)
            byte = rng.choice([b"\x00", b"%00", b"\x7f", b"\x1b", b"\xff"])
            line = line[:at] + byte + line[at:]
            raw = line + b"\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            out.append(Hostile(f"request line {line[:60]!r}", raw))
        elif kind == 7:  # a foreign or broken Host header (DNS rebinding and worse)
            host = rng.choice(
                [
                    b"evil.example",
                    b"evil.example:8080",
                    b"",
                    b"127.0.0.1\x00.evil",
                    b"[::1",
                    b"a" * 300,
                    b"chac.local.evil.example",
                    b"0x7f.1",
                ]
            )
            path = rng.choice([*GETS, "/api/host/login"])
            method = "POST" if path == "/api/host/login" else "GET"
            data = b'{"pin": "000000"}' if method == "POST" else None
            raw = request(
                method,
                path.encode(),
                host=host,
                headers={
                    **json_type,
                    b"Origin": b"http://" + host,
                    b"Sec-Fetch-Site": b"same-origin",
                },
                data=data,
            )
            out.append(Hostile(f"Host {host[:40]!r} {path}", raw))
        elif kind == 8:  # odd paths and queries on the pages
            target = rng.choice(
                [
                    b"/join/" + b"x" * 5000,
                    b"/api/host/qr/99999999999999999999.svg",
                    b"/static/../../etc/passwd",
                    b"/static/%2e%2e/app.py",
                    b"/api/table?x=\x00",
                    b"/api/seat?" + b"a=1&" * 2000,
                    b"/%ff%fe",
                    b"/" + bytes(range(128, 160)),
                ]
            )
            out.append(Hostile(f"GET {target[:40]!r}", request("GET", target, headers=headers)))
        else:  # broken framing and headers
            what, raw = rng.choice(FRAMING)
            out.append(Hostile(what, raw))
    return out


def server_error(status: int | None) -> bool:
    """No answer, or a fault of the server's. 501 is HTTP's answer to a transfer coding the
    server does not implement (RFC 9112, 6.1), not a fault."""
    return status is None or (status >= 500 and status != 501)


def send(port: int, raw: bytes, timeout: float = 10.0) -> int | None:
    """The status code of the answer to `raw`, or None when nothing came back."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(raw)
            sock.shutdown(socket.SHUT_WR)
        except OSError:  # the server may answer and close before reading everything
            pass
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    first = answer.split(b"\r\n", 1)[0].split()
    if len(first) < 2 or not first[1].isdigit():
        return None
    return int(first[1])
