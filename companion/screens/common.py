"""Screens that are not about one game: dice, menus, the join code, the private peek, notices."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from companion.screens.canvas import BIG, HEIGHT, HUGE, SMALL, WIDTH, Canvas, Screen, Text

PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}
PEEK_SECONDS = 5.0


def die_face(canvas: Canvas, left: int, top: int, size: int, value: int | None) -> None:
    """A die outline with its pips (or a question mark for an unknown value)."""
    canvas.draw.rounded_rectangle((left, top, left + size - 1, top + size - 1), 3, outline=1)
    if value not in PIPS:
        canvas.text((left + size / 2, top + size / 2), "?", SMALL, anchor="mm")
        return
    step = (size - 6) / 2
    r = max(1, size // 10)
    for col, row in PIPS[value]:
        cx, cy = left + 3 + col * step, top + 3 + row * step
        canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=1)


def dice_reading(
    values: Sequence[int | None],
    title: str = "Dice read",
    hint: str = "OK confirm  \u25b2\u25bc fix",
    cursor: int | None = None,
    expected: int | None = None,
    doubted: Sequence[int] = (),
) -> Screen:
    """The dice just read (or being entered), one big digit per die with its face above;
    `cursor` marks the die being corrected, a frame each of the `doubted` ones (the camera
    was not sure of them); the title bar counts dice known / `expected`."""
    canvas = Canvas("dice")
    known = sum(v is not None for v in values)
    canvas.bar(0, title, f"{known}/{len(values) if expected is None else expected}")
    n = max(1, len(values))
    slot = min(25, WIDTH // n)
    left0 = (WIDTH - slot * n) // 2
    for i, value in enumerate(values):
        left = left0 + i * slot
        face = min(16, slot - 6)
        die_face(canvas, left + (slot - face) // 2, 15, face, value)
        digit = "?" if value is None else str(value)
        box = (left + 1, 33, left + slot - 2, 51)
        if i == cursor:
            canvas.fill(box)
        elif i in doubted:
            canvas.frame(box)
        canvas.text((left + slot / 2, 42.5), digit, HUGE, anchor="mm", invert=i == cursor)
    canvas.text((WIDTH / 2, 58), hint, SMALL, anchor="mm")
    return canvas.done()


def menu(title: str, items: Sequence[str], selected: int, right: str = "") -> Screen:
    """A list with the selected row lit; scrolls so the selection stays on screen."""
    canvas = Canvas("menu")
    canvas.bar(0, title, right)
    rows, row_h = 3, 17
    first = min(max(0, selected - 1), max(0, len(items) - rows))
    for row, index in enumerate(range(first, min(len(items), first + rows))):
        top = 14 + row * row_h
        chosen = index == selected
        if chosen:
            canvas.fill((0, top, WIDTH - 5, top + row_h - 2))
        canvas.text(
            (3, top + row_h / 2 - 1),
            items[index],
            BIG,
            anchor="lm",
            width=WIDTH - 10,
            invert=chosen,
        )
    if len(items) > rows:  # scroll bar
        span = HEIGHT - 14
        top = 14 + span * first // len(items)
        canvas.fill((WIDTH - 2, top, WIDTH - 1, top + max(4, span * rows // len(items)) - 1))
    return canvas.done()


def join_code(url: str, caption: str = "Scan to join") -> Screen:
    """A QR code of `url` at the left, as large as fits (dark modules on a lit field, the
    polarity phone cameras expect), and a caption beside it."""
    code = _qr_picture(url)
    side = code.width
    canvas = Canvas("join")
    canvas.paste(code, (0, 0))
    canvas.screen.texts.append(Text(url, (0, 0, side, side), 0))  # what the code says
    left = side + 3
    width = WIDTH - left - 1
    words = caption.split()
    lines = [" ".join(words[: len(words) // 2 or 1]), " ".join(words[len(words) // 2 or 1 :])]
    for i, line in enumerate(filter(None, lines)):
        canvas.text((left, 4 + i * 13), line, SMALL, width=width)
    # The address, for typing it in when a phone cannot scan.
    host, _, port = url.split("://", 1)[-1].split("/", 1)[0].partition(":")
    canvas.text((left, 38), host, SMALL, width=width, min_size=8)
    if port:
        canvas.text((left, 50), ":" + port, SMALL, width=width)
    return canvas.done()


@lru_cache(maxsize=8)
def _qr_picture(url: str) -> Image.Image:
    """The code at the largest whole scale that fits the screen's height (cached: the join
    address rarely changes and encoding is most of the screen's cost)."""
    import segno

    qr = segno.make(url, error="l", boost_error=True, micro=False)
    modules = qr.symbol_size(border=0)[0]
    # One module of quiet zone, lit, plus the panel's dark surround: the code stays as large
    # as possible and leaves room for the address beside it.
    border = 1
    scale = max(1, HEIGHT // (modules + 2 * border))
    code = Image.new("1", (modules + 2 * border,) * 2)
    code.putdata([0 if dark else 1 for row in qr.matrix_iter(border=border) for dark in row])
    return code.resize((code.width * scale,) * 2, Image.Resampling.NEAREST)


def peek(picture: Image.Image | None, seconds_left: float, caption: str) -> Screen:
    """The private peek: a picture only one seat may see, dithered to 1 bit, with the seconds
    left; `caption` names it, or without a picture says what to look at instead."""
    canvas = Canvas("peek")
    left = round(max(0.0, seconds_left))
    if picture is None:
        canvas.text((WIDTH / 2, 20), caption, BIG, anchor="mm")
    else:
        room = (WIDTH - 22, HEIGHT)
        grey = picture.convert("L")
        grey.thumbnail(room, Image.Resampling.LANCZOS)
        dithered = grey.convert("1", dither=Image.Dither.FLOYDSTEINBERG)
        canvas.paste(dithered, ((room[0] - dithered.width) // 2, (HEIGHT - dithered.height) // 2))
        canvas.screen.texts.append(Text(caption, (0, 0, room[0], HEIGHT), 0))
    canvas.text((WIDTH - 2, HEIGHT - 2), str(left), BIG, anchor="rd")
    return canvas.done()


def peek_warning(name: str, button: str = "MENU") -> Screen:
    """Before a peek: everyone but `name` looks away; holding the button shows the picture."""
    canvas = Canvas("peek-warning")
    canvas.bar(0, "Private peek")
    canvas.text((WIDTH / 2, 24), f"Only {name}!", BIG, anchor="mm")
    canvas.text((WIDTH / 2, 41), "Others look away", SMALL, anchor="mm")
    canvas.text((WIDTH / 2, 56), f"Hold {button} to look", SMALL, anchor="mm")
    return canvas.done()


def notice(title: str, *lines: str, big: str = "") -> Screen:
    """A title bar, an optional big line (a number or a name), and short lines of text."""
    canvas = Canvas("notice")
    canvas.bar(0, title)
    y = 14
    if big:
        canvas.text((WIDTH / 2, y + 9), big, BIG, anchor="mm")
        y += 20
    for line in lines:
        if y > HEIGHT - 10:
            break
        y = canvas.paragraph(y, line, SMALL)
    return canvas.done()
