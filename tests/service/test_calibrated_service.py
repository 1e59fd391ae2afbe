"""The owner's calibration profile in the running companion: the dice reader reads the
calibrated tray with the calibrated numbers, the camera takes the calibrated settings, a
profile saved while running is used without a restart, and a broken one stops the start with
a message naming the file and the key."""

from __future__ import annotations

import io
import logging
from dataclasses import replace

import numpy as np
import pytest
from servicekit import free_port, wait_for
from tablehttp import host

from companion import profile as calibration_profile
from companion.dice import detector, synth
from companion.profile_source import ProfileSource
from companion.rolls import tray_watcher
from companion.runtime import service as service_module
from hardware.camera import CameraSettings

LEFT = ((0.0, 0.0), (0.5, 0.0), (0.5, 1.0), (0.0, 1.0))
RIGHT = ((0.5, 0.0), (1.0, 0.0), (1.0, 1.0), (0.5, 1.0))


def _tray(faces: list[int], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scene = synth.random_scene(faces, rng, width=640, height=480, view_tilt=0.0)
    return synth.render(scene, rng)


@pytest.fixture(scope="module")
def two_trays() -> np.ndarray:
    """One frame: dice 2 5 6 on its left half, dice 1 4 on its right half."""
    return np.concatenate([_tray([2, 5, 6], 1), _tray([1, 4], 2)], axis=1)


def _throw(watch, frame: np.ndarray) -> tuple[int, ...] | None:
    """The dice move (an empty frame), then lie still until the watcher reads them."""
    watch(np.zeros_like(frame), None)
    for _ in range(20):
        state = watch(frame, None)
        if state.values is not None:
            return state.values
    return None


def _save(path, **changes) -> None:
    calibration_profile.save(replace(calibration_profile.load(None), **changes), path)


def test_the_reader_reads_only_the_calibrated_tray(two_trays):
    assert _throw(tray_watcher(), two_trays) == (1, 2, 4, 5, 6)  # no tray: the whole frame
    left = replace(calibration_profile.load(None), tray=LEFT)
    assert _throw(tray_watcher(lambda: left), two_trays) == (2, 5, 6)


def test_with_a_calibrated_die_size_the_detector_reads_each_settled_frame_in_one_pass():
    """The tray watcher reads the last 2 frames of the settle window: one network pass each
    at the calibrated die size, where the search for the size takes more."""
    rng = np.random.default_rng(3)
    scene = synth.random_scene([2, 3, 6, 6], rng, width=640, height=480, size=40, view_tilt=0.0)
    frame = synth.render(scene, rng)
    plain = calibration_profile.load(None)
    dice = replace(plain.dice, scale=replace(plain.dice.scale, calibrated_die=40 / 640))
    calibrated = replace(plain, dice=dice)
    passes = {}
    for name, profile in (("searching", plain), ("calibrated", calibrated)):
        before = detector.model().passes
        assert _throw(tray_watcher(lambda p=profile: p, reader="detector"), frame) == (2, 3, 6, 6)
        passes[name] = detector.model().passes - before
    assert passes["calibrated"] == 2 < passes["searching"]


def test_a_tray_calibrated_while_running_is_read_from_the_next_throw(tmp_path, two_trays):
    path = tmp_path / "profile.toml"
    _save(path, tray=LEFT)
    source = ProfileSource(path, check_every=0)
    watch = tray_watcher(source.current)
    assert _throw(watch, two_trays) == (2, 5, 6)
    _save(path, tray=RIGHT)
    assert _throw(watch, two_trays) == (1, 4)


def test_a_broken_profile_saved_while_running_keeps_the_one_in_use(tmp_path, caplog):
    path = tmp_path / "profile.toml"
    _save(path, tray=LEFT)
    source = ProfileSource(path, check_every=0)
    path.write_text(path.read_text().replace("[tray]", "[tray]\nsize = 3"))
    with caplog.at_level(logging.WARNING):
        assert source.current().tray == LEFT
    assert "tray.size" in caplog.text and str(path) in caplog.text
    caplog.clear()
    assert source.current().tray == LEFT
    assert "tray.size" not in caplog.text  # reported once, not on every frame
    _save(path, tray=RIGHT)
    assert source.current().tray == RIGHT


def test_a_broken_profile_stops_the_start_naming_the_file_and_key(tmp_path, caplog):
    data = tmp_path / "data"
    data.mkdir()
    path = data / "profile.toml"
    _save(path, tray=LEFT)
    path.write_text(path.read_text().replace("[tray]", "[camera]\nexposure_us = -5\n\n[tray]"))
    with caplog.at_level(logging.ERROR):
        code = service_module.main(
            simulate=True, port=free_port(), host="127.0.0.1", data_dir=str(data)
        )
    assert code == 1
    assert "Cannot start" in caplog.text
    assert str(path) in caplog.text and "camera.exposure_us" in caplog.text


def test_a_calibrated_profile_named_in_the_settings_sets_the_camera(tmp_path, start_service):
    path = tmp_path / "kitchen.toml"
    _save(path, tray=LEFT, camera={"exposure_us": 23000, "colour_gains": [2.0, 1.4]})
    running = start_service(**{"dice.profile": str(path), "camera.kind": "usb"})
    settings = running.service.camera.settings
    assert settings.exposure_us == 23000 and settings.colour_gains == (2.0, 1.4)
    assert (settings.width, settings.height) == running.service.config.camera.resolution
    # Calibrated again while running: the camera takes the new profile's settings.
    _save(path, tray=LEFT, camera={"exposure_us": 9000})
    assert running.service.profile.refresh()
    settings = running.service.camera.settings
    assert settings.exposure_us == 9000 and settings.colour_gains == CameraSettings().colour_gains


def test_calibration_on_the_host_page_takes_effect_without_a_restart(tmp_path, start_service):
    running = start_service()
    service = running.service
    assert wait_for(lambda: service.rolls.latest_image() is not None)
    height, width = service.rolls.latest_image().shape[:2]
    phone = host(running.base, running.pin)
    assert wait_for(lambda: service.simulator.oled_png())  # the panel has drawn its first screen
    assert not _oled_shows_guide(service)

    status, body = phone.post("/api/host/calibration/start", {"step": "frame"})
    assert status == 200 and body["step"] == "frame"
    # The OLED tells the owner what to do, for as long as the calibration goes on.
    assert wait_for(lambda: _oled_shows_guide(service))
    corners = [[0.1 * width, 0.1 * height], [0.9 * width, 0.1 * height]]
    corners += [[0.9 * width, 0.9 * height], [0.1 * width, 0.9 * height]]
    status, body = phone.post("/api/host/calibration/corners", {"points": corners})
    assert status == 200 and body["ok"], body
    assert body["step"] == "dice"
    assert wait_for(lambda: _oled_shows_guide(service))  # now: roll the dice

    stored = calibration_profile.load(service.data_dir / "profile.toml")
    assert stored.tray is not None
    # The host page's camera picture turns into the straightened tray within a second or two.
    assert wait_for(lambda: service.profile.profile.tray == stored.tray, timeout=10)
    tray_width = round(0.8 * width)

    def shows_the_tray() -> bool:
        import cv2

        data = service.rolls.camera_jpeg()
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        return abs(image.shape[1] - tray_width) <= 2

    assert wait_for(shows_the_tray, timeout=10)
    # Calibration still sees the whole raw frame, so the tray can be found again.
    assert service.calibration.latest_image().shape == (height, width, 3)


def test_the_host_page_calibrates_the_die_size_for_the_detector_the_settings_name(start_service):
    running = start_service(**{"dice.reader": "detector"})
    service = running.service
    assert wait_for(lambda: service.rolls.latest_image() is not None)
    height, width = service.rolls.latest_image().shape[:2]
    phone = host(running.base, running.pin)
    corners = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
    status, body = phone.post("/api/host/calibration/corners", {"points": corners})
    assert status == 200 and body["ok"], body
    camera = service.simulator.camera
    for faces in ("146", "225", "361"):
        service.simulator.throw(3, [int(f) for f in faces])
        assert wait_for(lambda: camera.settled, timeout=10)
        seen = service.rolls.latest_image()
        assert wait_for(lambda s=seen: service.rolls.latest_image() is not s)  # a frame at rest
        status, body = phone.post("/api/host/calibration/roll", {"faces": faces})
        assert status == 200 and body["ok"], body
    assert "Dice reader calibrated to dice about" in body["note"], body["note"]
    assert "tuned" not in body["note"]
    stored = calibration_profile.load(service.data_dir / "profile.toml")
    assert stored.dice.scale.calibrated_die > 0
    assert stored.dice.pips == calibration_profile.load(None).dice.pips


def _oled_shows_guide(service) -> bool:
    from PIL import Image

    desk = service.calibration
    with desk.lock:
        guide = desk.session.guide().screen().image.convert("1").tobytes()
    shown = Image.open(io.BytesIO(service.simulator.oled_png())).convert("1").tobytes()
    return shown == guide


def test_a_profile_first_written_while_running_replaces_the_built_in_one(tmp_path):
    path = tmp_path / "profile.toml"
    source = ProfileSource(path, check_every=0)
    assert source.current().tray is None
    _save(path, tray=RIGHT)
    assert source.current().tray == RIGHT
