"""The camera port: frames of the dice tray as BGR arrays with timestamps.

Drivers: `PiCamera` (picamera2), `UsbCamera` (OpenCV), `FolderCamera` (recorded rolls),
`SimCamera` (dice rendered by the synthetic renderer) and `SimTrayCamera` (the simulated
table's, with a plug to pull). Every driver raises `CameraError`, with a sentence a host can
act on, when the camera is missing, fails or disappears; `open()` again reopens it. Drivers
import their libraries only when opened.

    with UsbCamera(0) as camera:
        frame = camera.read()   # Frame(image=<HxWx3 uint8, BGR>, timestamp=..., index=0)
"""

from hardware.camera.base import Camera, CameraError, CameraSettings, Frame
from hardware.camera.folder import FolderCamera
from hardware.camera.pi import PiCamera
from hardware.camera.sim import SimCamera
from hardware.camera.sim_tray import SimTrayCamera
from hardware.camera.usb import UsbCamera

__all__ = [
    "Camera",
    "CameraError",
    "CameraSettings",
    "FolderCamera",
    "Frame",
    "PiCamera",
    "SimCamera",
    "SimTrayCamera",
    "UsbCamera",
]
