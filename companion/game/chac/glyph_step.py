"""The glyph step at work: find the tile in the tray view, read its Mayan number, store its
picture side under that number (CHAC-GLYPH-2). The run holds the picture of the tile in the
owner's hands only until it is stored; stored pictures are never handed back from here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

from companion.game.calibrating import StepGuide, StepProblem
from companion.game.chac import catalog, tiles


class GlyphRun:
    """One round of the glyph step: which side of the current tile comes next, its picture
    while it waits for its number, and the numbers stored in this round."""

    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir)
        self.side = "glyph"
        self.pending: np.ndarray | None = None
        self.number_unread = False  # the number side was shown but could not be read
        self.shown: set[int] = set()

    def capture(self, view: np.ndarray, empty: np.ndarray | None) -> str:
        try:
            tile = tiles.find_tile(view, empty)
        except tiles.TileNotFound as exc:
            raise StepProblem(str(exc)) from None
        if self.side == "glyph":
            try:
                number = tiles.read_number(tile.face)
            except tiles.NumberNotRead:
                self.pending, self.side = tile.face, "number"
                return "Picture taken. Now turn the tile over: number side up."
            raise StepProblem(
                f"This is a number side ({number}): turn the tile over to show its picture."
            )
        try:
            number = tiles.read_number(tile.face)
        except tiles.NumberNotRead as exc:
            self.number_unread = True
            raise StepProblem(str(exc)) from None
        return self._store(number)

    def type_number(self, number: int) -> str:
        if self.pending is None:
            raise StepProblem("First show the tile's picture side to the camera.")
        if not isinstance(number, int) or number not in catalog.GLYPH_NUMBERS:
            raise StepProblem("Clue tile numbers are 1-14.")
        return self._store(number)

    def turn_picture(self) -> str:
        """A tile that was laid sideways: its picture a quarter turn clockwise."""
        if self.pending is None:
            raise StepProblem("There is no tile picture to turn.")
        self.pending = np.ascontiguousarray(np.rot90(self.pending, k=-1))
        return "Picture turned."

    def skip(self) -> str:
        self.side, self.pending, self.number_unread = "glyph", None, False
        return "Tile skipped. Show the next tile's picture side."

    def picture(self) -> np.ndarray | None:
        return self.pending

    def _store(self, number: int) -> str:
        if number in self.shown:
            self.number_unread = True
            raise StepProblem(
                f"Tile {number} was already stored in this round: check the tile and type its "
                "number, or start the glyph step again."
            )
        catalog.save_glyph(self.data_dir, number, self.pending)
        self.shown.add(number)
        self.side, self.pending, self.number_unread = "glyph", None, False
        if self.missing():
            return f"Glyph {number} stored. Next tile: picture side up."
        return "All 14 glyph pictures stored. Calibration is complete."

    def missing(self) -> list[int]:
        stored = set(catalog.stored_numbers(self.data_dir))
        return [n for n in catalog.GLYPH_NUMBERS if n not in stored]

    def done(self) -> bool:
        return not self.missing()

    def guide(self) -> StepGuide:
        total = len(catalog.GLYPH_NUMBERS)
        stored = total - len(self.missing())
        progress = f"{stored} of {total} glyphs stored"
        if self.side == "glyph" and stored == total:
            text = (
                "All 14 glyph pictures are stored: calibration is complete. Show a tile "
                "again to replace its picture."
            )
            oled = ("14/14 stored.", "Calibration", "complete.")
        elif self.side == "glyph":
            text = (
                "Lay a clue tile you have not shown yet in the middle of the tray, "
                "picture side up and upright, nothing else in the tray. Then capture."
            )
            oled = (f"{stored}/14 stored.", "Tile picture up,", "capture.")
        elif self.number_unread:
            text = "The number could not be read: type the number on the tile's back."
            oled = ("Number not read:", "type it on the", "host page.")
        else:
            text = (
                "Turn the same tile over where it lies, number side up, and capture. "
                "Or type the number."
            )
            oled = ("Turn the tile:", "number side up,", "capture.")
        return StepGuide(text=text, oled=oled, progress=progress)

    def status(self) -> dict[str, Any]:
        return {"glyphs_missing": self.missing()}

    def run_command(self, session: Any, frames, args: Any, ask) -> int:
        """Tile after tile: a frame of its picture side, then one of its number side (or the
        next of `--numbers`, or a number typed when it cannot be read)."""
        if args.images and len(args.images) % 2:
            print("  ! Give the pictures in pairs: picture side, number side.", file=sys.stderr)
            return 2
        numbers = iter(args.numbers or [])
        failures = 0
        while self.missing() or args.images:
            picture = frames(session.guide().text)
            if picture is None:
                break
            print("  " + session.guide().progress)
            if not session.capture(picture):
                _say(session, False)
                failures += 1
                continue
            given = next(numbers, None)
            if given is not None:
                ok = session.type_number(given)
            else:
                number_side = frames("Turn the tile over where it lies, number side up.")
                ok = number_side is not None and session.capture(number_side)
                while not ok and self.pending is not None:
                    _say(session, False)
                    typed = ask("Type the tile's number (1-14), or Enter to skip: ")
                    if not typed:
                        break
                    ok = session.type_number(int(typed)) if typed.isdigit() else False
            _say(session, ok)
            if not ok:
                failures += 1
                session.skip_tile()
        missing = self.missing()
        if missing:
            print(f"  Glyphs still missing: {', '.join(map(str, missing))}.")
        else:
            print(f"  All 14 glyph pictures are in {self.data_dir / 'glyphs'}.")
        return 0 if not failures and not missing else 1


def _say(session: Any, ok: bool) -> None:
    print(("  " + session.note) if ok and session.note else f"  ! {session.problem}")
