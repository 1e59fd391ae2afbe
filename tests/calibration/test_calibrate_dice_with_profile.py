"""`companion calibrate dice --profile DATA_DIR/profile.toml`: tuning starts from the owner's
calibrated profile and keeps its camera settings and tray."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np

from calibration import profile as calibration_profile
from companion.cli import main
from companion.dice import synth

TRAY = ((0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9))


def _labelled_set(folder, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    (folder / "images").mkdir(parents=True)
    lines = []
    for i in range(n):
        faces = [int(f) for f in rng.integers(1, 7, 3)]
        scene = synth.random_scene(faces, rng, view_tilt=0.0, style="white", surface="felt-blue")
        cv2.imwrite(str(folder / "images" / f"{i}.png"), synth.render(scene, rng))
        dice = [{"value": f, "box": [0, 0, 1, 1]} for f in faces]
        lines.append(json.dumps({"image": f"images/{i}.png", "dice": dice, "box_kind": "die"}))
    (folder / "labels.jsonl").write_text("\n".join(lines) + "\n")


def test_tuning_a_calibrated_profile_keeps_its_camera_and_tray(tmp_path, capsys):
    calibrated = replace(calibration_profile.load(None), camera={"exposure_us": 15000}, tray=TRAY)
    start = tmp_path / "profile.toml"
    calibration_profile.save(calibrated, start)
    _labelled_set(tmp_path / "photos", 3, seed=4)
    out = tmp_path / "tuned.toml"
    argv = ["calibrate", "dice", str(tmp_path / "photos"), "--rounds", "1"]
    assert main([*argv, "--profile", str(start), "--out", str(out)]) == 0
    assert "before:" in capsys.readouterr().out
    tuned = calibration_profile.load(out)
    assert tuned.camera == {"exposure_us": 15000} and tuned.tray == TRAY
    assert tuned.dice.name.endswith("tuned")


def test_a_broken_calibrated_profile_is_refused_naming_the_key(tmp_path, capsys):
    start = tmp_path / "profile.toml"
    start.write_text('name = "x"\n\n[tray]\ncorners = [[0, 0]]\n')
    _labelled_set(tmp_path / "photos", 1, seed=4)
    assert main(["calibrate", "dice", str(tmp_path / "photos"), "--profile", str(start)]) == 2
    err = capsys.readouterr().err
    assert str(start) in err and "tray.corners" in err
