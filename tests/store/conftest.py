"""A small disk of its own (a tmpfs mounted for the test) that can turn read-only or fill up,
as an SD card does; skipped where the test may not mount file systems."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


class Disk:
    def __init__(self, mountpoint: Path):
        self.path = mountpoint

    def _mount(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["mount", *args], capture_output=True, text=True)

    def read_only(self) -> None:
        result = self._mount("-o", "remount,ro", str(self.path))
        assert result.returncode == 0, result.stderr

    def writable(self) -> None:
        result = self._mount("-o", "remount,rw", str(self.path))
        assert result.returncode == 0, result.stderr

    def fill(self) -> None:
        """Writes one file until the disk has no room left."""
        with open(self.path / "filler", "wb", buffering=0) as out:
            for size in (65536, 512, 1):  # down to the last few bytes
                try:
                    while True:
                        out.write(b"\0" * size)
                except OSError:
                    pass

    def free(self) -> None:
        (self.path / "filler").unlink(missing_ok=True)


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Disk]:
    mountpoint = tmp_path / "disk"
    mountpoint.mkdir()
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m,mode=0755", "tmpfs", str(mountpoint)],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        pytest.skip(f"cannot mount a small disk here: {result.stderr.strip()}")
    try:
        yield Disk(mountpoint)
    finally:
        subprocess.run(["umount", "-l", str(mountpoint)], capture_output=True)
