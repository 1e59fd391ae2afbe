"""The calibration profile: one TOML file for camera, tray and dice, checked on load."""

from __future__ import annotations

import pytest

from companion import profile as calibration_profile
from companion.profile import CalibrationProfile, ProfileError
from hardware.camera import CameraSettings


def _write(tmp_path, text: str):
    path = tmp_path / "profile.toml"
    path.write_text(text)
    return path


def test_a_saved_profile_reads_back_the_same(tmp_path):
    original = CalibrationProfile(
        camera={"exposure_us": 12000, "analogue_gain": 1.5, "colour_gains": [1.9, 1.5]},
        tray=((0.1, 0.12), (0.9, 0.1), (0.92, 0.9), (0.08, 0.91)),
    )
    calibration_profile.save(original, tmp_path / "p.toml")
    loaded = calibration_profile.load(tmp_path / "p.toml")
    assert loaded == original
    settings = loaded.camera_settings(CameraSettings())
    assert settings.exposure_us == 12000
    assert settings.colour_gains == (1.9, 1.5)


def test_the_shipped_default_profile_loads():
    loaded = calibration_profile.load(None)
    assert loaded.tray is None and loaded.camera == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[tray]\ncorners = [[0, 0], [1, 0], [1, 1]]\n", "tray.corners: expected 4"),
        ("[tray]\ncorners = [[0, 0], [0, 1], [1, 1], [1, 0]]\n", "clockwise"),
        ("[tray]\ncorners = [[0, 0], [1.5, 0], [1, 1], [0, 1]]\n", "outside 0.0..1.0"),
        ("[tray]\ncorners = [[0.5, 0.5], [0.55, 0.5], [0.55, 0.55], [0.5, 0.55]]\n", "only"),
        ("[tray]\nedges = 4\n", "unknown key tray.edges"),
        ("[camera]\nexposure = 10\n", "Unknown camera setting"),
        ("[camera]\nexposure_us = -5\n", "camera.exposure_us: -5 is outside"),
        ("[camera]\ncolour_gains = [1.0]\n", "camera.colour_gains"),
        ("[pips]\nthreshold = 'high'\n", "pips.threshold: expected a number"),
        ("[lamp]\nwatts = 60\n", "unknown section [lamp]"),
        ("[tray\n", "not valid TOML"),
    ],
)
def test_a_bad_profile_is_refused_naming_file_and_key(tmp_path, text, message):
    path = _write(tmp_path, text)
    with pytest.raises(ProfileError, match=message.replace("[", r"\[").replace(".", r"\.")) as err:
        calibration_profile.load(path)
    assert str(path) in str(err.value)


def test_a_missing_profile_falls_back_to_the_built_in_one(tmp_path):
    loaded = calibration_profile.load_or_default(tmp_path / "nothing.toml")
    assert loaded.tray is None
    with pytest.raises(ProfileError, match="cannot read"):
        calibration_profile.load(tmp_path / "nothing.toml")
