"""Calibration learns the owner's die size, and the learned detector reads at it: from the
three labelled rolls, in units of the tray view that survive a change of resolution."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.session import CalibrationSession
from calibration.tile_synth import SimTableCamera
from companion import profile as calibration_profile
from companion.dice import detector, learned, synth
from companion.dice.profile import Profile
from companion.dice.reading import OK
from companion.dice.scoring import Sample
from companion.dice.tune import die_share
from hardware.camera import CameraSettings

DIE = 44  # the simulated camera's dice, in pixels of its 640-wide tray


def _calibrate(session: CalibrationSession, camera, rolls) -> None:
    camera.clear()
    assert session.capture(camera.read().image), session.problem
    for shown, typed in rolls:
        camera.show_dice(shown)
        assert session.add_roll(camera.read().image, typed), session.problem


def _rolls(seed: int, count: int = 3) -> list[tuple[list[int], list[int]]]:
    rng = np.random.default_rng(seed)
    faces = [[int(f) for f in rng.integers(1, 7, 5)] for _ in range(count)]
    return [(f, f) for f in faces]


def test_calibrating_the_detector_stores_the_die_size_and_tunes_no_pip_search_number(
    tmp_path, camera
):
    # Pip-search numbers no camera suits: the detector's calibration leaves them alone, and
    # its figures are the detector's own.
    bad = Profile()
    bad = replace(bad, faces=replace(bad.faces, max_pip_elongation=1.0))
    path = tmp_path / "profile.toml"
    calibration_profile.save(calibration_profile.CalibrationProfile(dice=bad), path)
    session = CalibrationSession(tmp_path, reader="detector", game_steps=[])
    _calibrate(session, camera, _rolls(1))

    stored = calibration_profile.load(path)
    view = session.tray_view(camera.read().image)
    expected = DIE * view.shape[1] / 640
    size = stored.dice.scale.die_pixels(view.shape)
    assert abs(size - expected) < 0.15 * expected
    assert f"dice about {size:.0f} px across" in session.note
    assert replace(stored.dice, scale=bad.scale) == bad  # nothing else changed
    before, after = session.dice_accuracy
    assert after >= 0.9 and f"{before:.0%} of dice read right before, {after:.0%} now" in (
        session.note
    )
    assert "tuned" not in session.note
    assert stored.tray is not None and session.note.endswith("Calibration is complete.")


def test_the_pip_search_s_calibration_also_stores_the_die_size(tmp_path, camera):
    session = CalibrationSession(tmp_path, reader="pip-search", game_steps=[])
    _calibrate(session, camera, _rolls(2))
    stored = calibration_profile.load(tmp_path / "profile.toml")
    view = session.tray_view(camera.read().image)
    size = stored.dice.scale.die_pixels(view.shape)
    expected = DIE * view.shape[1] / 640
    assert abs(size - expected) < 0.15 * expected
    assert session.note.startswith("Dice reader tuned: ")
    assert f"dice about {size:.0f} px across" in session.note


def test_rolls_read_with_another_count_leave_the_size_uncalibrated_and_say_so(tmp_path, camera):
    """A die that rolled out of view: the owner types six faces, the camera sees five dice
    in every roll. No roll tells the size; the rest of the calibration is kept."""
    path = tmp_path / "profile.toml"
    old = Profile()
    old = replace(old, scale=replace(old.scale, calibrated_die=0.2))  # another camera's dice
    calibration_profile.save(calibration_profile.CalibrationProfile(dice=old), path)
    session = CalibrationSession(tmp_path, reader="detector", game_steps=[])
    rolls = [(shown, [*shown, 6]) for shown, _ in _rolls(3)]
    _calibrate(session, camera, rolls)

    assert "The dice's size could not be told" in session.note
    assert "as many dice as typed" in session.note
    stored = calibration_profile.load(path)
    assert stored.dice.scale.calibrated_die == 0.0  # the detector searches for the size again
    assert stored.tray is not None and session.done()["dice"]


def test_a_die_size_calibrated_at_one_resolution_reads_right_at_twice_it(tmp_path):
    with SimTableCamera(seed=11) as camera:
        session = CalibrationSession(tmp_path, reader="detector", game_steps=[])
        _calibrate(session, camera, _rolls(4))
    stored = calibration_profile.load(tmp_path / "profile.toml")
    big = CameraSettings(width=1920, height=1440)
    with SimTableCamera(seed=11, settings=big) as camera:
        faces = [2, 6, 3, 1, 5]
        camera.show_dice(faces)
        view = stored.tray_view(camera.read().image)
    expected = 2 * DIE * view.shape[1] / 1280
    size = stored.dice.scale.die_pixels(view.shape)
    assert abs(size - expected) < 0.15 * expected
    passes = detector.model().passes
    reading = learned.read(view, stored.dice, expected=5)
    assert reading.values == sorted(faces) and reading.status == OK, reading.problems
    assert detector.model().passes - passes == 1


def _rendered(faces: list[int], size: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scene = synth.random_scene(faces, rng, width=640, height=480, size=size, view_tilt=0.0)
    return synth.render(scene, rng)


def test_the_die_size_comes_only_from_rolls_read_with_as_many_dice_as_labelled():
    small = [
        Sample(f"small {i}", (1, 3, 5, 6), frame=_rendered([1, 3, 5, 6], 30, i)) for i in (1, 2)
    ]
    # Dice twice as big, labelled with a die the picture does not show.
    big = Sample("miscounted", (2, 4, 4), frame=_rendered([2, 4], 60, 3))
    share = die_share([*small, big], Profile(), learned.read, again=2)
    # Within 15%, as a calibration session's stored size: the detector sees these dice as 32-33 px.
    assert abs(share * 640 - 30) < 0.15 * 30
    assert die_share([big], Profile(), learned.read) is None


def test_a_new_tray_outline_keeps_the_calibrated_die_size_in_camera_pixels(tmp_path, camera):
    session = CalibrationSession(tmp_path, reader="detector", game_steps=[])
    _calibrate(session, camera, _rolls(5))
    frame = camera.read().image
    size = session.profile.dice.scale.die_pixels(session.tray_view(frame).shape)
    # The tray's left half tapped as the tray: a view half as wide, the dice as big.
    (x0, y0), (x1, _), (_, y1) = camera.tray_quad[0], camera.tray_quad[1], camera.tray_quad[2]
    half = [[x0, y0], [(x0 + x1) / 2, y0], [(x0 + x1) / 2, y1], [x0, y1]]
    assert session.set_corners(frame, half), session.problem
    stored = calibration_profile.load(tmp_path / "profile.toml")
    assert stored.dice.scale.die_pixels(stored.tray_view(frame).shape) == pytest.approx(size, 0.02)
