"""Dice reader speed on one core, and what it read, for comparing two versions of the reader.

    taskset -c 1 .venv/bin/python bench/dice_speed.py ../shared/data/dice/* \\
        --synthetic 300 --dump before.json
    taskset -c 1 .venv/bin/python bench/dice_speed.py --compare before.json after.json

Each frame is loaded (or rendered) first, then read `--repeat` times on one OpenCV thread;
its time is the best of those reads, so other work on a shared machine counts as little as
it can. Per set: p50/p95 of those times (wall clock, and CPU time of the reading thread,
which other processes on the core do not inflate), per-die accuracy and confident errors. `--dump`
writes every image's reading (faces, boxes, confidences, flags) as JSON; `--compare A B`
lists the images read differently and both versions' accuracy per set.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def _sets(folders: list[str], synthetic: int, seed: int):
    from companion.dice.scoring import load_set, synthetic_set

    for folder in folders:
        if Path(folder).is_dir():
            yield Path(folder).name, load_set(folder)
    if synthetic:
        yield f"synthetic-{synthetic}", synthetic_set(synthetic, seed=seed)


def measure(folders: list[str], synthetic: int, seed: int, repeat: int, profile_path=None) -> dict:
    import cv2
    import numpy as np

    from companion.dice.profile import load
    from companion.dice.reader import read
    from companion.dice.scoring import Score

    cv2.setNumThreads(1)
    profile = load(profile_path)
    out = {}
    for name, samples in _sets(folders, synthetic, seed):
        score = Score(name)
        readings = {}
        cpu = []
        for sample in samples:
            frame = sample.load()  # loading and rendering are not timed
            best, best_cpu = float("inf"), float("inf")
            for _ in range(repeat):
                t0, c0 = time.perf_counter(), time.thread_time()
                reading = read(frame, profile, expected=len(sample.faces))
                best = min(best, time.perf_counter() - t0)
                best_cpu = min(best_cpu, time.thread_time() - c0)
            score.add(sample, reading, best * 1000)
            cpu.append(best_cpu * 1000)
            readings[sample.name] = {"truth": sorted(sample.faces), **reading.to_json()}
        summary = score.summary()
        ms = np.array(score.ms)
        summary["ms_p50"] = round(float(np.percentile(ms, 50)), 2)
        summary["ms_p95"] = round(float(np.percentile(ms, 95)), 2)
        summary["ms_max"] = round(float(ms.max()), 2)
        summary["cpu_ms_p50"] = round(float(np.percentile(cpu, 50)), 2)
        summary["cpu_ms_p95"] = round(float(np.percentile(cpu, 95)), 2)
        summary["confident_errors"] = score.confident_errors
        summary["correct"] = score.correct
        out[name] = {"summary": summary, "readings": readings}
    return out


def _line(s: dict, label: str = "") -> str:
    return (
        f"{label:<7}{s['set'][:24]:<24} {s['images']:>6} {s['dice']:>5} "
        f"{s['per_die_accuracy']:>8.1%} {s['confident_errors']:>8} {s['ms_p50']:>7.2f} "
        f"{s['ms_p95']:>7.2f} {s['ms_max']:>7.2f} {s['cpu_ms_p50']:>7.2f} {s['cpu_ms_p95']:>7.2f}"
    )


_HEAD = (
    f"{'':<7}{'set':<24} {'images':>6} {'dice':>5} {'per-die':>8} {'conf.err':>8} "
    f"{'ms p50':>7} {'ms p95':>7} {'ms max':>7} {'cpu p50':>7} {'cpu p95':>7}"
)


def compare(a_path: str, b_path: str) -> int:
    a = json.loads(Path(a_path).read_text(encoding="utf-8"))
    b = json.loads(Path(b_path).read_text(encoding="utf-8"))
    differ = 0
    for name in a:
        if name not in b:
            print(f"{name}: only in {a_path}")
            continue
        ra, rb = a[name]["readings"], b[name]["readings"]
        changed = sorted(k for k in ra if ra[k] != rb.get(k))
        differ += len(changed)
        print(f"{name}: {len(changed)} of {len(ra)} images read differently")
        for k in changed:
            before, after = ra[k], rb.get(k, {})
            print(f"  {k}: truth {before['truth']}")
            print(f"    before {before['status']} {before['values']} {before['dice']}")
            print(f"    after  {after.get('status')} {after.get('values')} {after.get('dice')}")
    print(_HEAD)
    for name in a:
        if name in b:
            print(_line(a[name]["summary"], "before"))
            print(_line(b[name]["summary"], "after"))
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("sets", nargs="*", metavar="DIR", help="labelled sets (images/ + labels.jsonl)")
    ap.add_argument("--synthetic", type=int, default=300, metavar="N", help="rendered trays")
    ap.add_argument("--seed", type=int, default=0, help="seed of the rendered trays")
    ap.add_argument("--repeat", type=int, default=3, help="reads per frame; the best counts")
    ap.add_argument("--profile", help="dice profile TOML (default: the shipped default)")
    ap.add_argument("--dump", metavar="FILE", help="write readings and figures as JSON")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two dumps")
    args = ap.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    result = measure(args.sets, args.synthetic, args.seed, args.repeat, args.profile)
    print(_HEAD)
    for entry in result.values():
        print(_line(entry["summary"]))
    if args.dump:
        Path(args.dump).write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
