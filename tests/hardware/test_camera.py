"""Camera drivers: frames, timestamps, replay, and every way a camera can go missing."""

from __future__ import annotations

import sys
import types
from typing import ClassVar

import cv2
import numpy as np
import pytest

from hardware.camera import CameraError, CameraSettings, FolderCamera, PiCamera, UsbCamera

BLUE, GREEN, RED = (255, 0, 0), (0, 255, 0), (0, 0, 255)


def solid(colour, size=(64, 48)):
    image = np.zeros((size[1], size[0], 3), np.uint8)
    image[:] = colour
    return image


@pytest.fixture
def roll_folder(tmp_path):
    for i, colour in enumerate([BLUE, GREEN, RED]):
        cv2.imwrite(str(tmp_path / f"frame_{i:03d}.png"), solid(colour))
    (tmp_path / "notes.txt").write_text("not a frame")
    return tmp_path


def test_folder_camera_replays_images_in_order_as_bgr_with_recording_timestamps(roll_folder):
    with FolderCamera(roll_folder, fps=10) as camera:
        frames = [camera.read() for _ in range(3)]
    assert [tuple(int(v) for v in f.image[0, 0]) for f in frames] == [BLUE, GREEN, RED]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert [f.index for f in frames] == [0, 1, 2]
    assert frames[0].size == (64, 48)


def test_folder_camera_reports_the_end_then_reopens_from_the_start(roll_folder):
    camera = FolderCamera(roll_folder)
    camera.open()
    for _ in range(3):
        camera.read()
    with pytest.raises(CameraError, match="no more frames"):
        camera.read()
    assert not camera.is_open
    with pytest.raises(CameraError, match="not open"):
        camera.read()
    camera.open()
    assert tuple(int(v) for v in camera.read().image[0, 0]) == BLUE


def test_folder_camera_loops_with_timestamps_still_increasing(roll_folder):
    with FolderCamera(roll_folder, fps=10, loop=True) as camera:
        frames = [camera.read() for _ in range(7)]
    assert tuple(int(v) for v in frames[3].image[0, 0]) == BLUE
    stamps = [f.timestamp for f in frames]
    assert stamps == sorted(stamps) and len(set(stamps)) == 7


def test_folder_camera_names_the_problem(tmp_path):
    with pytest.raises(CameraError, match="No recording"):
        FolderCamera(tmp_path / "missing").open()
    with pytest.raises(CameraError, match="No images"):
        FolderCamera(tmp_path).open()
    (tmp_path / "broken.png").write_bytes(b"not a png")
    camera = FolderCamera(tmp_path)
    camera.open()
    with pytest.raises(CameraError, match=r"broken\.png"):
        camera.read()


def write_video(path, colours, size=(64, 48)):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, size)
    assert writer.isOpened()
    for colour in colours:
        writer.write(solid(colour, size))
    writer.release()


def test_folder_camera_replays_a_video_at_its_own_frame_rate(tmp_path):
    video = tmp_path / "roll.avi"
    write_video(video, [RED, RED, GREEN])
    with FolderCamera(video) as camera:
        frames = [camera.read() for _ in range(3)]
        with pytest.raises(CameraError):
            camera.read()
    assert frames[2].timestamp == pytest.approx(0.4)
    b, g, r = (int(v) for v in frames[2].image[10, 10])
    assert g > 200 and r < 60 and b < 60


def test_usb_camera_that_is_absent_says_where_it_looked():
    camera = UsbCamera(97)
    with pytest.raises(CameraError, match=r"No USB camera at /dev/video97"):
        camera.open()
    assert not camera.is_open


def test_usb_camera_that_stops_delivering_raises_and_can_be_reopened(tmp_path):
    # OpenCV opens a file through the same VideoCapture path as a device; its end stands in
    # for a webcam being unplugged mid-game.
    video = tmp_path / "webcam.avi"
    write_video(video, [BLUE, BLUE])
    camera = UsbCamera(str(video))
    camera.open()
    camera.read()
    camera.read()
    with pytest.raises(CameraError, match="stopped delivering frames"):
        camera.read()
    assert not camera.is_open
    camera.open()
    assert camera.read().index == 0


def test_pi_camera_without_picamera2_explains_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 -> ImportError
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        PiCamera().open()


class FakePicamera2:
    """picamera2's documented surface, enough to drive the adapter off-Pi."""

    instances: ClassVar[list[FakePicamera2]] = []
    absent = False

    def __init__(self, camera_num=0):
        if FakePicamera2.absent:
            raise IndexError("list index out of range")
        self.config = None
        self.started = self.closed = False
        self.fail_next = False
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, controls):
        return {"main": main, "controls": controls}

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def capture_array(self, stream):
        if self.fail_next:
            raise RuntimeError("Camera frontend has timed out!")
        w, h = self.config["main"]["size"]
        return np.full((h, w, 4), 7, np.uint8)  # XRGB-style padding byte included

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    FakePicamera2.instances = []
    FakePicamera2.absent = False
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_pi_camera_fixes_exposure_and_white_balance_and_delivers_bgr(fake_picamera2):
    settings = CameraSettings(
        width=320, height=240, exposure_us=8000, analogue_gain=2.0, colour_gains=(1.5, 1.9)
    )
    with PiCamera(settings) as camera:
        frame = camera.read()
        config = fake_picamera2.instances[0].config
    assert config["main"] == {"size": (320, 240), "format": "RGB888"}
    controls = config["controls"]
    assert controls["AeEnable"] is False and controls["AwbEnable"] is False
    assert controls["ExposureTime"] == 8000 and controls["AnalogueGain"] == 2.0
    assert controls["ColourGains"] == (1.5, 1.9)
    assert frame.image.shape == (240, 320, 3)
    assert fake_picamera2.instances[0].closed


def test_pi_camera_that_fails_mid_game_raises_and_reopens(fake_picamera2):
    camera = PiCamera(CameraSettings(width=32, height=24))
    camera.open()
    fake_picamera2.instances[0].fail_next = True
    with pytest.raises(CameraError, match="stopped delivering frames"):
        camera.read()
    assert not camera.is_open and fake_picamera2.instances[0].closed
    camera.open()
    assert camera.read().image.shape == (24, 32, 3)


def test_pi_camera_absent_says_to_check_the_cable(fake_picamera2):
    fake_picamera2.absent = True
    with pytest.raises(CameraError, match="ribbon cable"):
        PiCamera().open()


def test_camera_settings_reject_unknown_keys_from_a_profile():
    settings = CameraSettings.from_mapping({"width": 640, "colour_gains": [1.2, 1.4]})
    assert settings.width == 640 and settings.colour_gains == (1.2, 1.4)
    with pytest.raises(ValueError, match="exposure"):
        CameraSettings.from_mapping({"exposure": 100})


def test_a_profile_may_fix_every_camera_setting_and_only_those():
    """The owner's profile (in the companion) names the camera's settings without importing
    the camera drivers; the two lists must stay the same."""
    from dataclasses import fields

    from companion.profile import CAMERA_KEYS

    assert sorted(CAMERA_KEYS) == sorted(f.name for f in fields(CameraSettings))
