"""Memory of the running companion while the host's camera picture is fetched, dice in the tray.

    .venv/bin/python bench/camera_memory.py [--minutes 10] [--clients 4] [--throw-every 20]

The companion runs in a child process as `companion run --simulate` assembles it (simulated
camera at its default rate, OLED, buttons); this process signs in as the host, throws dice on
the simulated tray now and then, and fetches GET /api/host/camera in a tight loop from
`--clients` connections at once (the host page fetches it every second; this is far
harsher). It prints the child's resident size every 30 s and at the end; the figure to watch
is the last one (the companion's goal: at most 150 MB after 10 minutes).
"""

from __future__ import annotations

import argparse
import http.client
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "service"))


def serve(data_dir: str, port: int) -> None:
    """Child process: the companion's Service on simulated hardware."""
    import logging

    from companion import config
    from companion.runtime.service import Service
    from web.app import Limits

    logging.basicConfig(level=logging.WARNING)
    cfg = config.load(
        overrides={
            "hardware": "sim",
            "data_dir": data_dir,
            "web.host": "127.0.0.1",
            "web.port": port,
        }
    )
    service = Service(cfg, simulate=True, limits=Limits(reads=(1e6, 1e6), writes=(1e6, 1e6)))
    sys.exit(service.run())


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def largest_mappings(pid: int, top: int = 12) -> str:
    """The child's largest resident mappings (anonymous ones are heaps and thread stacks)."""
    rows, name, size = [], "", 0
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        first = line.split()
        if "-" in first[0] and ":" not in first[0]:
            name = first[5] if len(first) > 5 else "[anonymous]"
        elif first[0] == "Rss:":
            size = int(first[1])
            rows.append((size, name))
    totals: dict[str, list[int]] = {}
    for size, name in rows:
        totals.setdefault(name, []).append(size)
    ranked = sorted(totals.items(), key=lambda kv: -sum(kv[1]))[:top]
    return "\n".join(f"  {sum(s) / 1024:8.1f} MiB in {len(s):4d} mappings  {n}" for n, s in ranked)


def post(port: int, path: str, body: dict, cookie: str = "") -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json", "Cookie": cookie}
    conn.request("POST", path, body=json.dumps(body), headers=headers)
    response = conn.getresponse()
    response.read()
    return response


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--throw-every", type=float, default=20.0, help="seconds between throws")
    parser.add_argument("--smaps", action="store_true", help="list the largest mappings")
    parser.add_argument("--serve", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return 0

    from servicekit import free_port

    from web.access import Access

    port = free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        child = subprocess.Popen([sys.executable, __file__, "--serve", data_dir, str(port)])
        stop = threading.Event()
        fetched = [0]
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    pin = Access.load(data_dir).pin
                    login = post(port, "/api/host/login", {"pin": pin})
                    break
                except (OSError, ValueError, KeyError):
                    if time.monotonic() > deadline or child.poll() is not None:
                        raise RuntimeError("the companion did not start") from None
                    time.sleep(0.2)
            cookie = login.getheader("Set-Cookie", "").split(";")[0]
            assert post(port, "/api/sim/throw", {"count": 5}).status == 200

            def fetch() -> None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                while not stop.is_set():
                    conn.request("GET", "/api/host/camera", headers={"Cookie": cookie})
                    response = conn.getresponse()
                    response.read()
                    assert response.status == 200, response.status
                    fetched[0] += 1

            workers = [threading.Thread(target=fetch, daemon=True) for _ in range(args.clients)]
            for worker in workers:
                worker.start()
            started = time.monotonic()
            print(f"{'s':>5}  {'RSS MiB':>8}  pictures")
            print(f"{0:5.0f}  {rss_mib(child.pid):8.1f}  {fetched[0]}", flush=True)
            next_throw = started + args.throw_every
            next_report = started + 30
            end = started + args.minutes * 60
            peak = 0.0
            while time.monotonic() < end:
                time.sleep(1)
                peak = max(peak, rss_mib(child.pid))
                now = time.monotonic()
                if now >= next_throw:
                    post(port, "/api/sim/throw", {"count": 5})
                    next_throw = now + args.throw_every
                if now >= next_report:
                    line = f"{now - started:5.0f}  {rss_mib(child.pid):8.1f}  {fetched[0]}"
                    print(line, flush=True)
                    next_report = now + 30
            stop.set()
            for worker in workers:
                worker.join(10)
            final = rss_mib(child.pid)
            if args.smaps:
                print(largest_mappings(child.pid))
            minutes = (time.monotonic() - started) / 60
            print(
                f"after {minutes:.1f} min and {fetched[0]} pictures: RSS {final:.1f} MiB "
                f"({final * 2**20 / 1e6:.1f} MB), peak {peak:.1f} MiB"
            )
        finally:
            stop.set()
            child.terminate()
            child.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
