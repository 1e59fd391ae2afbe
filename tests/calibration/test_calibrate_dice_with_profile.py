"""`companion calibrate dice --profile DATA_DIR/profile.toml`: tuning starts from the owner's
calibrated profile and keeps its camera settings and tray."""

from __future__ import annotations

from dataclasses import replace

from companion import profile as calibration_profile
from companion.cli import main

TRAY = ((0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9))


def test_tuning_a_calibrated_profile_keeps_its_camera_and_tray(tmp_path, capsys, labelled_set):
    calibrated = replace(calibration_profile.load(None), camera={"exposure_us": 15000}, tray=TRAY)
    start = tmp_path / "profile.toml"
    calibration_profile.save(calibrated, start)
    labelled_set(tmp_path / "photos", 3, seed=4)
    out = tmp_path / "tuned.toml"
    argv = ["calibrate", "dice", str(tmp_path / "photos"), "--rounds", "1"]
    assert main([*argv, "--profile", str(start), "--out", str(out)]) == 0
    assert "before:" in capsys.readouterr().out
    tuned = calibration_profile.load(out)
    assert tuned.camera == {"exposure_us": 15000} and tuned.tray == TRAY
    assert tuned.dice.name.endswith("tuned")


def test_a_broken_calibrated_profile_is_refused_naming_the_key(tmp_path, capsys, labelled_set):
    start = tmp_path / "profile.toml"
    start.write_text('name = "x"\n\n[tray]\ncorners = [[0, 0]]\n')
    labelled_set(tmp_path / "photos", 1, seed=4)
    assert main(["calibrate", "dice", str(tmp_path / "photos"), "--profile", str(start)]) == 2
    err = capsys.readouterr().err
    assert str(start) in err and "tray.corners" in err


def test_calibrating_for_the_detector_stores_the_die_size_and_tunes_nothing_else(
    tmp_path, capsys, labelled_set
):
    start = tmp_path / "profile.toml"
    calibration_profile.save(replace(calibration_profile.load(None), tray=TRAY), start)
    labelled_set(tmp_path / "photos", 3, seed=4)
    out = tmp_path / "calibrated.toml"
    argv = ["calibrate", "dice", str(tmp_path / "photos"), "--reader", "detector"]
    assert main([*argv, "--profile", str(start), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "of the pictures' longest side" in said and "before:" in said and "after:" in said
    calibrated = calibration_profile.load(out)
    share = calibrated.dice.scale.calibrated_die
    assert 0.02 < share < 0.2  # rendered dice of 30-56 px in 640 x 480 trays
    shipped = calibration_profile.load(None).dice
    assert replace(calibrated.dice, scale=shipped.scale, name=shipped.name) == shipped
    assert calibrated.tray == TRAY
