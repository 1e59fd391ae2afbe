"""Hostile requests against the running companion: every one answered, none a server error,
and nothing any page shows changed.

    .venv/bin/python bench/hostile.py [--requests 10000] [--seed 0]

The companion runs in a child process as `companion run --simulate` assembles it (rate limits
raised, so that requests reach the checks behind them; the PIN's own limit stays). A game is
set up and played to its first roll; then `--requests` hostile requests from
tests/web/hostile.py (broken request lines with NUL bytes, foreign Host names, JSON nested
thousands deep, non-ASCII digits, wrong types, broken framing; with and without valid host and
seat cookies) are sent one connection each. Prints the answers by status, every server error
(5xx other than 501, or no answer), and whether the table's, the host's and every seat's views
are what they were.
"""

from __future__ import annotations

import argparse
import collections
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "web"))
sys.path.insert(0, str(ROOT / "tests" / "service"))

SEATS = ["Ana", "Ben", "Caro", "Dan"]
PAGES = ["table", "host", *(f"seat {i}" for i in range(len(SEATS)))]


def serve(data_dir: str, port: int) -> None:
    """Child process: the companion's Service on simulated hardware."""
    import logging

    from companion import config
    from companion.runtime.service import Service
    from web.app import Limits

    logging.basicConfig(level=logging.ERROR)
    overrides = {"hardware": "sim", "data_dir": data_dir, "web.host": "127.0.0.1", "web.port": port}
    limits = Limits(reads=(1e6, 1e6), writes=(1e6, 1e6))
    service = Service(config.load(overrides=overrides), simulate=True, limits=limits)
    threading.Thread(target=lambda: (sys.stdin.read(), service.stop()), daemon=True).start()
    sys.exit(service.run())


def views(base: str, host, phones) -> list:
    """What every page shows: the table's, the host's and every seat's view."""
    from tablehttp import Phone

    shown = [Phone(base).get("/api/table")[1], host.get("/api/host")[1]]
    shown += [phone.get("/api/seat")[1] for phone in phones]
    return shown


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--serve", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return 0

    from hostile import hostile_requests, send, server_error
    from servicekit import free_port
    from tablehttp import host as host_phone
    from tablehttp import seat

    from web.access import SEAT_COOKIE, Access

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data_dir:
        child = subprocess.Popen(
            [sys.executable, __file__, "--serve", data_dir, str(port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    if time.monotonic() > deadline or child.poll() is not None:
                        raise RuntimeError("the companion did not start") from None
                    time.sleep(0.2)
            access = Access.load(data_dir)
            host = host_phone(base, access.pin)
            status, body = host.post("/api/host/new-game", {"seats": SEATS})
            assert status == 200, body
            phones = [seat(base, j["url"]) for j in host.get("/api/host")[1]["joins"]]
            for phone in phones:  # every seat takes its first dealt adventurer
                choice = phone.get("/api/seat")[1]["legal"][0]
                assert phone.post("/api/seat/command", choice)[0] == 200
            before = views(base, host, phones)
            cookies = {"host": host_cookie(host), "seat": f"{SEAT_COOKIE}={access.seat_token(0)}"}
            requests = hostile_requests(args.requests, cookies, seed=args.seed, sim=True)
            statuses: collections.Counter = collections.Counter()
            errors = []
            started = time.perf_counter()
            for hostile in requests:
                status = send(port, hostile.raw)
                statuses[status] += 1
                if server_error(status):
                    errors.append((hostile.what, status))
            took = time.perf_counter() - started
            after = views(base, host, phones)
            print(f"{len(requests)} hostile requests in {took:.1f} s")
            for status, count in sorted(statuses.items(), key=lambda kv: str(kv[0])):
                print(f"  {status if status is not None else 'no answer'}: {count}")
            print(f"server errors: {len(errors)}")
            for what, status in errors[:20]:
                print(f"  {status}: {what}")
            print(f"views unchanged: {'yes' if after == before else 'NO'}")
            for page, (old, new) in zip(PAGES, zip(before, after, strict=True), strict=False):
                changed = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
                if changed:
                    print(f"  the {page} page's {', '.join(changed)} changed")
            return 1 if errors or after != before else 0
        finally:
            if child.stdin:
                child.stdin.close()
            child.wait(30)


def host_cookie(phone) -> str:
    """The signed-in host phone's cookie, as a Cookie header's name=value."""
    from web.access import HOST_COOKIE

    jar = next(h.cookiejar for h in phone.opener.handlers if hasattr(h, "cookiejar"))
    cookie = next(c for c in jar if c.name == HOST_COOKIE)
    return f"{cookie.name}={cookie.value}"


if __name__ == "__main__":
    sys.exit(main())
