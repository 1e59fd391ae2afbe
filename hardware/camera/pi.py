"""The Raspberry Pi camera through picamera2 (Raspberry Pi OS package; never imported off-Pi)."""

from __future__ import annotations

import time
from typing import Any

from hardware.camera.base import CameraBase, CameraError, CameraSettings, Clock, as_bgr

INSTALL_HINT = (
    "picamera2 is not available. On Raspberry Pi OS run `sudo apt install python3-picamera2` "
    "and create the virtualenv with --system-site-packages (numpy must stay the OS's 1.x)."
)


class PiCamera(CameraBase):
    """The Pi camera with fixed exposure and white balance.

    "RGB888" frames arrive from picamera2 in B, G, R byte order, which is what OpenCV wants,
    so no conversion happens here.

        camera = PiCamera(CameraSettings(width=1280, height=720, exposure_us=8000))
    """

    name = "Pi camera"

    def __init__(
        self,
        settings: CameraSettings | None = None,
        camera_num: int = 0,
        clock: Clock = time.monotonic,
    ):
        super().__init__(clock)
        self.settings = settings or CameraSettings()
        self.camera_num = camera_num
        self._camera: Any = None

    def controls(self) -> dict[str, Any]:
        """The libcamera controls that pin exposure and colour for the whole game."""
        s = self.settings
        controls: dict[str, Any] = {"FrameRate": s.fps}
        if s.exposure_us is not None:
            controls.update(AeEnable=False, ExposureTime=int(s.exposure_us))
            if s.analogue_gain is not None:
                controls["AnalogueGain"] = float(s.analogue_gain)
        if s.colour_gains is not None:
            controls.update(AwbEnable=False, ColourGains=tuple(s.colour_gains))
        return controls

    def _open_device(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError(INSTALL_HINT) from exc
        try:
            camera = Picamera2(self.camera_num)
        except (IndexError, RuntimeError) as exc:
            raise CameraError(
                f"No Pi camera found (camera {self.camera_num}): check the ribbon cable and "
                f"that `rpicam-hello --list-cameras` lists it ({exc})."
            ) from exc
        try:
            size = (self.settings.width, self.settings.height)
            config = camera.create_video_configuration(
                main={"size": size, "format": "RGB888"}, controls=self.controls()
            )
            camera.configure(config)
            camera.start()
        except Exception as exc:
            camera.close()
            raise CameraError(f"The Pi camera would not start: {exc}") from exc
        self._camera = camera

    def _grab(self):
        try:
            image = self._camera.capture_array("main")
        except Exception as exc:
            raise CameraError(f"The Pi camera stopped delivering frames: {exc}") from exc
        return as_bgr(image, self.name), None

    def _close_device(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
            finally:
                camera.close()
