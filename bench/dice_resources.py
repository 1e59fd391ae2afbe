"""What reading a settled roll costs: time per frame size, the settle check, memory.

    taskset -c 1 .venv/bin/python bench/dice_resources.py [--rolls 100] [--reader detector]
    taskset -c 1 .venv/bin/python bench/dice_resources.py --reader detector --calibrated

Rendered rolls of 1-8 dice at 640x480 (dice 30-56 px) and at 1280x720 (dice 45-110 px), each
read with the count the table asked for, on one OpenCV thread: p50/p95 wall time of a read
and of `SettleDetector.motion` (the check every frame gets), and the processor time of both
(which other programs on a busy core inflate less), and how much the reader and its models
add to the process's resident memory (after NumPy and OpenCV are loaded, as they are in the
service; the detector's with the pip search it asks about doubted rolls). `--calibrated`:
each roll read with the profile calibrated to the size its dice were rendered at, as on a
table whose calibration measured them; for the detector, its network passes per read.
"""

from __future__ import annotations

import argparse
import json
import time

from companion.dice.readers import DEFAULT, READERS


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rolls", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reader", choices=READERS, default=DEFAULT)
    ap.add_argument(
        "--calibrated", action="store_true", help="read at each roll's calibrated die size"
    )
    args = ap.parse_args()

    import cv2
    import numpy as np

    cv2.setNumThreads(1)
    from companion.dice import synth

    rng = np.random.default_rng(args.seed)
    first = synth.render(
        synth.random_scene([1, 2, 3, 4, 5, 6], rng, width=1280, height=720, size=80.0), rng
    )
    base = _rss_mb()  # the frame and the renderer are not the reader's
    if args.reader == "detector":
        from companion.dice.learned import default_profile, read
    else:
        from companion.dice.reader import default_profile, read
    from companion.dice.settle import SettleDetector
    from companion.dice.tune import with_die_share

    def passes() -> int:
        if args.reader != "detector":
            return 0
        from companion.dice import detector

        return detector.model().passes

    read(first, expected=6)  # loads the model, allocates its buffers
    if args.reader == "detector":
        from companion.dice.reader import read as pip_search

        pip_search(first, expected=6)  # the detector's second opinion on a doubted roll
    out: dict = {"reader_rss_added_mb": round(_rss_mb() - base, 1)}
    for width, height, sizes in ((640, 480, (30, 56)), (1280, 720, (45, 110))):
        frames = []
        for _ in range(args.rolls):
            faces = [int(f) for f in rng.integers(1, 7, int(rng.integers(1, 9)))]
            scene = synth.random_scene(
                faces, rng, width=width, height=height, size=float(rng.uniform(*sizes))
            )
            size = float(np.median([d.size for d in scene.dice]))
            profile = with_die_share(default_profile(), size / width if args.calibrated else 0)
            frames.append((synth.render(scene, rng), len(faces), profile))
        times, read_cpu = [], []
        before = passes()
        for frame, n, profile in frames:
            t0, c0 = time.perf_counter(), time.thread_time()
            read(frame, profile, expected=n)
            times.append((time.perf_counter() - t0) * 1000)
            read_cpu.append((time.thread_time() - c0) * 1000)
        per_read = (passes() - before) / len(frames)
        settle = SettleDetector(default_profile())
        checks, check_cpu = [], []
        for frame, _, _ in frames:
            t0, c0 = time.perf_counter(), time.thread_time()
            settle.motion(frame)
            checks.append((time.perf_counter() - t0) * 1000)
            check_cpu.append((time.thread_time() - c0) * 1000)
        out[f"{width}x{height}"] = {
            "read_ms_p50": round(float(np.percentile(times, 50)), 2),
            "read_ms_p95": round(float(np.percentile(times, 95)), 2),
            "read_cpu_ms_p50": round(float(np.percentile(read_cpu, 50)), 2),
            "read_cpu_ms_p95": round(float(np.percentile(read_cpu, 95)), 2),
            "settle_check_ms_p95": round(float(np.percentile(checks, 95)), 3),
            "settle_check_cpu_ms_p95": round(float(np.percentile(check_cpu, 95)), 3),
            **({"passes_per_read": round(per_read, 2)} if args.reader == "detector" else {}),
        }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
