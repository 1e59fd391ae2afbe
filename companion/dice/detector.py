"""The learned dice detector: a whole frame -> where the dice are, how big, and what they show.

A small fully convolutional network (`model/detector.onnx`, trained by
`bench/train_detector.py`) looks at the frame resampled so that dice are about `DIE` pixels
across, and gives, every `STRIDE` pixels, the chance that a die's centre lies there, the
scores of its top face (1-6, or cocked) and its size. It runs through OpenCV's `dnn`, so the
Pi needs nothing it does not already have. `model/detector.json` holds what was fitted on
held-out photos: the softmax temperature that calibrates the face probabilities and the
thresholds a die must clear to be read hands-free.

Scale comes first: coarse passes over the frame (`FIRST_SIDES`) find the dice's size (a
coarse pass that sees big dice is checked against the next finer one, as small dice close
together look like one big die's pips), and a last pass at the scale that brings them to
`DIE` pixels reads them, unless a first pass already saw them near that size; dice still
smaller than the network reads well there are looked at again at the size it saw.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.dice import network
from companion.dice.network import ModelError

MODEL_DIR = Path(__file__).resolve().parent / "model"
STRIDE = 4  # the network's output cells, in input pixels
MULTIPLE = 16  # the input's sides are padded to a multiple of this (four halvings)
FACES = 7  # face scores: 1-6, then cocked
COCKED = 6
CHANNELS = 1 + FACES + 1  # centre, faces, log size
DIE = 24.0  # the die edge the second pass brings dice to, in input pixels
SIZE_RANGE = (12.0, 64.0)  # die edges the network was trained on, in input pixels
NEAR_ENOUGH = (20.0, 36.0)  # first-pass sizes read as they are (smaller ones are misread)
FIRST_SIDES = (160, 320)  # the first passes' longest sides, in pixels, coarsest first
BIG_AT_FIRST = 22.0  # dice this big in a coarse pass are read from it, not a finer one
MOST_SIDE = 1280  # the second pass's longest side at most (time grows with its square)
LAST_PASSES = 3  # passes at most after the first ones, each at the size the one before saw
LOWEST = 0.1  # centres below this chance are not looked at
# Whose face scores are read: the detector's own, those of the face classifier (faceclass.py)
# on a crop of each die found, or both together (two views that agree make a face surer).
FACE_SCORES = ("detector", "classifier", "both")


def normalised(image: np.ndarray) -> np.ndarray:
    """H x W x 3 uint8 BGR -> the network's 1 x 3 x H' x W' input, zero-padded to multiples
    of `MULTIPLE`: each frame's brightness and contrast taken out, so a lamp or an exposure
    does not change the dice."""
    h, w = image.shape[:2]
    # The mean and spread of all three channels, from each channel's (same pixel count).
    means, stds = cv2.meanStdDev(image)
    mean = float(means.mean())
    std = float(np.sqrt((stds**2 + means**2).mean() - mean**2))
    # Written channel by channel into the padded input: no float copy of the whole image.
    x = np.zeros((1, 3, h + -h % MULTIPLE, w + -w % MULTIPLE), np.float32)
    inner = x[0, :, :h, :w]
    for c, plane in enumerate(cv2.split(image)):
        inner[c] = plane
    inner -= np.float32(mean)
    inner /= np.float32(std + 8.0)
    return x


@dataclass(frozen=True)
class Found:
    """One die the network found: its centre and edge in frame pixels, the chance that a die
    is there, and its face scores (logits, `FACES` of them). `beside`: it lies about a die's
    edge from a die seen bigger than itself, which may be a touching pair seen as one die,
    or it a side face of that die; a die of its own only when the count told needs one."""

    centre: tuple[float, float]
    size: float
    presence: float
    logits: np.ndarray
    beside: bool = False

    @property
    def box(self) -> tuple[int, int, int, int]:
        half = self.size / 2
        x, y = self.centre
        return (round(x - half), round(y - half), round(x + half), round(y + half))


@dataclass(frozen=True)
class Settings:
    temperature: float  # face logits are divided by this before the softmax (calibration)
    present: float  # a centre at or above this chance is a die
    sure_present: float  # and at or above this one, a die for sure
    accept: float  # a die's face is read hands-free at or above this probability
    maybe: float  # a centre at or above this chance (but not a die) makes a roll checked
    # or at or above this one, when the table told how many dice and as many were found
    maybe_told: float
    # and told so, a die is one for sure at or above this chance (instead of sure_present)
    sure_told: float
    # A die whose face scores together are less sure than this at first is read again by the
    # face classifier in all its turns and mirrors (faceclass.probabilities_turned); 0: never.
    look_again: float = 0.0
    # Whose face scores are read (FACE_SCORES), whichever read the held-out photos best.
    faces: str = "detector"
    classifier: str = "faces"  # the face classifier's model files (faceclass.model)
    # Not told how many dice, a place beside a die at or above this chance makes the roll
    # checked: a touching pair seen as one die reads a die short.
    beside_maybe: float = 0.4


class Detector:
    def __init__(self, directory: Path | None = None) -> None:
        directory = directory or MODEL_DIR
        weights, settings = directory / "detector.onnx", directory / "detector.json"
        # One network per pass (each coarse pass, then the last): each keeps the buffers of
        # its input's size, which a camera's frames keep; one network fed sizes in turn
        # allocates them anew every pass.
        self.nets = [
            network.load(weights, "dice detector model") for _ in range(len(FIRST_SIDES) + 1)
        ]
        try:
            raw = json.loads(settings.read_text(encoding="utf-8"))
            words = ("faces", "classifier")
            numbers = [k for k in Settings.__dataclass_fields__ if k not in words]
            faces, classifier = raw.get("faces", "detector"), raw.get("classifier", "faces")
            if faces not in FACE_SCORES:
                raise ValueError(f"faces is one of {', '.join(FACE_SCORES)}, not {faces!r}")
            if not isinstance(classifier, str) or not re.fullmatch(r"[\w-]+", classifier):
                raise ValueError(f"classifier is a model file's name, not {classifier!r}")
            self.settings = Settings(
                **{k: float(raw[k]) for k in numbers}, faces=faces, classifier=classifier
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"dice detector settings {settings} cannot be read: {exc}") from exc
        self._lock = threading.Lock()  # networks, their buffers shared: one pass at a time
        self.passes = 0  # passes run so far: what a read costs, for benchmarks and tests

    def outputs(self, image: np.ndarray, at: int = -1) -> np.ndarray:
        """The network's CHANNELS x H/STRIDE x W/STRIDE output for a uint8 BGR image, read
        by the network of pass `at` (the last pass's by default)."""
        x = normalised(image)
        with self._lock:
            self.nets[at].setInput(x)
            out = self.nets[at].forward()
            self.passes += 1
        h, w = image.shape[:2]
        return out[0, :, : -(-h // STRIDE), : -(-w // STRIDE)]

    def found_at(self, frame: np.ndarray, factor: float, at: int = -1) -> list[Found]:
        """The dice in `frame` resampled by `factor`, in the frame's pixels (`at`: the pass)."""
        image = frame
        if factor != 1.0:
            h, w = frame.shape[:2]
            size = (max(round(w * factor), 16), max(round(h * factor), 16))
            # Averaging over areas costs six times a bilinear resize when the factor is not
            # 1/n; only shrinking past half needs it (bilinear samples skip pixels there).
            how = cv2.INTER_AREA if factor < 0.5 else cv2.INTER_LINEAR
            image = cv2.resize(frame, size, interpolation=how)
        return decoded(self.outputs(image, at), factor)

    def find(
        self, frame: np.ndarray, die_size: float | None = None, beside: bool = False
    ) -> list[Found]:
        """The dice in a BGR frame, searched at the scale that brings them to `DIE` pixels:
        `die_size` (the calibrated die edge in frame pixels) when known, else the scale a
        first coarse pass finds them at; their faces scored as the settings say. `beside`:
        with the places found beside a die (Found.beside)."""
        found = self.locate(frame, die_size, beside)
        s = self.settings
        if s.faces == "detector":
            return found
        return classified(
            frame,
            [f for f in found if f.presence >= s.maybe],
            s.classifier,
            s.faces == "both",
            s.look_again,
        )

    def locate(
        self, frame: np.ndarray, die_size: float | None = None, beside: bool = False
    ) -> list[Found]:
        """The dice in a BGR frame as `find` locates them, with the detector's own face
        scores (what the face classifier is trained to read)."""
        found = self._located(frame, die_size)
        return found if beside else [f for f in found if not f.beside]

    def _located(self, frame: np.ndarray, die_size: float | None) -> list[Found]:
        longest = max(frame.shape[:2])
        if die_size:
            return self.found_at(frame, _factor(DIE / die_size, longest))
        # Coarsest first: dice too big for the network show pips it may take for small
        # dice, which a coarser view no longer shows.
        at = 0
        while at < len(FIRST_SIDES):
            first = min(1.0, FIRST_SIDES[at] / longest)
            found = self.found_at(frame, first, at)
            seen = self._seen(found, first)
            if seen >= BIG_AT_FIRST and first < 1.0 and at + 1 < len(FIRST_SIDES) and self._judged:
                # Or small dice close together, too small for this view, seen as one big
                # die's pips: which view holds dice is the face classifier's to say.
                finer = min(1.0, FIRST_SIDES[at + 1] / longest)
                other = self.found_at(frame, finer, at + 1)
                if self._dice_likeness(frame, other) > self._dice_likeness(frame, found):
                    at, first, found, seen = at + 1, finer, other, self._seen(other, finer)
            if seen >= BIG_AT_FIRST or first == 1.0:
                break
            at += 1
        if NEAR_ENOUGH[0] <= seen <= NEAR_ENOUGH[1]:
            return found
        # Nothing seen: dice too small for the first passes (a wide view, a big still).
        factor, wanted = first, _factor(first * DIE / seen if seen else first * 3.0, longest)
        for _ in range(LAST_PASSES):
            if abs(wanted - factor) < 0.1 * factor:
                break
            again = self.found_at(frame, wanted)
            if seen and not any(not f.beside for f in again):
                break
            factor, found, seen = wanted, again, self._seen(again, wanted)
            # Dice still smaller than the network was trained on: it sees them bigger than
            # they are (a die of 3 pixels as one of 16), so their size is not yet known.
            if not seen or seen >= NEAR_ENOUGH[0]:
                break
            wanted = _factor(factor * DIE / seen, longest)
        return found

    @property
    def _judged(self) -> bool:
        """Is there a face classifier to judge places by?"""
        return self.settings.faces != "detector"

    def _dice_likeness(self, frame: np.ndarray, found: list[Found]) -> float:
        """The mean chance of a die, by the face classifier, at the places the detector
        takes for dice in `found` (0: none)."""
        s = self.settings
        places = [f for f in found if f.presence >= s.present and not f.beside]
        checked = classified(frame, places, s.classifier)
        return float(np.mean([f.presence for f in checked])) if checked else 0.0

    def _seen(self, found: list[Found], factor: float) -> float:
        """The median edge of the dice surely `found` in a frame resampled by `factor`, in
        the resampled pixels (0: none)."""
        sure = [
            f.size * factor for f in found if f.presence >= self.settings.present and not f.beside
        ]
        return float(np.median(sure)) if sure else 0.0


def classified(
    frame: np.ndarray,
    found: list[Found],
    classifier: str = "faces",
    with_own: bool = False,
    look_again: float = 0.0,
) -> list[Found]:
    """The dice found with the face classifier's scores for a crop of each: its log
    probabilities of 1-6 and cocked (`with_own`: plus the detector's own log probabilities),
    and the chance of a die there lowered by its chance of no die. A die whose face is less
    sure than `look_again` at first (the scores together, untempered) is read again in all its
    turns and mirrors: the doubtful dice alone, as that costs 7 more reads a die, and no place
    the classifier takes for no die."""
    from companion.dice import faceclass

    if not found:
        return found
    net = faceclass.model(classifier)
    crops = np.stack([net.crop(frame, f.centre, f.size) for f in found])
    # Never the owner's adaptation (companion.dice.adapt): fitted and checked at the pip
    # search's face threshold, it made a doubtful misread die a sure one at the detector's.
    p = net.probabilities(crops, adapted=False)
    own = None
    if with_own:
        logits = np.stack([f.logits for f in found]).astype(np.float64)
        own = np.log(network.probabilities(logits, 1.0) + 1e-9)
    faces = _face_scores(p, own)
    # A place beside a die is never read for sure: not worth the second look.
    doubtful = (
        (network.probabilities(faces, 1.0).max(axis=1) < look_again)
        & (p[:, faceclass.NO_DIE] < 0.5)
        & ~np.array([f.beside for f in found])
    )
    if doubtful.any():
        p[doubtful] = net.probabilities_turned(crops[doubtful], p[doubtful])
        faces = _face_scores(p, own)
    return [
        replace(f, presence=f.presence * float(1 - q[faceclass.NO_DIE]), logits=z)
        for f, q, z in zip(found, p, faces, strict=True)
    ]


def _face_scores(p: np.ndarray, own: np.ndarray | None) -> np.ndarray:
    """Log probabilities of 1-6 and cocked from the classifier's `p`, plus the detector's own
    (`own`) when given."""
    from companion.dice import faceclass

    faces = np.log(np.concatenate([p[:, :6], p[:, faceclass.COCKED :]], axis=1) + 1e-9)
    return faces if own is None else faces + own


def _factor(factor: float, longest: int) -> float:
    return min(factor, MOST_SIDE / longest)


def decoded(out: np.ndarray, factor: float) -> list[Found]:
    """The dice in one output: each local maximum of the centre chance at or above `LOWEST`
    (its 3 x 3 neighbourhood's), in the pixels of the frame the input was resampled from by
    `factor`."""
    heat = 1.0 / (1.0 + np.exp(-out[0].astype(np.float32)))
    peaks = (heat >= LOWEST) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    found = []
    for y, x in zip(*np.nonzero(peaks), strict=True):
        size = float(np.exp(out[1 + FACES, y, x])) * STRIDE / factor
        centre = ((x + 0.5) * STRIDE / factor, (y + 0.5) * STRIDE / factor)
        found.append(Found(centre, size, float(heat[y, x]), out[1 : 1 + FACES, y, x].copy()))
    found.sort(key=lambda f: -f.presence)
    return _apart(found)


def _apart(found: list[Found]) -> list[Found]:
    """The most likely of centres closer than 0.7 of a die to each other: one die seen twice
    (touching dice lie a whole die apart). A centre that close by the size of the die it is
    near but not by its own is kept `beside` it."""
    kept: list[Found] = []
    beside: list[Found] = []
    for f in found:
        if all(_distance(f, k) >= 0.7 * max(f.size, k.size) for k in kept):
            kept.append(f)
        elif all(_distance(f, k) >= 0.7 * min(f.size, k.size) for k in kept + beside):
            beside.append(replace(f, beside=True))
    return kept + beside


def _distance(a: Found, b: Found) -> float:
    return float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]))


@lru_cache(maxsize=1)
def model() -> Detector:
    """The shipped detector, loaded once (ModelError names a missing or corrupt file)."""
    return Detector()
