"""The reader's second design from the outside: a frame at any scale is read alike, the face
classifier's model is named when it cannot be loaded, and bad frames are refused."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.dice import synth
from companion.dice.faceclass import MODEL_DIR, FaceModel, ModelError, model
from companion.dice.reader import read
from companion.dice.reading import OK


def _roll(faces, seed: int, size: float = 44.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scene = synth.random_scene(faces, rng, style="ivory", surface="felt-green", size=size)
    return synth.render(scene, rng)


def _same_places(small, large, zoom: float, within: float) -> None:
    """The dice of `large` lie where those of `small` do, in the big frame's pixels (within
    `within` of the small frame's pixels)."""
    for a, b in zip(
        sorted(small.dice, key=lambda d: d.centre),
        sorted(large.dice, key=lambda d: d.centre),
        strict=True,
    ):
        assert abs(b.centre[0] - zoom * a.centre[0]) < within * zoom
        assert abs(b.centre[1] - zoom * a.centre[1]) < within * zoom


@pytest.mark.parametrize("zoom", [2.0, 4.0])
def test_a_roll_photographed_at_a_higher_resolution_reads_the_same(zoom):
    """A 640x480 tray and the same tray at 1280x960 or 2560x1920 (dice 90-180 px): the reader
    brings each to its die size first, so the reading does not change."""
    frame = _roll([1, 3, 4, 6], seed=3)
    big = cv2.resize(frame, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
    small, large = read(frame, expected=4), read(big, expected=4)
    assert small.status == OK, small.problems
    assert large.status == OK, large.problems
    assert large.values == small.values == [1, 3, 4, 6]
    _same_places(small, large, zoom, 4.0)


@pytest.mark.parametrize("zoom", [3.0, 5.0])
def test_the_pip_search_seconding_the_detector_reads_a_big_still_as_the_camera_s_frame(zoom):
    """Told the dice's edge as the detector measured it, the pip search reads a still of
    any resolution as it reads the 640x480 frame: at the dice's measured size, never finer
    than the frame brought to its longest side (its own measure of small coloured dice,
    from their pips, once took it finer in big stills, where it read grain as pips)."""
    frame = _roll([2, 3, 5, 6], seed=8, size=30.0)
    big = cv2.resize(frame, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
    small, large = read(frame, expected=4, edge=30.0), read(big, expected=4, edge=30.0 * zoom)
    assert small.status == large.status == OK, (small.problems, large.problems)
    assert large.values == small.values == [2, 3, 5, 6]
    _same_places(small, large, zoom, 2.0)


def test_big_dice_close_to_the_camera_are_read():
    """Dice 150 px across in a 640x480 frame (a camera close over the tray)."""
    rng = np.random.default_rng(5)
    body, pips = synth.DIE_STYLES["ivory"]
    dice = tuple(
        synth.DieSpec(face=f, x=x, y=240, size=150, angle=a, body=body, pips=pips)
        for f, x, a in ((2, 140, 10.0), (5, 330, 35.0), (6, 520, 70.0))
    )
    colour, texture = synth.SURFACES["felt-blue"]
    frame = synth.render(synth.Scene(dice=dice, surface=colour, texture=texture), rng)
    reading = read(frame, expected=3)
    assert reading.values == [2, 5, 6]


def test_the_shipped_model_gives_a_probability_of_each_class_for_each_crop():
    crops = np.zeros((3, 40, 40, 3), np.uint8)
    p = model().probabilities(crops)
    assert p.shape == (3, 8)
    assert np.allclose(p.sum(axis=1), 1.0)


def test_a_missing_or_corrupt_model_is_named(tmp_path):
    with pytest.raises(ModelError, match=r"faces\.onnx"):
        FaceModel(tmp_path)
    (tmp_path / "faces.onnx").write_bytes(b"not a network")
    with pytest.raises(ModelError, match=r"faces\.onnx"):
        FaceModel(tmp_path)


@pytest.mark.parametrize(
    "settings",
    [
        '{"temperature": 1.0}',
        '{"temperature": 1.0, "accept": 0.9, "agreed": 0.8, "crop": "wide"}',
        '{"temperature": 1.0, "accept": 0.9, "agreed": 0.8, "crop": 0}',
        '{"temperature": 1.0, "accept": 0.9, "agreed": 0.8, "crop": 56}',
    ],
    ids=["no acceptance", "crop not a number", "crop too small", "crop not the network's"],
)
def test_the_model_settings_file_must_say_its_temperature_acceptance_and_crop(tmp_path, settings):
    (tmp_path / "faces.onnx").write_bytes((MODEL_DIR / "faces.onnx").read_bytes())
    (tmp_path / "faces.json").write_text(settings)
    with pytest.raises(ModelError, match=r"faces\.json"):
        FaceModel(tmp_path)
