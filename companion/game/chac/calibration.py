"""Temple of Chac's calibration step: the glyph catalog (CHAC-GLYPH-2), as the calibration
tool offers it (`companion.game.calibrating`).

Each of the 14 clue tiles is shown picture side up, then number side up where it lies: the
Mayan number is read (or typed), and the straightened picture stored as that number's glyph in
DATA_DIR/glyphs/<n>.png (`glyph_step.py` does the work). Light to import: every `companion`
command lists the step; OpenCV and NumPy load only when it runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.game.calibrating import CalibrationStep
from companion.game.chac.hidden import GLYPHS


def _start(data_dir: Path) -> Any:
    from companion.game.chac.glyph_step import GlyphRun

    return GlyphRun(data_dir)


def _add_arguments(parser) -> None:
    parser.add_argument(
        "--numbers",
        metavar="N",
        type=int,
        nargs="+",
        help="the tiles' numbers in order, when they should not be read from the pictures",
    )


def _demo_faces() -> Iterator[Any]:
    """Each of the 14 tiles, picture side up, then number side up."""
    from companion.game.chac.tile_art import render_face

    for number in GLYPHS:
        yield render_face(number, "glyph")
        yield render_face(number, "number")


GLYPH_STEP = CalibrationStep(
    name="glyphs",
    title="Glyph pictures",
    help="photograph the 14 clue tiles into the glyph catalog",
    number_hint="Number on the back (1-14)",
    images_help="pictures in pairs: a tile's picture side, then its number side",
    start=_start,
    number_refusal="Type the tile's number, 1-14.",
    add_arguments=_add_arguments,
    demo_faces=_demo_faces,
)
