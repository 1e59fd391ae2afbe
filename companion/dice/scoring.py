"""Score the reader on labelled images: rolls read hands-free, silent errors, per-die
accuracy, flags, speed.

A labelled set is a folder with `images/` and `labels.jsonl`, one JSON object per line:
`{"image": "images/x.jpg", "dice": [{"value": 3, "box": [x1, y1, x2, y2]}, ...]}`.
The table always says how many dice it asked for, so each image is read with
`expected = number of labelled dice` unless `expect=False`.

Per roll (image): hands-free = accepted (status ok) with exactly the labelled values and
count; silent error = accepted with any wrong value, a missing or an extra die; proposal
right = flagged for a check, and the proposed values and count are right (one tap to
confirm). Per die: the multiset intersection of read and labelled values over the larger of
the two counts, so an extra die is an error as much as a missing one.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from companion.dice.profile import Profile
from companion.dice.reading import Reading

THINGS = 3  # at most this many things that are not dice lie about a rendered tray
HELD_OUT = 4  # one image in this many is never trained on, chosen by a hash of its name


def held_out(name: str) -> bool:
    """Is this image (its name in its set) one the dice models are not trained on?"""
    return int(hashlib.sha1(name.encode()).hexdigest()[:8], 16) % HELD_OUT == 0


class LabelError(ValueError):
    """A labelled set that cannot be used; the message says which file and line."""


@dataclass(frozen=True)
class Sample:
    name: str
    faces: tuple[int, ...]
    path: Path | None = None
    frame: np.ndarray | None = field(default=None, compare=False, repr=False)

    def load(self) -> np.ndarray:
        if self.frame is not None:
            return self.frame
        import cv2

        img = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if img is None:
            raise LabelError(f"cannot read image {self.path}")
        return img


def load_set(folder: str | Path, only_held_out: bool = False) -> list[Sample]:
    """The set's labelled images; with `only_held_out`, those no model was trained on."""
    folder = Path(folder)
    labels = folder / "labels.jsonl"
    if not labels.is_file():
        raise LabelError(f"{folder}: no labels.jsonl (a set is images/ plus labels.jsonl)")
    samples = []
    for n, line in enumerate(labels.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            faces = tuple(int(d["value"]) for d in obj["dice"])
            image = folder / obj["image"]
        except (ValueError, KeyError, TypeError) as exc:
            raise LabelError(f"{labels}:{n}: not a label line ({exc})") from exc
        if any(f not in range(1, 7) for f in faces):
            raise LabelError(f"{labels}:{n}: die values must be 1-6")
        if only_held_out and not held_out(obj["image"]):
            continue
        samples.append(Sample(obj["image"], faces, image))
    if not samples:
        raise LabelError(f"{labels}: no labelled images")
    return samples


def synthetic_scenes(count: int, seed: int = 0, max_dice: int = 8) -> Iterator[tuple]:
    """The bench's rendered trays, made one at a time: (name, scene, frame). Up to
    THINGS things that are not dice lie about each, drawn from a generator of their own, so
    the dice and the camera's noise stay those of the same seed without them."""
    from companion.dice import synth

    rng = np.random.default_rng(seed)
    for i in range(count):
        faces = [int(f) for f in rng.integers(1, 7, int(rng.integers(1, max_dice + 1)))]
        scene = synth.random_scene(faces, rng, touching=bool(rng.random() < 0.3))
        about = np.random.default_rng([seed, i])
        size = float(np.median([d.size for d in scene.dice]))
        things = synth.random_things(
            int(about.integers(0, THINGS + 1)), about, scene.width, scene.height, size, scene.dice
        )
        scene = replace(scene, things=things)
        yield f"synthetic-{i:04d}", scene, synth.render(scene, rng)


def synthetic_set(count: int, seed: int = 0, max_dice: int = 8) -> Iterator[Sample]:
    """Rendered trays, made as they are scored (so a thousand need no memory)."""
    for name, scene, frame in synthetic_scenes(count, seed, max_dice):
        yield Sample(name, tuple(d.face for d in scene.dice), frame=frame)


def zoomed(samples: Iterable[Sample], factor: float) -> Iterator[Sample]:
    """The samples' frames resized by `factor`, as they are scored: the same dice seen by a
    camera with `factor` times the pixels across (or, below 1, fewer)."""
    if factor == 1:
        yield from samples
        return
    import cv2

    shrink = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
    for sample in samples:
        frame = cv2.resize(sample.load(), None, fx=factor, fy=factor, interpolation=shrink)
        yield replace(sample, frame=frame)


# What became of a roll (`outcome`)
HANDS_FREE = "hands-free"  # accepted, with exactly the labelled values and count
SILENT = "silent"  # accepted with a wrong value, a missing or an extra die
PROPOSAL = "proposal"  # flagged for a check, its values and count right: one tap to confirm
WRONG = "wrong"  # flagged, and its values or count wrong (or no reading)


def outcome(faces: Sequence[int], reading: Reading) -> str:
    """What became of a roll of these labelled `faces` read as `reading`."""
    right = Counter(faces) == Counter(reading.values) and len(reading.dice) == len(faces)
    if reading.ok:
        return HANDS_FREE if right else SILENT
    return PROPOSAL if right else WRONG


# Rolls grouped by how many dice they have (`hands_free_by_dice`), each group's name and
# most dice: the games the companion hosts roll five dice or fewer at once (six in a rare
# case), so a set's rate on the rolls a table asks for is told apart from its bigger rolls'.
DICE_GROUPS = (("up to 5", 5), ("6-9", 9), ("10 or more", None))


def _dice_group(count: int) -> str:
    """The name of the DICE_GROUPS group a roll of `count` dice is in."""
    return next(name for name, most in DICE_GROUPS if most is None or count <= most)


@dataclass
class Score:
    set: str
    images: int = 0
    dice: int = 0
    correct: int = 0
    counted: int = 0  # per image, the larger of the labelled and read counts
    flagged: int = 0
    confident_errors: int = 0
    ms: list[float] = field(default_factory=list)
    failures: list[dict] = field(default_factory=list)
    # what became of the rolls (`outcome`), per _dice_group
    by_dice: dict[str, Counter] = field(default_factory=dict)

    def add(self, sample: Sample, reading: Reading, ms: float) -> None:
        truth = Counter(sample.faces)
        read = Counter(reading.values)
        self.images += 1
        self.dice += len(sample.faces)
        self.correct += sum((truth & read).values())
        self.counted += max(len(sample.faces), len(reading.dice))
        result = outcome(sample.faces, reading)
        self.by_dice.setdefault(_dice_group(len(sample.faces)), Counter())[result] += 1
        self.ms.append(ms)
        if reading.ok:
            # Trusted reading: every die it got wrong is a confident error.
            confident = Counter(d.face for d in reading.dice if not d.flagged)
            self.confident_errors += sum((confident - truth).values())
            self.flagged += sum(d.flagged for d in reading.dice)
        else:
            # The table is told to look: every die of the roll counts as flagged.
            self.flagged += len(sample.faces)
        if truth != read or not reading.ok:
            self.failures.append(
                {"image": sample.name, "truth": sorted(sample.faces), **reading.to_json()}
            )

    def summary(self) -> dict:
        ms = np.array(self.ms) if self.ms else np.zeros(1)
        dice = max(self.dice, 1)
        images = max(self.images, 1)
        rolls = sum(self.by_dice.values(), Counter())
        return {
            "set": self.set,
            "images": self.images,
            "dice": self.dice,
            "hands_free_rate": round(rolls[HANDS_FREE] / images, 4),
            "silent_error_rate": round(rolls[SILENT] / images, 4),
            "proposal_right_rate": round(rolls[PROPOSAL] / images, 4),
            "per_die_accuracy": round(self.correct / max(self.counted, 1), 4),
            "exact_image_rate": round((rolls[HANDS_FREE] + rolls[PROPOSAL]) / images, 4),
            "uncertain_rate": round(self.flagged / dice, 4),
            "confident_error_rate": round(self.confident_errors / dice, 4),
            "ms_p50": round(float(np.percentile(ms, 50)), 2),
            "ms_p95": round(float(np.percentile(ms, 95)), 2),
            "hands_free_by_dice": {
                name: {
                    "rolls": (n := self.by_dice[name].total()),
                    "hands_free_rate": round(self.by_dice[name][HANDS_FREE] / n, 4),
                    "silent_error_rate": round(self.by_dice[name][SILENT] / n, 4),
                }
                for name, _ in DICE_GROUPS
                if name in self.by_dice
            },
        }


def score(
    name: str, samples: Iterable[Sample], profile: Profile, expect: bool = True, read=None
) -> Score:
    """Read every sample with `read` (the reader's by default), told the labelled count
    unless `expect` is False."""
    if read is None:
        from companion.dice.reader import read

    result = Score(name)
    for sample in samples:
        frame = sample.load()
        t0 = time.perf_counter()
        reading = read(frame, profile, expected=len(sample.faces) if expect else None)
        result.add(sample, reading, (time.perf_counter() - t0) * 1000)
    return result
