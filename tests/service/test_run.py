"""Starting and supervising: bad settings stop the start with the key named; the watchdog is
fed only while the camera thread makes progress; mDNS announces the pages when asked."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from servicekit import wait_for

from companion.dice import detector, faceclass
from companion.runtime.service import CameraWorker, Health, announce_mdns, main
from hardware.camera import SimTrayCamera


def test_a_misspelled_setting_stops_the_start_naming_the_key(tmp_path, capsys):
    settings = tmp_path / "companion.toml"
    settings.write_text("[display]\nadress = 0x3c\n")
    assert main(str(settings), simulate=True, data_dir=str(tmp_path / "data")) == 2
    assert "display.adress: unknown key (did you mean address?)" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()  # nothing was started


def test_a_taken_port_is_reported_not_a_traceback(tmp_path, caplog):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(simulate=True, port=port, host="127.0.0.1", data_dir=str(tmp_path / "d"))
    assert code == 1
    assert "Cannot start" in caplog.text and "in use" in caplog.text


class HungCamera(SimTrayCamera):
    """A camera whose driver stops returning frames (a wedged USB camera does this)."""

    def __init__(self):
        super().__init__(fps=30, seed=3)
        self.hang = threading.Event()
        self.release = threading.Event()

    def _grab(self):
        if self.hang.is_set():
            self.release.wait()
        return super()._grab()


def test_the_watchdog_sees_a_hung_camera_thread():
    camera = HungCamera()
    frames = []
    worker = CameraWorker(camera, frames.append, Health(), fps=30, retry_after=1)
    worker.start()
    try:
        assert wait_for(lambda: len(frames) > 3)
        assert worker.alive(within=0.5)
        camera.hang.set()
        time.sleep(0.8)
        assert not worker.alive(within=0.5)  # so the main loop stops pinging systemd
        camera.release.set()
        assert wait_for(lambda: worker.alive(within=0.5))
    finally:
        camera.release.set()
        worker.stop()


def test_mdns_announces_the_pages():
    from zeroconf import Zeroconf

    from web.access import lan_ip

    if lan_ip() is None:
        pytest.skip("no network interface to announce on")
    name = f"chac-{uuid.uuid4().hex[:8]}"
    announcer = announce_mdns(name, 8123)
    browser = Zeroconf()
    try:
        info = browser.get_service_info(
            "_http._tcp.local.", f"Chac Companion ({name})._http._tcp.local.", timeout=3000
        )
    finally:
        browser.close()
        announcer.close()
    assert info is not None
    assert info.port == 8123
    assert info.server == f"{name}.local."


@pytest.mark.parametrize(
    ("models", "broken", "content"),
    [
        (faceclass, "faces.onnx", b"truncated"),  # the pip search's, corrupt
        # The default reader's own network, missing: loaded at start-up too.
        (detector, "detector.onnx", None),
    ],
    ids=["corrupt classifier", "missing detector"],
)
def test_a_broken_dice_model_stops_the_start_naming_the_file(
    tmp_path, caplog, monkeypatch, models, broken, content
):
    if content is not None:
        (tmp_path / broken).write_bytes(content)
    monkeypatch.setattr(models, "MODEL_DIR", tmp_path)
    models.model.cache_clear()
    try:
        code = main(simulate=True, port=18080, host="127.0.0.1", data_dir=str(tmp_path / "d"))
    finally:
        models.model.cache_clear()
    assert code == 1
    errors = [r.getMessage() for r in caplog.records if "Cannot start" in r.getMessage()]
    assert len(errors) == 1 and str(tmp_path / broken) in errors[0]
    assert "\n" not in errors[0]
