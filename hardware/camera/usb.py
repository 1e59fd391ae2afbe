"""A USB webcam (or any device path/URL OpenCV can open) through cv2.VideoCapture."""

from __future__ import annotations

import sys
import time
from typing import Any

from hardware.camera.base import CameraBase, CameraError, CameraSettings, Clock, as_bgr

# V4L2's CAP_PROP_AUTO_EXPOSURE values: 1 = manual, 3 = aperture priority (automatic).
V4L2_MANUAL_EXPOSURE = 1


class UsbCamera(CameraBase):
    """A webcam by index (0 = /dev/video0) or by device path.

    Manual exposure and white balance are requested, but many webcams ignore some of them;
    the calibration tool shows whether they held.

        camera = UsbCamera(0, CameraSettings(width=1280, height=720))
    """

    name = "USB camera"

    def __init__(
        self,
        device: int | str = 0,
        settings: CameraSettings | None = None,
        clock: Clock = time.monotonic,
    ):
        super().__init__(clock)
        self.device = device
        self.settings = settings or CameraSettings()
        self._capture: Any = None

    def _open_device(self) -> None:
        import cv2

        if isinstance(self.device, int) and sys.platform.startswith("linux"):
            capture = cv2.VideoCapture(self.device, cv2.CAP_V4L2)
        else:
            capture = cv2.VideoCapture(self.device)
        if not capture.isOpened():
            capture.release()
            where = f"/dev/video{self.device}" if isinstance(self.device, int) else self.device
            raise CameraError(
                f"No USB camera at {where}: check that it is plugged in and that "
                f"`v4l2-ctl --list-devices` lists it."
            )
        s = self.settings
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, s.width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, s.height)
        capture.set(cv2.CAP_PROP_FPS, s.fps)
        if s.exposure_us is not None:
            capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_MANUAL_EXPOSURE)
            # V4L2 exposure_time_absolute counts units of 100 microseconds.
            capture.set(cv2.CAP_PROP_EXPOSURE, s.exposure_us / 100)
        if s.colour_gains is not None:
            capture.set(cv2.CAP_PROP_AUTO_WB, 0)
        self._capture = capture

    def _grab(self):
        ok, image = self._capture.read()
        if not ok or image is None:
            raise CameraError(
                f"The {self.name} ({self.device}) stopped delivering frames: was it unplugged?"
            )
        return as_bgr(image, self.name), None

    def _close_device(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()
