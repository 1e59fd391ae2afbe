"""Dice reader speed on one core, and what it read, for comparing two versions of the reader.

    taskset -c 1 .venv/bin/python bench/dice_speed.py ../shared/data/dice/* --synthetic 300
    taskset -c 1 .venv/bin/python bench/dice_speed.py ../shared/data/dice/* --reader detector
    taskset -c 1 .venv/bin/python bench/dice_speed.py ../shared/data/dice/* --reader detector \
        --calibrate 3 --synthetic 0
    taskset -c 1 .venv/bin/python bench/dice_speed.py ../shared/data/dice/* --against ../old
    taskset -c 1 .venv/bin/python bench/dice_speed.py ../shared/data/dice/* --dump now.json
    .venv/bin/python bench/dice_speed.py --compare before.json now.json

Each frame is loaded (or rendered) first, then read `--repeat` times on one OpenCV thread;
its time is the best of those reads, so other work on a shared machine counts as little as
it can. Per set: p50/p95 of those times (wall clock, and CPU time of the reading thread,
which other processes on the core inflate less), per-die accuracy and confident errors, and
for the detector its network passes per read.

`--calibrate N` calibrates the die size on each photo set's first N images, as the owner's
calibration does on three rolls, and reads the rest of the set with it (those N are not
scored; the rendered trays, each a camera of its own, are read uncalibrated).

`--against TREE` reads every frame with this tree's reader and with the one in TREE (a
checkout of the repository), frame by frame in turn, so both meet the same load; then it
lists the images the two read differently. `--dump` writes every image's reading (faces,
boxes, confidences, flags) and the figures as JSON; `--compare A B` compares two dumps.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from companion.dice.readers import DEFAULT, READERS

HERE = Path(__file__).resolve().parents[1]


def _samples(folders: list[str], synthetic: int, seed: int):
    """(set name, sample) in order, loading and rendering as it goes."""
    from companion.dice.scoring import load_set, synthetic_set

    for folder in folders:
        if Path(folder).is_dir():
            for sample in load_set(folder):
                yield Path(folder).name, sample
    if synthetic:
        for sample in synthetic_set(synthetic, seed=seed):
            yield f"synthetic-{synthetic}", sample


def _timed_reads(args):
    """One record per frame: set, image, best wall and CPU ms, truth and reading."""
    import cv2

    from companion.dice.profile import load

    try:
        from companion.dice.readers import read_function
    except ImportError:  # a tree of `--against` from before the readers could be chosen
        from companion.dice.reader import read
    else:
        read = read_function(args.reader)
    cv2.setNumThreads(1)
    profile = load(args.profile)
    passes = _pass_counter(args.reader)
    rolls: dict[str, list] = {}  # each photo set's calibration rolls
    calibrated: dict[str, object] = {}  # each photo set's calibrated profile
    for name, sample in _samples(args.sets, args.synthetic, args.seed):
        used = profile
        if args.calibrate and not name.startswith("synthetic-"):
            calibration = rolls.setdefault(name, [])
            if len(calibration) < args.calibrate:
                calibration.append(sample)
                continue
            if name not in calibrated:
                calibrated[name] = _calibrated(name, calibration, profile, args.reader)
            used = calibrated[name]
        frame = sample.load()  # loading and rendering are not timed
        wall, cpu = float("inf"), float("inf")
        before = passes()
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.thread_time()
            reading = read(frame, used, expected=len(sample.faces))
            wall = min(wall, time.perf_counter() - t0)
            cpu = min(cpu, time.thread_time() - c0)
        yield {
            "set": name,
            "image": sample.name,
            "ms": wall * 1000,
            "cpu_ms": cpu * 1000,
            "passes": (passes() - before) / args.repeat if before is not None else None,
            "truth": sorted(sample.faces),
            **reading.to_json(),
        }


def _pass_counter(reader: str):
    """The detector's network passes so far (None for another reader, or a tree of
    `--against` whose detector does not count them)."""
    if reader != "detector":
        return lambda: None
    from companion.dice import detector

    return lambda: getattr(detector.model(), "passes", None)


def _calibrated(name: str, rolls: list, profile, reader: str):
    """`profile` calibrated for `reader` as the owner's calibration does, on a set's first
    images as its rolls."""
    from calibration.session import default_tuner

    tuned, before, after = default_tuner(reader)(
        [(s.load(), list(s.faces)) for s in rolls], profile
    )
    told = tuned.scale.calibrated_die
    print(
        f"{name}: calibrated on {len(rolls)} images: die size "
        + (f"{told:.4f} of the longest side" if told else "not told")
        + f", dice read right {before:.0%} before, {after:.0%} after",
        file=sys.stderr,
    )
    return tuned


def _summaries(records: list[dict]) -> dict:
    """Per set: accuracy as `companion dice bench` scores it, and the timings."""
    import numpy as np

    from companion.dice.reading import Die, Reading
    from companion.dice.scoring import Sample, Score

    out: dict[str, dict] = {}
    for rec in records:
        entry = out.setdefault(rec["set"], {"score": Score(rec["set"]), "cpu": [], "readings": {}})
        dice = tuple(
            Die(d["face"], tuple(d["box"]), tuple(d["centre"]), d["confidence"], tuple(d["flags"]))
            for d in rec["dice"]
        )
        reading = Reading(dice, rec["status"], tuple(rec["problems"]), rec["expected"])
        entry["score"].add(Sample(rec["image"], tuple(rec["truth"])), reading, rec["ms"])
        entry["cpu"].append(rec["cpu_ms"])
        if rec.get("passes") is not None:
            entry.setdefault("passes", []).append(rec["passes"])
        entry["readings"][rec["image"]] = {
            k: rec[k] for k in ("truth", "status", "values", "problems", "dice")
        }
    result = {}
    for name, entry in out.items():
        score, cpu = entry["score"], np.array(entry["cpu"])
        summary = score.summary()
        summary["ms_max"] = round(max(score.ms), 2)
        summary["cpu_ms_p50"] = round(float(np.percentile(cpu, 50)), 2)
        summary["cpu_ms_p95"] = round(float(np.percentile(cpu, 95)), 2)
        summary["confident_errors"] = score.confident_errors
        if entry.get("passes"):
            summary["passes_per_read"] = round(float(np.mean(entry["passes"])), 2)
        result[name] = {"summary": summary, "readings": entry["readings"]}
    return result


_HEAD = (
    f"{'':<7}{'set':<24} {'images':>6} {'dice':>5} {'per-die':>8} {'conf.err':>8} "
    f"{'ms p50':>7} {'ms p95':>7} {'ms max':>7} {'cpu p50':>7} {'cpu p95':>7} {'passes':>6}"
)


def _line(s: dict, label: str = "") -> str:
    return (
        f"{label:<7}{s['set'][:24]:<24} {s['images']:>6} {s['dice']:>5} "
        f"{s['per_die_accuracy']:>8.1%} {s['confident_errors']:>8} {s['ms_p50']:>7.2f} "
        f"{s['ms_p95']:>7.2f} {s['ms_max']:>7.2f} {s['cpu_ms_p50']:>7.2f} {s['cpu_ms_p95']:>7.2f} "
        f"{s.get('passes_per_read', '-'):>6}"
    )


def compare(a: dict, b: dict, a_label: str = "before", b_label: str = "after") -> int:
    """Print the images two runs read differently, then both runs' figures; 1 if any differ."""
    differ = 0
    for name in a:
        if name not in b:
            print(f"{name}: only in the {a_label} run")
            continue
        ra, rb = a[name]["readings"], b[name]["readings"]
        changed = sorted(k for k in ra if ra[k] != rb.get(k))
        differ += len(changed)
        print(f"{name}: {len(changed)} of {len(ra)} images read differently")
        for k in changed:
            before, after = ra[k], rb.get(k, {})
            print(f"  {k}: truth {before['truth']}")
            print(f"    {a_label:<6} {before['status']} {before['values']} {before['dice']}")
            print(
                f"    {b_label:<6} {after.get('status')} {after.get('values')} {after.get('dice')}"
            )
    print(_HEAD)
    for name in a:
        if name in b:
            print(_line(a[name]["summary"], a_label))
            print(_line(b[name]["summary"], b_label))
    return 1 if differ else 0


def _worker(args) -> int:
    """Read the next frame each time a line comes in; answer with its record."""
    reads = _timed_reads(args)
    for _ in sys.stdin:
        record = next(reads, None)
        print(json.dumps(record), flush=True)
        if record is None:
            break
    return 0


def _side_by_side(args) -> tuple[dict, dict]:
    """This tree's reader and TREE's, each in its own process, frame by frame in turn."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", *args.sets]
    cmd += ["--synthetic", str(args.synthetic), "--seed", str(args.seed)]
    cmd += ["--repeat", str(args.repeat), "--reader", args.reader]
    cmd += ["--calibrate", str(args.calibrate)] if args.calibrate else []
    cmd += ["--profile", args.profile] if args.profile else []
    procs = []
    for tree in (Path(args.against).resolve(), HERE):
        env = {**os.environ, "PYTHONPATH": str(tree)}
        procs.append(
            subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        )
    runs: list[list[dict]] = [[], []]
    while True:
        got = []
        for proc in procs:
            proc.stdin.write("next\n")
            proc.stdin.flush()
            got.append(json.loads(proc.stdout.readline()))
        if got[0] is None or got[1] is None:
            break
        for run, record in zip(runs, got, strict=True):
            run.append(record)
    for proc in procs:
        proc.stdin.close()
        proc.wait()
    return _summaries(runs[0]), _summaries(runs[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("sets", nargs="*", metavar="DIR", help="labelled sets (images/ + labels.jsonl)")
    ap.add_argument("--synthetic", type=int, default=300, metavar="N", help="rendered trays")
    ap.add_argument("--seed", type=int, default=0, help="seed of the rendered trays")
    ap.add_argument("--repeat", type=int, default=3, help="reads per frame; the best counts")
    ap.add_argument("--profile", help="dice profile TOML (default: the shipped default)")
    ap.add_argument("--reader", choices=READERS, default=DEFAULT, help=f"default {DEFAULT}")
    ap.add_argument(
        "--calibrate",
        type=int,
        default=0,
        metavar="N",
        help="calibrate the die size on each photo set's first N images, read the rest with it",
    )
    ap.add_argument("--dump", metavar="FILE", help="write readings and figures as JSON")
    ap.add_argument("--against", metavar="TREE", help="also time TREE's reader, frame by frame")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two dumps")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return _worker(args)
    if args.compare:
        a, b = (json.loads(Path(p).read_text(encoding="utf-8")) for p in args.compare)
        return compare(a, b)
    if args.against:
        theirs, ours = _side_by_side(args)
        if args.dump:
            Path(args.dump).write_text(json.dumps(ours, indent=1), encoding="utf-8")
        return compare(theirs, ours, "theirs", "ours")
    result = _summaries(list(_timed_reads(args)))
    print(_HEAD)
    for entry in result.values():
        print(_line(entry["summary"]))
    if args.dump:
        Path(args.dump).write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
