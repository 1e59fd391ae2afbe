"""The glyph pictures and the glyph viewer, Temple of Chac's private reveal (CHAC-GLYPH-2).

Layout (written by calibration, read here): DATA_DIR/glyphs/<n>.png for each glyph number n in
1..14 (the Mayan number on the clue tile's back), one picture per file, PNG or JPEG bytes under
that name, owner-only (they are the trap secret). A missing file means "no picture for that
number": the seat page then tells the player to peek at the physical clue tile.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.atomic_file import write_atomically
from companion.game.chac.hidden import GLYPHS
from companion.game.reveals import NothingToReveal, Reveal

FOLDER = "glyphs"
SHOW_SECONDS = 5


class GlyphCatalog:
    """Reads glyph pictures from DIR/glyphs/<n>.png; the folder may be empty or missing."""

    def __init__(self, data_dir: str | Path):
        self.folder = Path(data_dir) / FOLDER

    def path(self, number: int) -> Path:
        return self.folder / f"{number}.png"

    def picture(self, number: int) -> bytes | None:
        if number not in GLYPHS:
            return None
        try:
            return self.path(number).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            return None

    def available(self) -> list[int]:
        return [n for n in GLYPHS if self.path(n).is_file()]


def glyph_reveal(seat_view: Mapping[str, Any], seat: int, data_dir: str | Path) -> Reveal:
    """The glyph of this seat's last decipher, from its own seat view; shown once per decipher
    (the key names the game by its commitment, the seat and the decipher)."""
    decipher = (seat_view.get("you") or {}).get("decipher")
    if not decipher:
        raise NothingToReveal("You have not deciphered a glyph.")
    if seat_view.get("phase") == "over":
        raise NothingToReveal("The game is over: no glyph is shown any more.", gone=True)
    key = f"{seat_view.get('commitment', '')}:{seat}:{decipher['id']}"
    again = "That glyph has already been shown; decipher again to see it again."
    picture = GlyphCatalog(data_dir).picture(decipher["number"])
    if picture is None:
        message = (
            f"No picture of this glyph is stored: peek at the clue tile of zone "
            f"{decipher['zone']} (number {decipher['number']}) by the walls room."
        )
        return Reveal(key, again, None, {"message": message, "zone": decipher["zone"]})
    return Reveal(key, again, picture, {"seconds": SHOW_SECONDS, "zone": decipher["zone"]})


def stock_pictures(data_dir: str | Path) -> list[int]:
    """Give a simulated table's catalog a picture for every glyph number it lacks: rendered
    stand-ins for clue tiles, so Decipher shows a glyph without a calibration run. Pictures
    already there (a calibration run on this data directory) are kept. Returns the numbers
    written; SaveError when the disk refuses them."""
    from companion.game.chac.tile_art import render_face

    missing = [n for n in GLYPHS if not GlyphCatalog(data_dir).path(n).is_file()]
    for number in missing:
        save_picture(data_dir, number, render_face(number, "glyph"))
    return missing


def save_picture(data_dir: str | Path, number: int, picture) -> Path:
    """Store `picture` (BGR) as glyph `number`, replacing any earlier one, durably: a crash
    leaves either the old picture or the new one, never half a file. Owner-only: which
    picture is which number is the trap secret. SaveError when the disk refuses."""
    import cv2

    if number not in GLYPHS:
        raise ValueError(f"Glyph numbers are 1-14, not {number}.")
    ok, png = cv2.imencode(".png", picture)
    if not ok:
        raise ValueError(f"The picture for glyph {number} could not be encoded as PNG.")
    path = GlyphCatalog(data_dir).path(number)
    write_atomically(path, png.tobytes(), mode=0o600)
    return path
