"""OLED screens: pure functions from views and prompts to 128x64 1-bit images.

Each returns a `Screen` (the PIL image plus the texts drawn on it), so the panel shows
`screen.image` and tests read `screen.text` and measure `screen.ink_height(...)`.
"""

from companion.screens.canvas import BAR, BIG, HEIGHT, HUGE, SMALL, WIDTH, Canvas, Screen, Text

__all__ = ["BAR", "BIG", "HEIGHT", "HUGE", "SMALL", "WIDTH", "Canvas", "Screen", "Text"]
