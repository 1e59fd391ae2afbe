"""Soak: whole simulated six-player games through the HTTP API and the simulated camera.

    .venv/bin/python bench/soak.py [--games 100] [--fps 15] [--minutes 60]

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
(p50/p99/max), the serving process's RSS after start-up, after the first game and at the end.
It stops early (and says so) after `--minutes`.
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


def serve(data_dir: str, port: int, fps: float) -> None:
    """Child process: the companion's Service on simulated hardware."""
    import logging

    from companion import config
    from companion.service import Service
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
    service = Service(cfg, simulate=True, limits=Limits(reads=(1e6, 1e6), writes=(1e6, 1e6)))
    sys.exit(service.run())


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
    parser.add_argument("--serve", nargs=3, metavar=("DATA_DIR", "PORT", "FPS"), help="internal")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), float(args.serve[2]))
        return 0

    from tablehttp import Phone

    with tempfile.TemporaryDirectory() as data_dir:
        port = free_port()
        child = subprocess.Popen(
            [sys.executable, __file__, "--serve", data_dir, str(port), str(args.fps)],
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
            rss = {"start": rss_kib(child.pid)}
            soak = Soak(base, pin)
            started = time.monotonic()
            deadline = started + args.minutes * 60
            games = 0
            for seed in range(1, args.games + 1):
                if not soak.play(seed, deadline):
                    print(f"stopped by --minutes in game {seed}")
                    break
                games += 1
                if games == 1:
                    rss["after game 1"] = rss_kib(child.pid)
                if games % 10 == 0:
                    print(
                        f"{games} games, {soak.commands} commands, "
                        f"{time.monotonic() - started:.0f} s, RSS {rss_kib(child.pid)} KiB",
                        flush=True,
                    )
            rss["end"] = rss_kib(child.pid)
            elapsed = time.monotonic() - started
        finally:
            child.terminate()
            code = child.wait(30)
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
