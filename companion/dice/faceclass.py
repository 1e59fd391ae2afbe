"""The learned face classifier: a die candidate, cut out and scaled to the die, -> the
probabilities that it shows 1-6, that it is no die (or a die's side face), or a cocked die.

The weights (`model/faces.onnx`, a small CNN trained by `bench/train_faces.py`) run through
OpenCV's `dnn`, so the Pi needs nothing it does not already have. `model/faces.json` holds
what was fitted with them: the softmax temperature that calibrates the probabilities and the
probability a die must reach to be read hands-free (a lower one when the pip search read the
same face for sure), and the side of the crops it reads when it is not CROP.

An owner's adaptation (`companion.dice.adapt`: the last layer fitted to this table's dice),
when one is adopted, shares the probability of a face among the faces anew and makes dice
like the owner's surer to be dice; the rest of the network is the shipped model's.
"""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.dice import network
from companion.dice.network import ModelError

MODEL_DIR = Path(__file__).resolve().parent / "model"
CLASSES = ("1", "2", "3", "4", "5", "6", "no die", "cocked")
NO_DIE, COCKED = 6, 7
CROP = 40  # side of the canonical crop, in pixels, unless a model's settings name its own
SPAN = 1.5  # the crop's side, in die edges: the die and a little of what is around it


def crop(
    frame: np.ndarray, centre: tuple[float, float], size: float, side: int = CROP
) -> np.ndarray:
    """The `side` x `side` (CROP by default) BGR patch centred on `centre`, SPAN die edges
    of `size` pixels across (the frame's edge pixels repeated where the patch leaves it)."""
    half = max(SPAN * size / 2, 2.0)
    h, w = frame.shape[:2]
    x1, y1 = math.floor(centre[0] - half), math.floor(centre[1] - half)
    x2, y2 = math.ceil(centre[0] + half), math.ceil(centre[1] + half)
    part = frame[max(y1, 0) : min(y2, h), max(x1, 0) : min(x2, w)]
    if part.size == 0:
        return np.zeros((side, side, 3), np.uint8)
    if x1 < 0 or y1 < 0 or x2 > w or y2 > h:
        part = cv2.copyMakeBorder(
            part, max(-y1, 0), max(y2 - h, 0), max(-x1, 0), max(x2 - w, 0), cv2.BORDER_REPLICATE
        )
    shrink = part.shape[1] > side
    return cv2.resize(
        part, (side, side), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR
    )


def normalised(crops: np.ndarray) -> np.ndarray:
    """N x side x side x 3 uint8 crops -> the model's N x 3 x side x side input: each crop's
    brightness and contrast taken out, so a lamp or an exposure does not change the face."""
    x = crops.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    return np.ascontiguousarray(((x - mean) / (std + 8.0)).transpose(0, 3, 1, 2))


@dataclass(frozen=True)
class Settings:
    temperature: float  # logits are divided by this before the softmax (calibration)
    accept: float  # a die is read hands-free only at or above this probability
    agreed: float  # or this one, when the pip search read the same face for sure


class FaceModel:
    def __init__(self, directory: Path | None = None, name: str = "faces") -> None:
        directory = directory or MODEL_DIR
        weights, settings = directory / f"{name}.onnx", directory / f"{name}.json"
        self.net = network.load(weights, "dice face model")
        try:
            raw = json.loads(settings.read_text(encoding="utf-8"))
            self.settings = Settings(
                float(raw["temperature"]), float(raw["accept"]), float(raw["agreed"])
            )
            self.side = int(raw.get("crop", CROP))  # the crops' side it was trained on
            if self.side < 8:
                raise ValueError(f"a crop of {self.side} pixels is too small to read")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"dice face model settings {settings} cannot be read: {exc}") from exc
        try:  # a settings file of another model names a crop this network cannot read
            self.net.setInput(np.zeros((1, 3, self.side, self.side), np.float32))
            self.net.forward()
        except cv2.error as exc:
            raise ModelError(
                f"dice face model settings {settings} name crops of {self.side} pixels,"
                f" which {weights} does not read"
            ) from exc
        self._lock = threading.Lock()  # one network, its buffers shared: one read at a time
        self._head: tuple[str, np.ndarray, np.ndarray] | None = None
        # The owner's adaptation in use (swapped whole, so a read sees one or the other).
        self.adaptation = None

    def crop(self, frame: np.ndarray, centre: tuple[float, float], size: float) -> np.ndarray:
        """`crop` at the side this model reads."""
        return crop(frame, centre, size, self.side)

    def probabilities(self, crops: np.ndarray, adapted: bool = True) -> np.ndarray:
        """N x side x side x 3 uint8 crops -> N x 8 probabilities (CLASSES' order): the
        owner's adaptation's when there is one, unless `adapted` is False."""
        if len(crops) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        adaptation = self.adaptation if adapted else None
        if adaptation is not None:
            features = self.features(crops)
            weights, bias = self.head()
            shipped = network.probabilities(features @ weights.T + bias, self.settings.temperature)
            return adaptation.probabilities(features, shipped)
        x = normalised(crops)
        with self._lock:
            self.net.setInput(x)
            logits = self.net.forward().reshape(len(crops), len(CLASSES)).astype(np.float64)
        return network.probabilities(logits, self.settings.temperature)

    def probabilities_turned(
        self, crops: np.ndarray, first: np.ndarray | None = None
    ) -> np.ndarray:
        """The shipped model's probabilities for crops read in all 8 of a square's symmetries
        (quarter turns, mirrored or not), as one: the geometric mean of the 8 readings. A
        die's top face shows the same number in each, so what one view misreads the others
        outvote, and a die read the same in all is surer. `first`: the crops' probabilities
        as they lie, when they are known already (7 reads a crop, not 8)."""
        turned = [np.rot90(crops, k, axes=(1, 2)) for k in range(4)]
        views = turned + [t[:, :, ::-1] for t in turned]
        if first is not None:
            views = views[1:]
        p = self.probabilities(np.concatenate(views), adapted=False)
        logs = np.log(p.reshape(len(views), len(crops), len(CLASSES)) + 1e-9)
        if first is not None:
            logs = np.concatenate([np.log(first + 1e-9)[None], logs])
        return network.probabilities(logs.mean(axis=0), 1.0)

    def head(self) -> tuple[np.ndarray, np.ndarray]:
        """The shipped last layer: weights (8 x features) and bias."""
        return self._last_dense()[1:]

    def features(self, crops: np.ndarray) -> np.ndarray:
        """N x side x side x 3 uint8 crops -> what the last layer reads (N x features)."""
        name = self._last_dense()[0]
        with self._lock:
            self.net.setInput(normalised(crops))
            return self.net.forward(name).reshape(len(crops), -1).astype(np.float64)

    def _last_dense(self) -> tuple[str, np.ndarray, np.ndarray]:
        if self._head is None:
            shape = (4, self.side, self.side, 3)
            probe = np.random.default_rng(0).integers(0, 256, shape, np.uint8)
            with self._lock:
                self._head = network.last_dense(self.net, normalised(probe), len(CLASSES))
        return self._head


@lru_cache(maxsize=2)
def model(name: str = "faces") -> FaceModel:
    """A shipped model (`model/NAME.onnx` and `NAME.json`), loaded once (ModelError names a
    missing or corrupt file)."""
    return FaceModel(name=name)
