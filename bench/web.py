"""Benchmark of the pages on loopback: JSON view latency, command -> page update with 12 live
SSE clients and 100 idle ones open, and the serving process's memory.

    .venv/bin/python bench/web.py [--commands 120] [--requests 300] [--clients 12] [--idle 100]
    .venv/bin/python bench/web.py --trees ../main . --rounds 3   # before/after, interleaved

The companion runs in a child process as `companion run --simulate` assembles it: waitress
with its default threads, the simulated camera read by the dice reader at its frame rate, the
OLED drawn, the buttons polled (rate limits raised, since every client here shares loopback;
fixed seeds allowed, so that recorded games can be replayed). This process opens `--idle`
event streams that only listen, each from its own loopback address (127.0.1.x) as phones
each have theirs, then plays recorded random games through the host and seat APIs and times
how long each command takes to reach every live page. With `--trees`, the companion of each
checkout (its code, its .venv) is measured in turn, `--rounds` times, by the same client.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NAMES = ["Ana", "Ben", "Caro", "Dan"]
SEED = 2024


def serve(data_dir: str, port: int) -> None:
    """Child process: the companion's Service on simulated hardware, camera and OLED running."""
    import logging

    from companion import config
    from companion.runtime.service import Service
    from web.app import Limits

    logging.basicConfig(level=logging.WARNING)
    overrides = {"hardware": "sim", "data_dir": data_dir, "web.host": "127.0.0.1", "web.port": port}
    service = Service(
        config.load(overrides=overrides),
        simulate=True,
        limits=Limits(reads=(1e6, 1e6), writes=(1e6, 1e6)),
        fixed_seeds=True,
    )
    threading.Thread(target=lambda: (sys.stdin.read(), service.stop()), daemon=True).start()
    sys.exit(service.run())


def wait_for_pin(data_dir: str, port: int, child: subprocess.Popen) -> str:
    """The host PIN, once the companion answers on `port`."""
    from web.access import Access

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and child.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return Access.load(data_dir).pin
        except (OSError, ValueError, KeyError):
            time.sleep(0.2)
    raise RuntimeError("the companion did not start")


class Client:
    """One keep-alive HTTP connection with its own cookie."""

    def __init__(self, port: int, cookie: str = ""):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie = cookie

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        payload = response.read()
        if method == "POST" and response.status == 200 and not self.cookie:
            self.cookie = response.getheader("Set-Cookie", "").split(";")[0]
        return response.status, json.loads(payload) if payload else {}


class StreamClient(threading.Thread):
    """An open page: reads its event stream and notes when each version arrived."""

    def __init__(self, port: int, path: str, cookie: str):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        self.response = self.conn.getresponse()
        assert self.response.status == 200, (path, self.response.status)
        self.arrivals: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        version = None
        for raw in self.response:
            line = raw.decode().rstrip("\n")
            if line.startswith("id: "):
                version = int(line[4:])
            elif line.startswith("data: ") and version is not None:
                self.arrivals.setdefault(version, time.perf_counter())
                self.ready.set()
                version = None


class IdleStreams(threading.Thread):
    """Open pages nobody looks at: raw sockets, each from its own loopback address, drained by
    one thread (so that the measuring process spends its time on the live pages)."""

    def __init__(self, port: int, count: int):
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.answered: set[socket.socket] = set()
        self.ended = 0
        request = b"GET /api/table/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        for i in range(count):
            sock = socket.create_connection(
                ("127.0.0.1", port), timeout=30, source_address=(f"127.0.1.{i % 250 + 1}", 0)
            )
            sock.sendall(request)
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)

    def run(self) -> None:
        while self.selector.get_map():
            for key, _ in self.selector.select(timeout=1.0):
                sock = key.fileobj
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                if data:
                    self.answered.add(sock)
                else:  # the server ended this stream
                    self.ended += 1
                    self.selector.unregister(sock)
                    sock.close()

    def wait_answered(self, count: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while len(self.answered) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return len(self.answered) >= count


def new_game(host: Client, seed: int, moves: list) -> list:
    """Start the recorded game `seed` on the server; its commands follow."""
    status, answer = host.request(
        "POST", "/api/host/new-game", {"seats": NAMES, "seed": seed, "options": {}}
    )
    assert status == 200, answer
    return moves


def percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)

    def at(q: float) -> float:
        return ms[min(len(ms) - 1, round(q * (len(ms) - 1)))]

    return f"p50 {at(0.5):6.2f} ms  p95 {at(0.95):6.2f} ms  p99 {at(0.99):6.2f} ms  (n={len(ms)})"


def cpu_s(pid: int) -> float:
    """CPU time (user + system) the process has used, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> tuple[int, int]:
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=120)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--idle", type=int, default=100, help="idle event streams open")
    parser.add_argument(
        "--trees",
        nargs="+",
        type=Path,
        default=[ROOT],
        help="checkouts whose companion is served, each with its .venv (default: this one)",
    )
    parser.add_argument("--rounds", type=int, default=1, help="runs per tree, interleaved")
    parser.add_argument("--serve", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return 0

    from companion.game import load_game
    from companion.game.random_play import play_random_game

    # Recorded random games, one after another, until there are enough commands.
    games: list[tuple[int, list]] = []
    total, seed = 0, SEED
    while total < args.commands:
        moves = play_random_game(load_game("chac"), NAMES, seed).commands[: args.commands - total]
        games.append((seed, moves))
        total += len(moves)
        seed += 1
    results: dict[Path, list[dict]] = {tree: [] for tree in args.trees}
    for _ in range(args.rounds):
        for tree in args.trees:  # interleaved: the machine's load falls on every tree alike
            results[tree].append(measure(tree.resolve(), args, games))
    for tree, runs in results.items():
        if len(args.trees) > 1:
            print(f"== {tree} ({len(runs)} runs)")
        report(args, games, runs)
    return 0


def measure(tree: Path, args: argparse.Namespace, games: list[tuple[int, list]]) -> dict:
    """One run against the companion of checkout `tree`: its samples and figures."""
    from web.access import Access

    run: dict = {"views": {}}
    with tempfile.TemporaryDirectory() as data_dir:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        child = subprocess.Popen(
            [tree / ".venv/bin/python", tree / "bench/web.py", "--serve", data_dir, str(port)],
            cwd=tree,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},  # leave the other tree as it is
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        try:
            wait_for_pin(data_dir, port, child)
            access = Access.load(data_dir)
            host = Client(port)
            assert host.request("POST", "/api/host/login", {"pin": access.pin})[0] == 200
            seats = [
                Client(port, f"companion_seat={access.seat_token(i)}") for i in range(len(NAMES))
            ]
            new_game(host, games[0][0], [])  # a game on the table for the views
            run["idle_rss"], _ = rss_kib(child.pid)

            # 1. JSON views, one request at a time.
            public = Client(port)
            for name, client, path in (
                ("table", public, "/api/table"),
                ("seat ", seats[0], "/api/seat"),
                ("host ", host, "/api/host"),
            ):
                samples = run["views"].setdefault(name, [])
                for _ in range(args.requests):
                    started = time.perf_counter()
                    status, _ = client.request("GET", path)
                    samples.append(time.perf_counter() - started)
                    assert status == 200

            # 2. Command -> page update with live SSE clients, idle streams open beside them.
            idle = IdleStreams(port, args.idle)
            idle.start()
            assert idle.wait_answered(args.idle, 60), "an idle stream got no view"
            streams = []
            for i in range(args.clients):
                if i < len(NAMES):
                    streams.append(StreamClient(port, "/api/seat/stream", seats[i].cookie))
                elif i == len(NAMES):
                    streams.append(StreamClient(port, "/api/host/stream", host.cookie))
                else:
                    streams.append(StreamClient(port, "/api/table/stream", ""))
            for stream in streams:
                stream.start()
            for stream in streams:
                assert stream.ready.wait(10)
            posts, updates, fanouts = [], [], []
            # What the camera, the OLED and the open streams cost with nothing happening.
            cpu_before, wall_before = cpu_s(child.pid), time.perf_counter()
            time.sleep(3)
            resting = (cpu_s(child.pid) - cpu_before) / (time.perf_counter() - wall_before)
            cpu_before, wall_before = cpu_s(child.pid), time.perf_counter()
            for command in (c for seed, moves in games for c in new_game(host, seed, moves)):
                body = command.to_json()
                client = host if command.seat is None else seats[command.seat]
                path = "/api/host/command" if command.seat is None else "/api/seat/command"
                started = time.perf_counter()
                status, answer = client.request("POST", path, body)
                posts.append(time.perf_counter() - started)
                assert status == 200, (body, answer)
                version = answer["version"]
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline:
                    if all(version in s.arrivals for s in streams):
                        break
                    time.sleep(0.0005)
                else:
                    raise RuntimeError(f"version {version} did not reach every page in 5 s")
                updates.extend(s.arrivals[version] - started for s in streams)
                fanouts.append(max(s.arrivals[version] for s in streams) - started - posts[-1])
            cpu = cpu_s(child.pid) - cpu_before
            wall = time.perf_counter() - wall_before
            run.update(posts=posts, updates=updates, fanouts=fanouts)
            run.update(ended=idle.ended, resting=resting)
            run["cpu_ms"] = (cpu - resting * wall) / len(posts) * 1000
            run["rss"], run["peak"] = rss_kib(child.pid)
        finally:
            child.stdin.close()
            child.wait(10)
    return run


def report(args: argparse.Namespace, games: list, runs: list[dict]) -> None:
    """The figures of `runs` (one tree's), their samples pooled."""
    print(f"JSON views ({args.requests} requests each per run, keep-alive, loopback)")
    for name in runs[0]["views"]:
        print(f"  {name} view  {percentiles([t for r in runs for t in r['views'][name]])}")
    commands = len(runs[0]["posts"])
    print(
        f"Commands ({commands} from {len(games)} random games) with {args.clients} live pages"
        f" and {args.idle} idle streams open ({sum(r['ended'] for r in runs)} of them ended)"
    )
    print(f"  POST command   {percentiles([t for r in runs for t in r['posts']])}")
    updates = [t for r in runs for t in r["updates"]]
    print(f"  page updated   {percentiles(updates)}   (command sent -> view on a page)")
    fanouts = [t for r in runs for t in r["fanouts"]]
    print(f"  all updated    {percentiles(fanouts)}   (command answered -> view on every page)")
    cpu = statistics.median(r["cpu_ms"] for r in runs)
    resting = statistics.median(r["resting"] for r in runs)
    print(
        f"  server CPU     {cpu:6.2f} ms per command (median of runs), beside {resting:.0%} of a"
        " core at rest (camera, dice reader, OLED)"
    )
    rss, peak = max(r["rss"] for r in runs), max(r["peak"] for r in runs)
    print(
        f"Server memory: {runs[0]['idle_rss'] / 1024:.1f} MiB idle, {rss / 1024:.1f} MiB with "
        f"{args.clients + args.idle} streams open (peak {peak / 1024:.1f} MiB)"
    )


if __name__ == "__main__":
    sys.exit(main())
