"""One companion per data directory: an OS lock (flock) on DATA_DIR/companion.lock, held for
the life of the process and released by the kernel however the process ends (even kill -9).

Two companions on one log would each acknowledge commands computed from a state the other
has moved past, and the log would mix their games. The second one is refused instead:

    lock = DataDirLock.hold(data_dir)   # DataDirBusy names the folder and the running PID
    ...
    lock.release()
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_NAME = "companion.lock"


class DataDirBusy(Exception):
    """Another process holds the data directory."""


class DataDirLock:
    def __init__(self, folder: Path, fd: int | None):
        self.folder = folder
        self._fd = fd

    @classmethod
    def hold(cls, folder: str | Path) -> DataDirLock:
        """Takes the lock or raises DataDirBusy. On a read-only disk, where no companion can
        write, the lock file is taken if it is there and skipped if not."""
        folder = Path(folder)
        path = folder / LOCK_NAME
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError:
            try:
                fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            except FileNotFoundError:
                return cls(folder, None)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            who = f"PID {holder}" if holder else "another process"
            raise DataDirBusy(
                f"Another companion ({who}) is already using the data directory {folder}; "
                "stop it first (or give this one another --data-dir)."
            ) from None
        try:  # who holds it, for the next one's message
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # read-only: the lock still holds
        return cls(folder, fd)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases the flock
            self._fd = None


def _read_pid(fd: int) -> int | None:
    text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None
