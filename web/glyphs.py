"""The glyph picture catalog and the once-per-decipher hand-out.

Layout (written by calibration, read here): DATA_DIR/glyphs/<n>.png for each glyph number n in
1..14 (the Mayan number on the clue tile's back), one picture per file, PNG or JPEG bytes under
that name. A missing file means "no picture for that number": the seat page then tells the
player to peek at the physical clue tile (CHAC-GLYPH-2).

Hand-outs are recorded in DATA_DIR/glyphs_shown.json (a list of decipher keys) so that neither a
reload, a second device nor a restart shows the same decipher twice.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from companion.atomic_file import write_atomically

GLYPH_NUMBERS = range(1, 15)
SHOW_SECONDS = 5


class GlyphCatalog:
    """Reads glyph pictures from DIR/glyphs/<n>.png; the folder may be empty or missing."""

    def __init__(self, data_dir: str | Path):
        self.folder = Path(data_dir) / "glyphs"

    def path(self, number: int) -> Path:
        return self.folder / f"{number}.png"

    def picture(self, number: int) -> bytes | None:
        if number not in GLYPH_NUMBERS:
            return None
        try:
            return self.path(number).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            return None

    def available(self) -> list[int]:
        return [n for n in GLYPH_NUMBERS if self.path(n).is_file()]


def media_type(picture: bytes) -> str:
    return "image/jpeg" if picture.startswith(b"\xff\xd8") else "image/png"


class HandOuts:
    """Which deciphers have had their picture handed out; persisted, claimed at most once."""

    def __init__(self, data_dir: str | Path):
        self._path = Path(data_dir) / "glyphs_shown.json"
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
