"""`companion dice read` and `companion dice bench`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers) -> None:
    dice = subparsers.add_parser("dice", help="read pip dice from images; measure the reader")
    sub = dice.add_subparsers(dest="dice_command", metavar="ACTION")
    dice.set_defaults(func=lambda args: _usage(dice))

    rd = sub.add_parser("read", help="read the dice in camera images")
    rd.add_argument("images", nargs="+", metavar="IMAGE")
    rd.add_argument("--profile", help="dice profile TOML (default: the shipped default)")
    rd.add_argument("--expect", type=int, metavar="N", help="how many dice were rolled")
    rd.add_argument("--json", action="store_true", help="one JSON object per image")
    rd.add_argument(
        "--annotate",
        metavar="OUT.png",
        help="write the image with what was read drawn on it (several images: OUT-NAME.png)",
    )
    rd.set_defaults(func=cmd_read)

    bn = sub.add_parser("bench", help="score the reader on labelled sets (images/ + labels.jsonl)")
    bn.add_argument("sets", nargs="*", metavar="DIR")
    bn.add_argument("--profile", help="dice profile TOML (default: the shipped default)")
    bn.add_argument(
        "--synthetic", type=int, default=0, metavar="N", help="also score N rendered trays"
    )
    bn.add_argument("--seed", type=int, default=0, help="seed of the synthetic set")
    bn.add_argument("--json", action="store_true", help="a JSON list, one object per set")
    bn.add_argument(
        "--no-expect",
        dest="expect",
        action="store_false",
        help="read without telling the reader how many dice each image has",
    )
    bn.add_argument("--failures", metavar="FILE", help="write each misread image as JSON lines")
    bn.set_defaults(func=cmd_bench)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _profile(path: str | None):
    from companion.dice.profile import ProfileError, load

    try:
        return load(path)
    except ProfileError as exc:
        print(f"companion dice: {exc}", file=sys.stderr)
        return None


def cmd_read(args) -> int:
    import cv2

    from companion.dice.annotate import annotate
    from companion.dice.reader import read

    profile = _profile(args.profile)
    if profile is None:
        return 2
    status = 0
    for name in args.images:
        frame = cv2.imread(name, cv2.IMREAD_COLOR)
        if frame is None:
            print(f"companion dice: cannot read image {name}", file=sys.stderr)
            status = 1
            continue
        reading = read(frame, profile, expected=args.expect)
        if args.json:
            print(json.dumps({"image": name, **reading.to_json()}))
        else:
            faces = " ".join(str(v) for v in reading.values) or "-"
            line = f"{name}: {reading.status} {faces}"
            if reading.problems:
                line += f" ({'; '.join(reading.problems)})"
            print(line)
        if args.annotate:
            out = Path(args.annotate)
            if len(args.images) > 1:
                out = out.with_name(f"{out.stem}-{Path(name).stem}{out.suffix or '.png'}")
            cv2.imwrite(str(out), annotate(frame, reading))
    return status


def cmd_bench(args) -> int:
    from companion.dice.scoring import LabelError, load_set, score, synthetic_set

    profile = _profile(args.profile)
    if profile is None:
        return 2
    if not args.sets and not args.synthetic:
        print("companion dice bench: give set folders and/or --synthetic N", file=sys.stderr)
        return 2
    results = []
    try:
        for folder in args.sets:
            if not Path(folder).is_dir():
                print(f"companion dice bench: skipping {folder} (not a folder)", file=sys.stderr)
                continue
            results.append(score(Path(folder).name, load_set(folder), profile, args.expect))
    except LabelError as exc:
        print(f"companion dice bench: {exc}", file=sys.stderr)
        return 2
    if args.synthetic:
        results.append(
            score(
                f"synthetic-{args.synthetic}",
                synthetic_set(args.synthetic, seed=args.seed),
                profile,
                args.expect,
            )
        )
    summaries = [r.summary() for r in results]
    if args.failures:
        with open(args.failures, "w", encoding="utf-8") as f:
            for r in results:
                for failure in r.failures:
                    f.write(json.dumps({"set": r.set, **failure}) + "\n")
    if args.json:
        print(json.dumps(summaries, indent=2))
    else:
        print(format_table(summaries))
    return 0


def format_table(summaries: list[dict]) -> str:
    head = f"{'set':<28} {'images':>6} {'dice':>5} {'hands-free':>10} {'silent':>6} "
    head += f"{'1-tap':>6} {'per-die':>8} {'exact':>6} "
    head += f"{'flagged':>8} {'conf.err':>8} {'ms p50':>7} {'ms p95':>7}"
    lines = [head]
    for s in summaries:
        lines.append(
            f"{s['set'][:28]:<28} {s['images']:>6} {s['dice']:>5} "
            f"{s['hands_free_rate']:>10.1%} {s['silent_error_rate']:>6.1%} "
            f"{s['proposal_right_rate']:>6.1%} "
            f"{s['per_die_accuracy']:>8.1%} {s['exact_image_rate']:>6.1%} "
            f"{s['uncertain_rate']:>8.1%} {s['confident_error_rate']:>8.2%} "
            f"{s['ms_p50']:>7.1f} {s['ms_p95']:>7.1f}"
        )
    return "\n".join(lines)
