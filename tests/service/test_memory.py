"""The companion's memory stays flat over many games (bench/soak.py measures the real run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from servicekit import free_port

ROOT = Path(__file__).resolve().parents[2]

# In a fresh process (the allocator's settings are the process's): assemble the companion,
# then free large image buffers between long-lived small objects, as the camera thread's
# frames are. Prints how much the resident size grew, in bytes, and whether a large buffer's
# memory was advised for huge pages (VmFlags "hg").
FRAMES = """
import json, sys, threading
import numpy as np
from companion import config
from companion.runtime.service import Service

overrides = {"hardware": "sim", "data_dir": sys.argv[1], "web.host": "127.0.0.1",
             "web.port": int(sys.argv[2]), "camera.kind": "none", "mdns.enabled": False}
service = Service(config.load(overrides=overrides), simulate=True)

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024

kept = []
def camera():
    for _ in range(30):
        frame = np.ones((480, 640, 3), dtype=np.float64)  # 7 MiB
        kept.append(bytearray(2000))
        del frame

def huge_pages_advised(address):
    inside = False
    for line in open("/proc/self/smaps"):
        first = line.split()[0]
        if "-" in first and ":" not in first:
            low, high = (int(x, 16) for x in first.split("-"))
            inside = low <= address < high
        elif inside and line.startswith("VmFlags:"):
            return "hg" in line.split()[1:]
    raise LookupError(address)

camera_thread = threading.Thread(target=camera)
before = rss()
camera_thread.start()
camera_thread.join()
grown = rss() - before
frame = np.ones((480, 640, 3), dtype=np.float64)
middle = frame.ctypes.data + frame.nbytes // 2  # numpy advises from the first whole page
print(json.dumps({"grown": grown, "huge": huge_pages_advised(middle)}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads RSS from /proc")
def test_freed_frame_buffers_go_back_to_the_system(tmp_path):
    """Thirty 7 MiB image buffers, each freed before the next: the running companion gives
    them back instead of keeping one in its heap, and asks for no huge pages for them (in
    the heap, those made the resident size creep up game after game)."""
    done = subprocess.run(
        [sys.executable, "-c", FRAMES, str(tmp_path), str(free_port())],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.splitlines()[-1])
    assert figures["grown"] < 2 * 2**20
    assert figures["huge"] is False
