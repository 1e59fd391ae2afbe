"""Which private reveals have been handed out: each at most once.

Hand-outs are recorded in DATA_DIR/reveals_shown.json (a list of reveal keys, owner-only, written
atomically) so that neither a reload, a second device nor a restart shows the same reveal twice.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from companion.atomic_file import write_atomically


class HandOuts:
    """Which reveals have been handed out; persisted, claimed at most once."""

    def __init__(self, data_dir: str | Path):
        self._path = Path(data_dir) / "reveals_shown.json"
        self._lock = threading.Lock()
        try:
            self._shown = set(json.loads(self._path.read_text()))
        except FileNotFoundError:
            self._shown = set()

    def claim(self, key: str) -> bool:
        """True the first time `key` is claimed, False ever after. The claim is on disk
        before it counts; SaveError when it cannot be (then nothing is claimed)."""
        with self._lock:
            if key in self._shown:
                return False
            shown = self._shown | {key}
            write_atomically(self._path, json.dumps(sorted(shown)).encode())
            self._shown = shown
            return True
