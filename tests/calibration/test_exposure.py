"""Locking the exposure: the calibration finds settings that expose the tray well."""

from __future__ import annotations

from calibration.exposure import TARGET, lock_exposure
from calibration.tile_synth import SimTableCamera
from hardware.camera import CameraSettings


def _opener(opened: list):
    def open_camera(settings):
        opened.append(settings)
        return SimTableCamera(seed=3, settings=settings)

    return open_camera


def test_a_dark_start_is_brightened_until_the_tray_is_well_exposed():
    opened: list = []
    locked = lock_exposure(_opener(opened), CameraSettings(width=640, height=480, exposure_us=1500))
    assert locked.ok, locked.note
    assert TARGET[0] <= locked.mean <= TARGET[1]
    assert locked.settings.exposure_us > 1500
    assert len(opened) > 1


def test_an_overexposed_start_is_darkened():
    locked = lock_exposure(_opener([]), CameraSettings(width=640, height=480, exposure_us=60000))
    assert locked.ok, locked.note
    assert locked.settings.exposure_us < 30000


def test_a_lamp_too_weak_for_any_setting_is_reported():
    # At 1 frame per second the longest exposure is 1 s; a 1 us start with the gain capped
    # low still reaches it, so starve the light instead: a 640x480 frame of a dark room.
    class DarkRoom(SimTableCamera):
        def _grab(self):
            image, stamp = super()._grab()
            return (image * 0.02).astype(image.dtype), stamp

    settings = CameraSettings(width=640, height=480, exposure_us=33000, analogue_gain=8.0)
    locked = lock_exposure(lambda s: DarkRoom(seed=3, settings=s), settings)
    assert not locked.ok
    assert "add light" in locked.note
