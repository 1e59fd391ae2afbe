"""How long a throw takes to reach the table: from the dice coming to rest on the simulated
camera to the reading on the Table, the OLED and the table page's event stream.

    .venv/bin/python bench/roll_latency.py [--throws 40] [--fps 8] [--seed 3] [--reader detector]

The companion runs in this process as `companion run --simulate` assembles it (Service:
simulated camera rendering the dice, the camera thread, settle detection, the dice reader,
the roll watcher, the panel and OLED loop, waitress). A six-seat game is taken to its first
"roll 5 dice" prompt; each throw puts random faces on the simulated camera, and once the
reading is in (entered hands-free, or waiting for the table to confirm) the entry is undone
so the next throw answers the same prompt.

Per throw, from the wall-clock moment the camera handed out the throw's first frame at rest
(`SimCamera.rested_at`), to:
- `table`: the Table took the dice (hands-free), or the reading waits for confirmation;
- `oled`: the next picture drawn on the (simulated) OLED after that;
- `page`: the table page's event stream (`/api/table/stream`) delivered the new view
  (hands-free throws only).
p50/p95/max in milliseconds, and how many throws were hands-free. `--fps` and `--reader` default
to the settings' `camera.fps` and `dice.reader`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "service"))

from companion.dice.readers import READERS  # noqa: E402  (after the path above)

READ_TIMEOUT_S = 10.0


class Arrivals:
    """Wall-clock times of events, and the first one at or after a moment."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self._lock = threading.Lock()

    def add(self) -> None:
        with self._lock:
            self.times.append(time.monotonic())

    def first_after(self, moment: float, timeout: float = 2.0) -> float | None:
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                later = [t for t in self.times if t >= moment]
            if later:
                return later[0]
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.002)


def watch_stream(port: int, arrivals: Arrivals, stop: threading.Event) -> None:
    """Read the table page's event stream; note when each view arrives."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/table/stream", headers={"Accept": "text/event-stream"})
    response = conn.getresponse()
    while not stop.is_set():
        line = response.readline()
        if not line:
            return
        if line.startswith(b"event: view"):
            arrivals.add()
    conn.close()


def watch_oled(display, arrivals: Arrivals, stop: threading.Event) -> None:
    version = display.version
    while not stop.is_set():
        newer = display.wait(version, timeout=0.5)
        if newer > version:
            version = newer
            arrivals.add()


def summary(values_ms: list[float]) -> dict[str, float | int]:
    if not values_ms:
        return {"n": 0}
    ordered = sorted(values_ms)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "n": len(ordered),
        "p50": round(statistics.median(ordered)),
        "p95": round(p95),
        "max": round(ordered[-1]),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--throws", type=int, default=40)
    ap.add_argument("--fps", type=float, default=None, help="camera.fps (default: the setting's)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--reader", choices=READERS, help="dice.reader (default: the setting's)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)

    from servicekit import free_port

    from companion import config
    from companion.runtime.service import Service
    from web.app import Limits

    overrides = {
        "hardware": "sim",
        "data_dir": tempfile.mkdtemp(prefix="roll-latency-"),
        "web.host": "127.0.0.1",
        "web.port": free_port(),
    }
    if args.fps is not None:
        overrides["camera.fps"] = args.fps
    if args.reader is not None:
        overrides["dice.reader"] = args.reader
    cfg = config.load(overrides=overrides)
    service = Service(
        cfg, simulate=True, limits=Limits(reads=(500, 500)), sim_seed=args.seed, fixed_seeds=True
    )
    runner = threading.Thread(target=service.run, name="service-main")
    runner.start()
    stop = threading.Event()
    try:
        return measure(service, cfg, args, stop)
    finally:
        stop.set()
        service.stop()
        runner.join(15)


def measure(service, cfg, args, stop: threading.Event) -> int:
    from servicekit import to_first_roll, wait_for

    table, rolls, camera = service.table, service.rolls, service.camera
    to_first_roll(table)
    entered, pending, oled, page = Arrivals(), Arrivals(), Arrivals(), Arrivals()
    table.subscribe(lambda _version: entered.add())
    rolls.subscribe(lambda: pending.add() if rolls.pending is not None else None)
    threads = [
        threading.Thread(target=watch_stream, args=(cfg.web.port, page, stop), daemon=True),
        threading.Thread(target=watch_oled, args=(service._display, oled, stop), daemon=True),
    ]
    for thread in threads:
        thread.start()
    rng = random.Random(args.seed)
    to_table, to_oled, to_page = [], [], []
    hands_free = flagged = missed = 0
    for _ in range(args.throws):
        version = table.version
        service.simulator.throw(5, [rng.randint(1, 6) for _ in range(5)])
        done = wait_for(
            lambda v=version: table.version != v or rolls.pending is not None,
            timeout=READ_TIMEOUT_S,
            step=0.005,
        )
        rested = camera.rested_at
        if not done or rested is None:
            missed += 1
            continue
        auto = table.version != version
        arrived = (entered if auto else pending).first_after(rested, timeout=0)
        if arrived is None:
            missed += 1
            continue
        to_table.append((arrived - rested) * 1000)
        shown = oled.first_after(arrived)
        if shown is not None:
            to_oled.append((shown - rested) * 1000)
        if auto:
            hands_free += 1
            streamed = page.first_after(arrived)
            if streamed is not None:
                to_page.append((streamed - rested) * 1000)
            time.sleep(0.2)  # let the pages and OLED catch up before the undo
            table.undo()
        else:
            flagged += 1
            rolls.discard()
        time.sleep(0.3)
    report = {
        "reader": cfg.dice.reader,
        "fps": cfg.camera.fps,
        "throws": args.throws,
        "hands_free": hands_free,
        "flagged": flagged,
        "no_reading": missed,
        "rest_to_table_ms": summary(to_table),
        "rest_to_oled_ms": summary(to_oled),
        "rest_to_page_ms": summary(to_page),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
