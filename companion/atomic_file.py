"""Files of state outside the event log (seat links, PIN, sign-ins, calibration, a game's
private pictures), written so that a crash or a full or read-only disk leaves the old file whole.

`write_atomically` writes a temporary file in the same folder, fsyncs it, renames it over the
old one and fsyncs the folder: afterwards the new content is on disk; on any failure the old
file is untouched and `SaveError` says why in plain words, naming a read-only or full disk.
Callers write first and change their memory only once the write returned.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


class SaveError(Exception):
    """A state file could not be written; the message says why and that nothing changed."""


def write_atomically(path: str | Path, data: bytes, *, mode: int = 0o600) -> None:
    """Replaces `path` with `data`, durably and all at once. `mode` defaults to owner-only:
    most of these files hold secrets."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise SaveError(f"{path.name} could not be saved: {disk_fault(path.parent, exc)}") from exc
    try:
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), mode)
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
        sync_folder(path.parent)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SaveError(f"{path.name} could not be saved: {disk_fault(path.parent, exc)}") from exc


def sync_folder(folder: str | Path) -> None:
    """fsync a folder, so a rename or a new file in it survives a power cut."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def disk_fault(folder: str | Path, exc: BaseException | None = None) -> str:
    """What is wrong with the disk holding `folder`, in words an owner acts on: read-only,
    full, or the error itself."""
    state = disk_state(folder)
    code = getattr(exc, "errno", None)
    if state == "read-only" or code == errno.EROFS:
        return (
            f"the disk holding {folder} is read-only (an SD card that failed turns read-only; "
            "copy the data off and replace it)"
        )
    if state == "full" or code in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk holding {folder} is full; free some space"
    if exc is None:
        return "the disk is fine"
    return getattr(exc, "strerror", None) or str(exc)


def disk_state(folder: str | Path) -> str:
    """ "read-only", "full" or "ok" for the file system holding `folder` (its nearest
    existing parent)."""
    folder = Path(folder)
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        stats = os.statvfs(folder)
    except OSError:
        return "ok"
    if stats.f_flag & os.ST_RDONLY:
        return "read-only"
    # Root may write into the reserved blocks; a disk with no block left for anyone is full.
    if stats.f_bfree == 0 or (os.geteuid() != 0 and stats.f_bavail == 0):
        return "full"
    return "ok"
