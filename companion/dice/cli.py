"""`companion dice read` and `companion dice bench`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.dice.readers import DEFAULT, READERS, read_function


def register(subparsers) -> None:
    dice = subparsers.add_parser("dice", help="read pip dice from images; measure the reader")
    sub = dice.add_subparsers(dest="dice_command", metavar="ACTION")
    dice.set_defaults(func=lambda args: _usage(dice))

    rd = sub.add_parser("read", help="read the dice in camera images")
    rd.add_argument("images", nargs="+", metavar="IMAGE")
    rd.add_argument("--profile", help="dice profile TOML (default: the shipped default)")
    rd.add_argument("--expect", type=_dice_count, metavar="N", help="how many dice were rolled")
    rd.add_argument("--json", action="store_true", help="one JSON object per image")
    rd.add_argument(
        "--annotate",
        metavar="OUT.png",
        help="write the image with what was read drawn on it (several images: OUT-NAME.png)",
    )
    _reader_option(rd)
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
    bn.add_argument(
        "--held-out",
        action="store_true",
        help="score only the images the dice models were not trained on (a quarter of each set)",
    )
    bn.add_argument(
        "--zoom",
        type=float,
        default=1.0,
        metavar="F",
        help="read each image resized by F (2: a camera with twice the pixels across)",
    )
    bn.add_argument("--failures", metavar="FILE", help="write each misread image as JSON lines")
    _reader_option(bn)
    bn.set_defaults(func=cmd_bench)

    ad = sub.add_parser(
        "adapt",
        help="adapt the face classifier to the owner's dice kept in the data directory",
        description=(
            "Fit the face classifier's last layer to the dice the table confirmed, corrected "
            "or calibrated with (DATA_DIR/dice-examples), print how each way of fitting reads "
            "them by cross-validation, and keep the best in DATA_DIR/dice-adapted.npz when it "
            "beats the shipped model. The running companion does this by itself."
        ),
    )
    ad.add_argument(
        "--data-dir", type=Path, help="the companion's data directory (default: its own)"
    )
    ad.add_argument(
        "--method",
        choices=("best", "last-layer", "prototypes"),
        default="best",
        help="the way of fitting (default: whichever reads the examples best)",
    )
    ad.set_defaults(func=cmd_adapt)


def _reader_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reader",
        choices=READERS,
        default=DEFAULT,
        help="the learned detector (the default), or the pip search and face classifier",
    )


def _dice_count(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {count}")
    return count


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

    read = read_function(args.reader)
    profile = _profile(args.profile)
    if profile is None:
        return 2
    outputs = {name: _annotated_name(args.annotate, name, len(args.images)) for name in args.images}
    problem = next((p for out in outputs.values() if (p := _unwritable(out))), None)
    if problem:
        print(f"companion dice read: --annotate: {problem}", file=sys.stderr)
        return 2
    status = 0
    for name in args.images:
        try:
            frame = load_image(name)
        except ImageError as exc:
            print(f"companion dice read: {exc}", file=sys.stderr)
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
        out = outputs[name]
        if out is not None and not cv2.imwrite(str(out), annotate(frame, reading)):
            print(f"companion dice read: could not write {out}", file=sys.stderr)
            status = 1
    return status


class ImageError(ValueError):
    """A picture that cannot be read whole; the message names the file and what is wrong."""


def load_image(name: str):
    """The picture in file `name` as a BGR array. Read here rather than by cv2.imread, so that
    a missing or cut-short file gets one sentence, not OpenCV's and libjpeg's own warnings."""
    import cv2
    import numpy as np

    try:
        data = Path(name).read_bytes()
    except OSError as exc:
        raise ImageError(f"cannot read image {name}: {exc.strerror}") from exc
    if _cut_short(data):
        raise ImageError(f"cannot read image {name}: the file is cut short")
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if frame is None:
        raise ImageError(f"cannot read image {name}: not a picture OpenCV can read")
    return frame


def _cut_short(data: bytes) -> bool:
    """A JPEG without its end marker or a PNG without its end chunk (a copy that stopped
    early), which the decoders would fill out with grey."""
    end = data.rstrip(b"\0")
    if data.startswith(b"\xff\xd8"):
        return not end.endswith(b"\xff\xd9")
    if data.startswith(b"\x89PNG"):
        return b"IEND" not in end[-12:]
    return False


def _annotated_name(annotate: str | None, image: str, images: int) -> Path | None:
    """Where `--annotate` writes the picture for `image` (several images: OUT-NAME.png)."""
    if annotate is None:
        return None
    out = Path(annotate)
    if not out.suffix:
        out = out.with_suffix(".png")
    if images > 1:
        out = out.with_name(f"{out.stem}-{Path(image).stem}{out.suffix}")
    return out


def _unwritable(out: Path | None) -> str | None:
    """Why a picture cannot be written to `out`, checked before any image is read."""
    import cv2

    if out is None:
        return None
    if not out.parent.is_dir():
        return f"no folder {out.parent} to write {out.name} in"
    if not cv2.haveImageWriter(str(out)):
        return f"cannot write a {out.suffix} picture; give a .png or .jpg name"
    return None


def cmd_bench(args) -> int:
    from companion.dice.scoring import LabelError, load_set, score, synthetic_set, zoomed

    read = read_function(args.reader)
    profile = _profile(args.profile)
    if profile is None:
        return 2
    if not args.sets and not args.synthetic:
        print("companion dice bench: give set folders and/or --synthetic N", file=sys.stderr)
        return 2
    if not 0.1 <= args.zoom <= 10:
        print("companion dice bench: --zoom must be between 0.1 and 10", file=sys.stderr)
        return 2
    missing = [folder for folder in args.sets if not Path(folder).is_dir()]
    if missing:
        print(f"companion dice bench: no such folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    results = []
    try:
        for folder in args.sets:
            samples = zoomed(load_set(folder, only_held_out=args.held_out), args.zoom)
            results.append(score(Path(folder).name, samples, profile, args.expect, read))
    except LabelError as exc:
        print(f"companion dice bench: {exc}", file=sys.stderr)
        return 2
    if args.synthetic:
        results.append(
            score(
                f"synthetic-{args.synthetic}",
                zoomed(synthetic_set(args.synthetic, seed=args.seed), args.zoom),
                profile,
                args.expect,
                read,
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
        groups = s["hands_free_by_dice"]
        if len(groups) > 1:  # rolls of more than one size: each size's rate
            lines.append(
                "  hands-free by dice in the roll: "
                + ", ".join(
                    f"{name} {g['hands_free_rate']:.1%} of {g['rolls']}"
                    f" ({g['silent_error_rate']:.1%} silent)"
                    for name, g in groups.items()
                )
            )
    return "\n".join(lines)


def cmd_adapt(args) -> int:
    from companion.atomic_file import SaveError
    from companion.dice import adapt
    from companion.dice.network import ModelError

    data_dir = args.data_dir
    if data_dir is None:
        from companion.config import Config

        data_dir = Config().resolved_data_dir()
    examples = data_dir / adapt.EXAMPLES_DIR
    if not any(examples.glob("*.npz")):
        print(
            f"companion dice adapt: no examples of the owner's dice in {examples} (the table "
            "keeps them from calibration and from rolls it confirms or corrects); nothing "
            "changed",
            file=sys.stderr,
        )
        return 1
    methods = adapt.METHODS if args.method == "best" else (args.method,)
    try:
        report = adapt.adapt(data_dir, methods=methods)
    except (ModelError, SaveError) as exc:
        print(f"companion dice adapt: {exc}", file=sys.stderr)
        return 1
    print("\n".join(report.lines()))
    if report.adaptation is not None:
        print(f"wrote {data_dir / adapt.ADAPTED_NAME} (the companion reads with it when it starts)")
    return 0
