"""The simulated table's tray camera: the simulated camera with a plug to pull."""

from __future__ import annotations

from hardware.camera.base import CameraError
from hardware.camera.sim import SimCamera


class SimTrayCamera(SimCamera):
    """The simulated camera with a plug: unplugged, it fails to open like a missing camera,
    until it is plugged back in.

        camera = SimTrayCamera(seed=1)
        camera.set_plugged(False)   # reads and opens raise CameraError
        camera.set_plugged(True)    # the next open works again
    """

    plugged = True

    def _open_device(self) -> None:
        if not self.plugged:
            raise CameraError("No camera found: the simulated camera is unplugged.")
        super()._open_device()

    def set_plugged(self, plugged: bool) -> None:
        self.plugged = plugged
        if not plugged:
            self.unplug()
