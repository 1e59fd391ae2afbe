"""The glyph catalog as calibration fills it: the owner's 14 glyph pictures, one PNG per Mayan
number, as NumPy pictures.

Layout, shared with the seat page's glyph viewer (`glyphs.py`):
DATA_DIR/glyphs/<n>.png for n in 1..14. A missing file means the companion has no picture for
that number, and deciphering falls back to peeking at the physical tile (CHAC-GLYPH-2).

Which picture belongs to which number is what the trap secret hides, so nothing here serves
pictures to anyone: the pages that may show one read the files themselves.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.game.chac.glyphs import GlyphCatalog, save_picture
from companion.game.chac.hidden import GLYPHS as GLYPH_NUMBERS


def glyph_path(data_dir: str | Path, number: int) -> Path:
    if number not in GLYPH_NUMBERS:
        raise ValueError(f"Glyph numbers are 1-14, not {number}.")
    return GlyphCatalog(data_dir).path(number)


def save_glyph(data_dir: str | Path, number: int, picture: np.ndarray) -> Path:
    """Store `picture` (BGR) as glyph `number`, durably and owner-only (SaveError when the
    disk refuses): the bundle's own writer, which the simulated table's stand-ins use too."""
    return save_picture(data_dir, number, picture)


def load_glyph(data_dir: str | Path, number: int) -> np.ndarray | None:
    """The stored picture for `number` (BGR), or None when there is none."""
    import cv2

    path = glyph_path(data_dir, number)
    if not path.is_file():
        return None
    return cv2.imread(str(path), cv2.IMREAD_COLOR)


def stored_numbers(data_dir: str | Path) -> list[int]:
    return [n for n in GLYPH_NUMBERS if glyph_path(data_dir, n).is_file()]


def remove_glyph(data_dir: str | Path, number: int) -> None:
    glyph_path(data_dir, number).unlink(missing_ok=True)
