"""Soak: whole simulated six-player games through the HTTP API and the simulated camera.

    .venv/bin/python bench/soak.py [--games 100] [--fps 15] [--minutes 60] [--trace-memory]

The companion runs in a child process exactly as `companion run --simulate` assembles it
(Service: table, waitress, simulated camera, dice reader, panel), on a loopback port, with the
web rate limits raised (one machine plays all seven phones). This process plays: the host
starts each game with a seed, six seat phones join through their links and send the seats'
commands, and every roll is thrown onto the simulated camera, so the dice reader has to read
it. A reading the companion is unsure of is corrected and confirmed through the host's API,
as a host would; a throw nothing came of (no reading within 10 s) is typed in by hand. A
shadow engine with the same seed follows the acknowledged commands and chooses the next one
(tests/service/tablehttp.py); each finished game's public view must equal the shadow's.

Reported: games and commands played, HTTP errors, rolls entered by the camera alone / read
wrongly with confidence / confirmed by the host / not read at all, command latency
(p50/p99/max), the serving process's RSS after start-up, after the first game, every 10
games and at the end.
It stops early (and says so) after `--minutes`.

Beside the RSS, glibc's heap figures (mallinfo2: bytes in use, and bytes freed but kept by
the allocator) show whether growth is memory in use or memory the allocator holds on to.
`--trace-memory` also looks for what grows in Python: the child traces allocations
(tracemalloc), and at game boundaries collects garbage and saves a snapshot; at the end the
allocation sites that grew most between game 5 (warmed up) and the last game are printed.
Tracing slows the companion down and adds its own memory; a traced run gives no latency or
RSS figures to quote.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "service"))

SEATS = ["Ana", "Ben", "Caro", "Dan", "Eve", "Fay"]
ROLL_TIMEOUT_S = 10.0  # a throw settles and is read within ~1.5 s
TRACE_FRAMES = 8  # call-stack depth kept per traced allocation
TRACE_FROM_GAME = 5  # growth is compared from here (first games fill caches and pools)


def serve(data_dir: str, port: int, fps: float, trace: bool = False) -> None:
    """Child process: the companion's Service on simulated hardware."""
    import logging

    start_probe(Path(data_dir), trace)

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
            "camera.fps": fps,
        }
    )
    limits = Limits(reads=(1e6, 1e6), writes=(1e6, 1e6))
    # fixed seeds: the soak's shadow engine replays each game from the seed it gave
    service = Service(cfg, simulate=True, limits=limits, fixed_seeds=True)
    sys.exit(service.run())


def start_probe(data_dir: Path, trace: bool) -> None:
    """Child: a thread that answers the parent's requests for memory figures. Each request
    (DATA_DIR/probe-N.request) is answered with DATA_DIR/probe-N.json (the heap figures)
    and, when tracing, the snapshot DATA_DIR/probe-N.snap. Files rather than a signal: a
    signal handler that outlasts a timed SimpleQueue.get in the main loop (the buttons' wait)
    makes that wait block for good on Python 3.11."""
    import gc
    import json
    import os
    import threading
    import tracemalloc

    if trace:
        tracemalloc.start(TRACE_FRAMES)

    def answer(number: int) -> None:
        stem = data_dir / f"probe-{number}"
        if trace:
            gc.collect()  # unreachable cycles are not growth
            snap = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            snap.dump(f"{stem}.snap")
        heap = mallinfo()
        if trace:
            heap["traced"] = tracemalloc.get_traced_memory()[0]
            heap["tracing"] = tracemalloc.get_tracemalloc_memory()
        Path(f"{stem}.tmp").write_text(json.dumps(heap))
        os.replace(f"{stem}.tmp", f"{stem}.json")  # last: the parent waits for this name

    def run() -> None:
        number = 1
        while True:
            if (data_dir / f"probe-{number}.request").exists():
                answer(number)
                number += 1
            else:
                time.sleep(0.2)

    threading.Thread(target=run, name="memory-probe", daemon=True).start()


def mallinfo() -> dict[str, int]:
    """glibc's heap, all arenas: bytes in use, free but kept (fragmentation), mmapped."""
    import ctypes

    class Mallinfo2(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_size_t)
            for name in [
                "arena",
                "ordblks",
                "smblks",
                "hblks",
                "hblkhd",
                "usmblks",
                "fsmblks",
                "uordblks",
                "fordblks",
                "keepcost",
            ]
        ]

    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = Mallinfo2
    info = libc.mallinfo2()
    sqlite = ctypes.CDLL(_sqlite_library())  # the copy the sqlite3 module uses
    sqlite.sqlite3_memory_used.restype = ctypes.c_int64
    return {
        "malloc_used": info.uordblks,
        "malloc_free": info.fordblks,
        "mmapped": info.hblkhd,
        "sqlite": sqlite.sqlite3_memory_used(),  # part of malloc_used: page caches, statements
    }


def _sqlite_library() -> str:
    import sqlite3  # noqa: F401  (loads the library)

    for line in Path("/proc/self/maps").read_text().splitlines():
        if "libsqlite3" in line:
            return line.split()[-1]
    import _sqlite3

    return _sqlite3.__file__  # built in statically


class MemoryProbe:
    """Parent: asks the child for its heap figures (and snapshots) at game boundaries."""

    def __init__(self, child: subprocess.Popen, data_dir: Path, trace: bool):
        self.child, self.data_dir, self.trace = child, data_dir, trace
        self.taken: dict[int, int] = {}  # games played -> probe number
        self.heaps: dict[int, dict[str, int]] = {}

    def take(self, games: int) -> dict[str, int]:
        import json

        number = len(self.taken) + 1
        stem = self.data_dir / f"probe-{number}"
        Path(f"{stem}.request").touch()
        deadline = time.monotonic() + 300
        while not Path(f"{stem}.json").exists():
            if time.monotonic() > deadline or self.child.poll() is not None:
                raise RuntimeError("the companion answered no memory probe")
            time.sleep(0.1)
        heap = json.loads(Path(f"{stem}.json").read_text())
        heap["rss"] = rss_kib(self.child.pid) * 1024
        self.taken[games], self.heaps[games] = number, heap
        return heap

    @staticmethod
    def heap_line(heap: dict[str, int]) -> str:
        mib = lambda key: f"{heap[key] / 2**20:.1f}"  # noqa: E731
        line = f"malloc in use {mib('malloc_used')} MiB (SQLite {mib('sqlite')} MiB)"
        line += f", free {mib('malloc_free')} MiB"
        if "traced" in heap:
            line += f", Python traced {mib('traced')} MiB (tracing itself {mib('tracing')} MiB)"
        return line

    def table(self) -> None:
        print("memory after game N, MiB: RSS / malloc in use / of it SQLite / malloc kept free")
        for games, heap in self.heaps.items():
            keys = ("rss", "malloc_used", "sqlite", "malloc_free")
            print(f"  {games:4d}: " + " / ".join(f"{heap[k] / 2**20:6.1f}" for k in keys))

    def report(self, top: int = 15) -> None:
        import tracemalloc

        first = TRACE_FROM_GAME if TRACE_FROM_GAME in self.taken else min(self.taken)
        last = max(self.taken)
        if first == last:
            return
        load = lambda games: tracemalloc.Snapshot.load(  # noqa: E731
            str(self.data_dir / f"probe-{self.taken[games]}.snap")
        )
        old, new = load(first), load(last)
        print(f"top growing allocation sites, game {first} -> game {last}:")
        for stat in new.compare_to(old, "lineno")[:top]:
            print(f"  {stat}")
        print("their call stacks (the three largest):")
        for stat in new.compare_to(old, "traceback")[:3]:
            print(f"  {stat.size_diff / 1024:+.1f} KiB in {stat.count_diff:+d} blocks:")
            for line in stat.traceback.format(most_recent_first=True):
                print(f"    {line}")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Soak:
    def __init__(self, base: str, pin: str):
        self.base, self.pin = base, pin
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.commands = 0
        self.rolls = {"camera": 0, "confirmed": 0, "misread": 0, "unread": 0}

    def play(self, seed: int, deadline: float) -> bool:
        """One whole game; False if the deadline came first."""
        from tablehttp import HttpTable, Phone

        table = HttpTable(self.base, self.pin, SEATS, seed)
        sim = Phone(self.base)
        while not table.over:
            if time.monotonic() > deadline:
                return False
            command = table.choose()
            if command.type == "dice":
                self._roll(table, sim, list(command.args["values"]))
                continue
            started = time.perf_counter()
            status, body = table.send(command)
            self.latencies.append(time.perf_counter() - started)
            self.commands += 1
            if status != 200:
                self.errors.append(f"game {seed}: {command.to_json()} -> {status} {body}")
                return True
        status, body = sim.get("/api/table")
        if body["view"] != table.public_view():
            self.errors.append(f"game {seed}: the table's view differs from the shadow's")
        return True

    def _roll(self, table, sim, values: list[int]) -> None:
        from companion.game.protocol import Command

        version = table.version
        status, body = sim.post("/api/sim/throw", {"values": values})
        if status != 200:
            self.errors.append(f"throw {values} -> {status} {body}")
            return
        deadline = time.monotonic() + ROLL_TIMEOUT_S
        while time.monotonic() < deadline:
            state = sim.get("/api/sim/state")[1]
            if state["version"] != version:  # the camera's reading was entered
                if state["last_entered_version"] != state["version"]:
                    continue  # the table has it; the watcher is still noting it down
                entered = state["last_entered"]
                self.rolls["camera"] += 1
                self.rolls["misread"] += sorted(entered) != sorted(values)
                table.applied(Command("dice", None, {"values": entered}), state["version"])
                self.commands += 1
                return
            if state["pending"] is not None:
                started = time.perf_counter()
                status, body = table.host.post("/api/service/roll/confirm", {"values": values})
                self.latencies.append(time.perf_counter() - started)
                if status != 200:
                    self.errors.append(f"confirm {values} -> {status} {body}")
                    return
                table.applied(Command("dice", None, {"values": values}), body["version"])
                self.rolls["confirmed"] += 1
                self.commands += 1
                return
            time.sleep(0.03)
        # Nothing came of the throw (the reader saw no dice): the host types the dice in.
        self.rolls["unread"] += 1
        command = Command("dice", None, {"values": values})
        status, body = table.send(command)
        self.commands += 1
        if status != 200:
            self.errors.append(f"dice {values} entered by hand -> {status} {body}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--fps", type=float, default=15.0, help="simulated camera frame rate")
    parser.add_argument("--minutes", type=float, default=60.0, help="stop after this long")
    parser.add_argument(
        "--trace-memory", action="store_true", help="print the allocation sites that grow"
    )
    parser.add_argument("--serve", nargs=3, metavar=("DATA_DIR", "PORT", "FPS"), help="internal")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), float(args.serve[2]), args.trace_memory)
        return 0

    from tablehttp import Phone

    with tempfile.TemporaryDirectory() as data_dir:
        port = free_port()
        child = subprocess.Popen(
            [sys.executable, __file__, "--serve", data_dir, str(port), str(args.fps)]
            + (["--trace-memory"] if args.trace_memory else []),
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            pin = None
            for line in child.stdout:
                if "PIN" in line:
                    pin = line.split("PIN")[1].strip()
                if line.startswith("Simulated table"):
                    break
            base = f"http://127.0.0.1:{port}"
            assert pin and Phone(base).get("/api/table")[0] == 200
            probe = MemoryProbe(child, Path(data_dir), args.trace_memory)
            heap = probe.take(0)
            rss = {"start": rss_kib(child.pid)}
            print(f"start: RSS {rss['start']} KiB, {probe.heap_line(heap)}", flush=True)
            soak = Soak(base, pin)
            started = time.monotonic()
            deadline = started + args.minutes * 60
            games = 0
            for seed in range(1, args.games + 1):
                if not soak.play(seed, deadline):
                    print(f"stopped by --minutes in game {seed}")
                    break
                games += 1
                if games in (1, TRACE_FROM_GAME) or games % 10 == 0:
                    heap = probe.take(games)
                if games == 1:
                    rss["after game 1"] = rss_kib(child.pid)
                if games % 10 == 0:
                    print(
                        f"{games} games, {soak.commands} commands, "
                        f"{time.monotonic() - started:.0f} s, RSS {rss_kib(child.pid)} KiB, "
                        + probe.heap_line(heap),
                        flush=True,
                    )
            elapsed = time.monotonic() - started
            rss["end"] = rss_kib(child.pid)
            if games not in probe.taken:
                probe.take(games)
            print(f"end: RSS {rss['end']} KiB, {probe.heap_line(probe.heaps[games])}")
            probe.table()
            if args.trace_memory:
                probe.report()
        finally:
            child.terminate()
            try:
                code: int | str = child.wait(30)
            except subprocess.TimeoutExpired:  # reported, not a crash that loses the figures
                child.kill()
                child.wait()
                code = "none: still running 30 s after SIGTERM, killed"
    lat = sorted(soak.latencies)
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    print(f"games completed: {games} of {args.games} in {elapsed:.0f} s")
    print(f"commands: {soak.commands} ({soak.commands / elapsed:.1f}/s)")
    print(f"errors: {len(soak.errors)}")
    for error in soak.errors[:10]:
        print("  ", error)
    print(
        f"rolls: {soak.rolls['camera']} entered by the camera "
        f"({soak.rolls['misread']} of them read wrongly), "
        f"{soak.rolls['confirmed']} confirmed by the host, "
        f"{soak.rolls['unread']} not read at all (typed in by hand)"
    )
    if lat:
        print(
            f"command latency ms: p50 {p(0.5):.1f}  p99 {p(0.99):.1f}  max {lat[-1] * 1000:.1f}"
            f"  mean {statistics.fmean(lat) * 1000:.1f}"
        )
    print("RSS KiB: " + ", ".join(f"{k} {v}" for k, v in rss.items()))
    print(f"companion exit code after SIGTERM: {code}")
    return 1 if soak.errors or code != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
