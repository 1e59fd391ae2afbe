"""The reader's shipped networks: loading one with OpenCV's dnn, and calibrated probabilities."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class ModelError(RuntimeError):
    """A network's weights or settings are missing or unreadable; the message names the file."""


def load(weights: Path, what: str) -> cv2.dnn.Net:
    """The ONNX network in `weights`; ModelError naming `what` and the file when it is missing
    or corrupt.

    OpenCV 5 runs it on its classic engine, the only one the Pi's OpenCV 4 has: the same
    engine here as on the Pi, and on one core about a third quicker than OpenCV 5's new one."""
    if not weights.is_file():
        raise ModelError(f"{what} {weights} is missing")
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    try:
        if engine is None:
            return cv2.dnn.readNetFromONNX(str(weights))
        return cv2.dnn.readNetFromONNX(str(weights), engine)
    except cv2.error as exc:
        why = " ".join(str(getattr(exc, "err", exc)).split())
        raise ModelError(f"{what} {weights} cannot be loaded: {why}") from exc


def probabilities(logits: np.ndarray, temperature: float) -> np.ndarray:
    """Softmax over the last axis of `logits` divided by the fitted `temperature`."""
    z = np.asarray(logits, np.float64) / temperature
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=-1, keepdims=True)


def last_dense(
    net: cv2.dnn.Net, probe: np.ndarray, outputs: int
) -> tuple[str, np.ndarray, np.ndarray]:
    """The network's last dense layer, found by its graph: the name of the tensor it reads (its
    input features, which `net.forward(name)` returns) and its weights (outputs x features) and
    bias. Checked on `probe`: the weights applied to those features give the network's output.
    ModelError when no layer fits."""
    names = list(net.getLayerNames())
    dense = next(
        (
            (i, layer.blobs)
            for i, name in reversed(list(enumerate(names)))
            if len((layer := net.getLayer(net.getLayerId(name))).blobs) == 2
            and layer.blobs[0].ndim == 2
            and layer.blobs[0].shape[0] == outputs
        ),
        None,
    )
    if dense is None:
        raise ModelError(f"no dense layer with {outputs} outputs in the network")
    at, (weights, bias) = dense
    weights, bias = weights.astype(np.float64), bias.reshape(-1).astype(np.float64)
    net.setInput(probe)
    expected = net.forward().reshape(len(probe), outputs)
    # OpenCV 5 names the tensors between layers (its graph dump lists the layer's input);
    # OpenCV 4 forwards to a layer by the layer's name: the layers before it, nearest first.
    candidates = _dumped_input(net, names[at]) + names[:at][::-1]
    for name in candidates:
        try:
            net.setInput(probe)
            features = net.forward(name).reshape(len(probe), -1)
        except cv2.error:
            continue
        if features.shape[1] == weights.shape[1] and np.allclose(
            features @ weights.T + bias, expected, rtol=1e-3, atol=1e-3
        ):
            return name, weights, bias
    raise ModelError(f"the input of the network's last dense layer {names[at]} cannot be read")


def _dumped_input(net: cv2.dnn.Net, layer: str) -> list[str]:
    import re

    if not hasattr(net, "dump"):
        return []
    found = re.search(
        r'name: "' + re.escape(layer) + r'",.*?inputs: \[\s*"([^"]+)"', net.dump(), re.S
    )
    return [found.group(1)] if found else []
