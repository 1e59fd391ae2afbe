"""Hardware faults the service rides out: a camera that fails or is unplugged, a display that
is missing or errors. Real drivers where the machine has them: the simulated camera renders
frames; the display is luma's dummy device behind the real OledDisplay."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from servicekit import wait_for

from companion.runtime.service import CameraWorker, Health, Screen
from hardware.camera import SimTrayCamera
from hardware.display import DisplayError, dummy_display


def test_an_unplugged_camera_is_reported_and_retried_until_it_returns(caplog):
    camera = SimTrayCamera(fps=20, seed=1)
    health = Health()
    frames = []
    worker = CameraWorker(camera, frames.append, health, fps=20, retry_after=0.3)
    worker.start()
    try:
        assert wait_for(lambda: len(frames) >= 3)
        assert health.camera == "ok"
        camera.set_plugged(False)
        # The read fails first, then every reopen finds no camera.
        assert wait_for(lambda: "No camera found" in health.camera)
        count = len(frames)
        time.sleep(0.8)  # two retries happen meanwhile, and fail
        assert len(frames) == count
        assert worker.alive(within=1.0)  # waiting for a camera is not a hang
        camera.set_plugged(True)
        assert wait_for(lambda: health.camera == "ok" and len(frames) > count + 2)
    finally:
        worker.stop()
    assert not camera.is_open
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert any("unplugged" in r.getMessage() for r in warnings)


def test_a_frame_handler_that_raises_does_not_stop_the_camera(caplog):
    camera = SimTrayCamera(fps=20, seed=2)
    calls = []

    def broken(frame):
        calls.append(frame.index)
        raise RuntimeError("reader bug")

    worker = CameraWorker(camera, broken, Health(), fps=30, retry_after=1)
    worker.start()
    try:
        assert wait_for(lambda: len(calls) >= 3)
    finally:
        worker.stop()
    assert "reader bug" in caplog.text
    assert caplog.text.count("Reading the dice failed") == 1  # logged once, not every frame


def test_no_display_leaves_the_service_running_and_says_so(caplog):
    health = Health()

    def no_display():
        raise DisplayError("No ssd1306 display at I2C bus 1, address 0x3c")

    screen = Screen(no_display, health)
    with caplog.at_level(logging.WARNING):
        assert not screen.show(blank())
        assert not screen.show(blank())  # no retry storm: waits DISPLAY_RETRY_S
    assert "No ssd1306 display" in health.display
    assert caplog.text.count("No ssd1306 display") == 1


class FlakyBus:
    """luma's dummy device whose I2C writes fail while `broken` is set."""

    def __init__(self):
        self.display = dummy_display(dim_after=0)
        self.broken = threading.Event()
        device = self.display.device
        real = device.display

        def write(image):
            if self.broken.is_set():
                raise OSError(121, "Remote I/O error")
            real(image)

        device.display = write


def test_a_display_that_errors_is_dropped_then_reopened(monkeypatch, caplog):
    monkeypatch.setattr("companion.runtime.service.DISPLAY_RETRY_S", 0.0)
    bus = FlakyBus()
    health = Health()
    screen = Screen(lambda: bus.display, health)
    first = blank()
    assert screen.show(first)
    assert health.display == "ok"
    bus.broken.set()
    second = blank(fill=1)
    assert not screen.show(second)
    assert "Remote I/O error" in health.display
    assert "Remote I/O error" in caplog.text
    bus.broken.clear()
    screen.tick()  # the retry shows the newest image
    assert health.display == "ok"
    assert bus.display.device.image.tobytes() == second.convert("1").tobytes()


def test_closing_blanks_the_panel():
    display = dummy_display()
    screen = Screen(lambda: display, Health())
    assert screen.show(blank(fill=1))
    screen.close()
    assert display.device.image.getbbox() is None  # all dark


def blank(fill: int = 0):
    from PIL import Image

    return Image.new("1", (128, 64), fill)


@pytest.fixture(autouse=True)
def _quiet_threads():
    yield
    assert not [t for t in threading.enumerate() if t.name == "camera"]
