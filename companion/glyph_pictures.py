"""Where the owner's glyph pictures lie: DATA_DIR/glyphs/<n>.png, one per Mayan number 1..14.

The calibration tool writes them (`calibration.catalog`); the running companion only reads
them. A missing file means no picture for that number (CHAC-GLYPH-2: peek at the tile).
"""

from __future__ import annotations

from pathlib import Path

GLYPH_NUMBERS = range(1, 15)
FOLDER = "glyphs"


def glyph_path(data_dir: str | Path, number: int) -> Path:
    if number not in GLYPH_NUMBERS:
        raise ValueError(f"Glyph numbers are 1-14, not {number}.")
    return Path(data_dir) / FOLDER / f"{number}.png"
