"""The learned dice detector's files: a missing or corrupt model or settings file is named,
and the network takes frames of any size."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.dice import synth
from companion.dice.detector import MODEL_DIR, STRIDE, Detector, ModelError, model


def test_a_missing_or_corrupt_model_is_named(tmp_path):
    with pytest.raises(ModelError, match=r"detector\.onnx is missing"):
        Detector(tmp_path)
    (tmp_path / "detector.onnx").write_bytes(b"not a network")
    with pytest.raises(ModelError, match=r"detector\.onnx cannot be loaded"):
        Detector(tmp_path)


@pytest.mark.parametrize(
    "settings",
    [
        {"temperature": 1.0},
        {"temperature": 1, "present": 0.3, "sure_present": 0.5, "accept": "high", "maybe": 0.1},
        {
            **{"temperature": 1, "present": 0.3, "sure_present": 0.5, "accept": 0.9},
            **{"maybe": 0.1, "faces": "guess"},
        },
        {
            **{"temperature": 1, "present": 0.3, "sure_present": 0.5, "accept": 0.9},
            **{"maybe": 0.1, "faces": "both", "classifier": "../faces"},
        },
    ],
    ids=["thresholds missing", "not a number", "unknown face scores", "classifier not a name"],
)
def test_the_settings_file_must_hold_its_temperature_and_thresholds(tmp_path, settings):
    (tmp_path / "detector.onnx").write_bytes((MODEL_DIR / "detector.onnx").read_bytes())
    (tmp_path / "detector.json").write_text(json.dumps(settings))
    with pytest.raises(ModelError, match=r"detector\.json cannot be read"):
        Detector(tmp_path)


@pytest.mark.parametrize("shape", [(480, 640), (481, 637), (720, 1280), (100, 50)])
def test_the_network_takes_frames_of_any_size(shape):
    """Sides that are no multiple of the network's halvings are padded, and its output
    covers the frame, one cell every STRIDE pixels."""
    image = np.zeros((*shape, 3), np.uint8)
    out = model().outputs(image)
    assert out.shape[1:] == (-(-shape[0] // STRIDE), -(-shape[1] // STRIDE))
    assert np.isfinite(out).all()


def test_dice_are_found_where_they_lie_in_the_frame_s_pixels():
    rng = np.random.default_rng(4)
    body, pips = synth.DIE_STYLES["white"]
    dice = tuple(
        synth.DieSpec(face=f, x=x, y=y, size=44, body=body, pips=pips, angle=15.0)
        for f, x, y in ((2, 160, 140), (5, 470, 330))
    )
    colour, texture = synth.SURFACES["felt-blue"]
    frame = synth.render(synth.Scene(dice=dice, surface=colour, texture=texture), rng)
    sure = [f for f in model().find(frame) if f.presence >= model().settings.present]
    assert len(sure) == 2
    for f in sure:
        assert min(np.hypot(f.centre[0] - d.x, f.centre[1] - d.y) for d in dice) < 8
        assert 30 < f.size < 60
