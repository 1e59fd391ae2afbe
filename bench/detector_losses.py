"""Where the detector reader loses rolls: held-out photos and rendered trays.

    .venv/bin/python bench/detector_losses.py ../shared/data/dice/*/ --synthetic 300 [--no-expect]

Each roll the detector reader (companion/dice/learned.py) does not read hands-free ends in
the first that applies of: a labelled die missed, an extra die (or a place that may be one),
a face read wrong, or every face right but one below the thresholds ("right, not sure"). A
missed die is then told apart by where it was lost: never seen by the coarse passes
that chose the scale, seen there but not at the scale the last pass read at, or located by
the last pass but its chance of a die lowered below `present` by the face classifier's "no
die". Renders are the bench's own (`companion dice bench --synthetic N`, the same seed), with
their dice's places known. Per set: counts of rolls, then per missed die.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_faces import _labelled_by, _labels, _loss, _match

from companion.dice import detector, learned
from companion.dice.scoring import held_out, synthetic_scenes

PIP_BOX_TO_DIE = 1.35  # a die's edge, in sides of a box around its pips (at most)
LOSSES = ("hands-free", "silent", "die missed", "extra die", "face wrong", "right, not sure")


def rendered(count: int, seed: int):
    """(name, frame, boxes, values) of the bench's rendered trays (scoring.synthetic_scenes),
    each die's box where the frame's perspective put it."""
    for name, scene, frame in synthetic_scenes(count, seed):
        faces = [d.face for d in scene.dice]
        centres = np.array([[d.x, d.y] for d in scene.dice], np.float32)
        if scene.keystone:
            k, w, h = scene.keystone * scene.width, scene.width, scene.height
            src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
            dst = np.float32([[k, 0], [w - k, 0], [w, h], [0, h]])
            hmat = cv2.getPerspectiveTransform(src, dst)
            centres = cv2.perspectiveTransform(centres[None], hmat)[0]
        boxes = [
            [x - d.size / 2, y - d.size / 2, x + d.size / 2, y + d.size / 2]
            for (x, y), d in zip(centres, scene.dice, strict=True)
        ]
        yield name, frame, boxes, faces


def photos(folder: Path):
    labels = _labels(folder)
    for name, (dice, _kind) in labels.items():
        if held_out(name):
            frame = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
            yield name, frame, [b for _, b in dice], [v for v, _ in dice]


class Recorder:
    """Wraps the shipped detector's passes: the factor and finds of each `found_at` (not
    the places beside dice, which only fill a count told), and which pass was read."""

    def __init__(self, det: detector.Detector) -> None:
        self.passes: list[tuple[float, list[detector.Found]]] = []
        self.read_at = -1
        at, located = det.found_at, det._located
        raw: list[list[detector.Found]] = []

        def found_at(frame, factor, *which):
            got = at(frame, factor, *which)
            raw.append(got)
            self.passes.append((factor, [f for f in got if not f.beside]))
            return got

        def _located(frame, die_size):
            raw.clear()
            got = located(frame, die_size)
            self.read_at = next(i for i, r in enumerate(raw) if r is got)
            return got

        det.found_at, det._located = found_at, _located

    def coarse_and_last(self, frame) -> tuple[list, list | None]:
        """The finds of the coarse passes that chose the scale, together, and of the pass
        read after them (None when a coarse pass was read as it was)."""
        longest = max(frame.shape[:2])
        factor = self.passes[self.read_at][0]
        sides = detector.FIRST_SIDES
        if self.read_at < len(sides) and factor == min(1.0, sides[self.read_at] / longest):
            return self.passes[self.read_at][1], None
        return [f for _, p in self.passes[: self.read_at] for f in p], self.passes[self.read_at][1]


def _on(found: list[detector.Found], box, present: float) -> bool:
    """Is one of the finds at least `present` likely on this labelled die? (Within half the
    smaller of its size and the die's: a find of a far bigger die on a neighbour is not.)"""
    edge = PIP_BOX_TO_DIE * math.sqrt(max(box[2] - box[0], 1) * max(box[3] - box[1], 1))
    return any(
        f.presence >= present and _match(f.centre, [box], reach=0.5 * min(f.size, edge)) == 0
        for f in found
    )


def measure(items, expect: bool, rec: Recorder, present: float) -> dict:
    rolls, missed, passes = Counter(), Counter(), Counter()
    for _name, frame, boxes, values in items:
        rec.passes = []
        reading = learned.read(frame, None, len(values) if expect else None)
        passes[len(rec.passes)] += 1
        rolls[_loss(reading, boxes, [v - 1 for v in values])] += 1
        if not rec.passes:
            continue  # refused before the detector looked (a hand)
        coarse, last = rec.coarse_and_last(frame)
        read_at = [
            (d.centre, (d.box[2] - d.box[0] + d.box[3] - d.box[1]) / 2) for d in reading.dice
        ]
        labels = _labelled_by(read_at, boxes, list(range(len(boxes))))
        for i, box in enumerate(boxes):
            if i in labels:
                continue
            if _on(last if last is not None else coarse, box, present):
                missed["located, then called no die"] += 1
            elif last is not None and _on(coarse, box, present):
                missed["seen at a coarse pass, lost at the last"] += 1
            elif last is not None:
                missed["never seen (two scales)"] += 1
            else:
                missed["never seen (the coarse pass read as it was)"] += 1
    return {
        "rolls": sum(rolls.values()),
        "losses": {k: rolls[k] for k in LOSSES},
        "missed dice": dict(missed),
        "passes per roll": dict(sorted(passes.items())),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="*", type=Path, help="labelled photo sets")
    ap.add_argument("--synthetic", type=int, default=300, help="rendered trays (the bench's)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-expect", dest="expect", action="store_false")
    args = ap.parse_args(argv)
    det = detector.model()
    rec = Recorder(det)
    out = {}
    for folder in sorted(args.sets):
        out[folder.name] = measure(photos(folder), args.expect, rec, det.settings.present)
    if args.synthetic:
        items = rendered(args.synthetic, args.seed)
        out["rendered"] = measure(items, args.expect, rec, det.settings.present)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
