"""The reader's shipped networks: loading one with OpenCV's dnn, and calibrated probabilities."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class ModelError(RuntimeError):
    """A network's weights or settings are missing or unreadable; the message names the file."""


def load(weights: Path, what: str) -> cv2.dnn.Net:
    """The ONNX network in `weights`; ModelError naming `what` and the file when it is missing
    or corrupt."""
    if not weights.is_file():
        raise ModelError(f"{what} {weights} is missing")
    try:
        return cv2.dnn.readNetFromONNX(str(weights))
    except cv2.error as exc:
        why = " ".join(str(getattr(exc, "err", exc)).split())
        raise ModelError(f"{what} {weights} cannot be loaded: {why}") from exc


def probabilities(logits: np.ndarray, temperature: float) -> np.ndarray:
    """Softmax over the last axis of `logits` divided by the fitted `temperature`."""
    z = np.asarray(logits, np.float64) / temperature
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=-1, keepdims=True)
