"""Drawing for the 128x64 1-bit OLED, and the screen model tests and the panel read.

Every screen is a `Screen`: the image plus the texts drawn on it with their boxes and sizes,
so a test can ask "is 'Round 3' on the screen, and are its digits at least 10 px tall?" by
looking at the pixels inside the text's box, not at a hash of the picture.

Fonts: DejaVu Sans Condensed Bold (fonts-dejavu-core, on Raspberry Pi OS and Debian by
default), else the scalable font built into Pillow. Nothing is bundled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu")
FONT_FILES = {"condensed": "DejaVuSansCondensed-Bold.ttf", "wide": "DejaVuSans-Bold.ttf"}

# Sizes in points. At these sizes DejaVu's digits are 9, 10, 12 and 16 px tall: SMALL is for
# labels, BAR for title bars, BIG for the numbers that matter (>= 10 px: legible at arm's
# length), HUGE for dice.
SMALL, BAR, BIG, HUGE = 11, 12, 16, 22


@cache
def font(size: int, style: str = "condensed") -> ImageFont.FreeTypeFont:
    for folder in FONT_DIRS:
        path = Path(folder) / FONT_FILES[style]
        if path.exists():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


@dataclass(frozen=True)
class Text:
    text: str
    box: tuple[int, int, int, int]  # left, top, right, bottom (exclusive) in pixels
    size: int
    inverted: bool = False


@dataclass
class Screen:
    """A rendered screen: `image` (128x64, mode "1", 1 = lit) and what was written on it."""

    name: str
    image: Image.Image
    texts: list[Text] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Everything written, in drawing order, joined by spaces (wrapped lines read on)."""
        return " ".join(t.text for t in self.texts)

    def find(self, fragment: str, whole: bool = False) -> Text | None:
        """The first text containing `fragment` (or equal to it, with `whole`)."""
        return next(
            (t for t in self.texts if (t.text == fragment if whole else fragment in t.text)), None
        )

    def ink_height(self, fragment: str | Text, whole: bool = False) -> int:
        """Height in pixels of the lit (or, for inverted text, unlit) rows of a text (or the
        first text containing `fragment`): how tall it really looks on the panel; 0 if absent."""
        item = fragment if isinstance(fragment, Text) else self.find(fragment, whole)
        if item is None:
            return 0
        left, top, right, bottom = item.box
        crop = self.image.crop((max(0, left), max(0, top), min(WIDTH, right), min(HEIGHT, bottom)))
        if item.inverted:
            crop = crop.point(lambda v: 255 - v)
        box = crop.getbbox()
        return 0 if box is None else box[3] - box[1]


def wrap(text: str, size: int) -> list[str]:
    """`text` in lines that fit across the screen at `size`, broken between words."""
    face = font(size)
    lines: list[str] = []
    for word in text.split():
        if lines and face.getlength(f"{lines[-1]} {word}") <= WIDTH - 4:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


class Canvas:
    """A blank screen to draw on; `done()` gives the Screen."""

    def __init__(self, name: str):
        self.screen = Screen(name, Image.new("1", (WIDTH, HEIGHT), 0))
        self.draw = ImageDraw.Draw(self.screen.image)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = SMALL,
        *,
        anchor: str = "la",
        width: int | None = None,
        invert: bool = False,
        min_size: int = SMALL,
    ) -> Text:
        """Write `text` with its `anchor` at `xy`; shrink it (down to `min_size`, then cut it
        with an ellipsis) so it fits in `width` pixels (default: to the screen's edge)."""
        x, y = xy
        room = width if width is not None else self._room(x, anchor)
        face = font(size)
        while face.getlength(text) > room and size > min_size:
            size -= 1
            face = font(size)
        if face.getlength(text) > room:
            while text and face.getlength(text + "…") > room:
                text = text[:-1]
            text = text.rstrip() + "…"
        left, top, right, bottom = self.draw.textbbox((x, y), text, font=face, anchor=anchor)
        self.draw.text((x, y), text, font=face, fill=0 if invert else 1, anchor=anchor)
        item = Text(text, (int(left), int(top), int(right) + 1, int(bottom) + 1), size, invert)
        self.screen.texts.append(item)
        return item

    def _room(self, x: float, anchor: str) -> float:
        if anchor[0] == "l":
            return WIDTH - x
        if anchor[0] == "r":
            return x
        return 2 * min(x, WIDTH - x)

    def paragraph(
        self, top: int, text: str, size: int = SMALL, bottom: int = HEIGHT, gap: int = 2
    ) -> int:
        """Word-wrap `text` across the screen from `top`; returns the y below the last line.
        Lines that would pass `bottom` are dropped, the last one kept ending in an ellipsis."""
        line_h = size + gap
        lines = wrap(text, size)
        fits = max(1, (bottom - top) // line_h)
        if len(lines) > fits:
            lines = [*lines[: fits - 1], " ".join(lines[fits - 1 :])]
        for line in lines:
            self.text((2, top), line, size, width=WIDTH - 4)
            top += line_h
        return top

    def fitted(self, top: int, text: str, sizes: tuple[int, ...] = (SMALL, 10, 9)) -> int:
        """`paragraph` at the largest of `sizes` that fits all of `text` above the screen's
        bottom edge (lines 1 px apart), since a sentence cut short may not say what it must."""
        size = next((s for s in sizes if len(wrap(text, s)) * (s + 1) <= HEIGHT - top), sizes[-1])
        return self.paragraph(top, text, size, gap=1)

    def fill(self, box: tuple[float, float, float, float], on: bool = True) -> None:
        self.draw.rectangle(box, fill=1 if on else 0)

    def frame(self, box: tuple[float, float, float, float]) -> None:
        self.draw.rectangle(box, outline=1)

    def line(self, points: list[tuple[float, float]], width: int = 1) -> None:
        self.draw.line(points, fill=1, width=width)

    def bar(self, y: int, text: str, right: str = "") -> None:
        """A lit title bar (13 px) with dark text across the top or bottom; its digits are
        10 px tall, so a round number in a title is legible too."""
        self.fill((0, y, WIDTH - 1, y + 12))
        edge = WIDTH - 2
        if right:
            edge = self.text((WIDTH - 2, y + 7), right, BAR, anchor="rm", invert=True).box[0] - 4
        self.text((2, y + 7), text, BAR, anchor="lm", invert=True, width=edge - 2, min_size=SMALL)

    def paste(self, image: Image.Image, xy: tuple[int, int]) -> None:
        self.screen.image.paste(image, xy)

    def done(self) -> Screen:
        return self.screen
