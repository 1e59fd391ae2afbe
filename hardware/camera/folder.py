"""Recorded rolls replayed as a camera: a folder of images or one video file."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from hardware.camera.base import CameraBase, CameraError, Clock, as_bgr

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class FolderCamera(CameraBase):
    """Frames from `path`: image files in name order, or the frames of a video file.

    Timestamps are the recording's own (frame number / fps), so settle detection behaves the
    same however fast the replay runs. With `realtime=True` reads are paced at `fps`, as a
    live camera would be. At the end it starts again when `loop` is set; otherwise `read()`
    raises CameraError.

        camera = FolderCamera("../shared/data/dice/some-roll", fps=10)
    """

    name = "recorded camera"

    def __init__(
        self,
        path: str | Path,
        fps: float | None = None,
        loop: bool = False,
        realtime: bool = False,
        clock: Clock = time.monotonic,
    ):
        super().__init__(clock)
        self.path = Path(path)
        self.fps = fps
        self.loop = loop
        self.realtime = realtime
        self._files: list[Path] = []
        self._video: Any = None
        self._position = 0
        self._cursor = 0
        self._started = 0.0
        self._fps = 30.0

    def _open_device(self) -> None:
        if self.path.is_dir():
            self._files = sorted(
                p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
            )
            if not self._files:
                raise CameraError(f"No images ({', '.join(sorted(IMAGE_SUFFIXES))}) in {self.path}")
            self._fps = self.fps or 30.0
        elif self.path.is_file():
            import cv2

            video = cv2.VideoCapture(str(self.path))
            if not video.isOpened():
                video.release()
                raise CameraError(f"{self.path} is not a video OpenCV can read.")
            self._video = video
            self._fps = self.fps or video.get(cv2.CAP_PROP_FPS) or 30.0
        else:
            raise CameraError(f"No recording at {self.path}: no such folder or video file.")
        self._position = 0
        self._cursor = 0
        self._started = self._clock()

    def _grab(self):
        if self.realtime:
            delay = self._started + self._position / self._fps - self._clock()
            if delay > 0:
                time.sleep(delay)
        image = self._next_image()
        if image is None and self.loop:
            self._rewind()
            image = self._next_image()
        if image is None:
            raise CameraError(f"The recording {self.path} has no more frames.")
        # Timestamps keep increasing across loops, as a live camera's would.
        timestamp = self._position / self._fps
        self._position += 1
        return as_bgr(image, f"recording {self.path}"), timestamp

    def _next_image(self):
        if self._video is not None:
            ok, image = self._video.read()
            return image if ok else None
        if self._cursor >= len(self._files):
            return None
        import cv2

        path = self._files[self._cursor]
        self._cursor += 1
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraError(f"{path} is not an image OpenCV can read.")
        return image

    def _rewind(self) -> None:
        self._cursor = 0
        if self._video is not None:
            import cv2

            self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)

    def _close_device(self) -> None:
        video, self._video = self._video, None
        if video is not None:
            video.release()
