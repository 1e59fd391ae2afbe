"""Temple of Chac's clue tiles drawn: a brown square with a glyph-like drawing on one side and a
Mayan number (dots = 1, bars = 5) on the other.

The companion ships no glyph artwork; these drawings stand in for the owner's tiles on a
simulated table, in tests and in benchmarks. Each number gets its own drawing, always the same,
so a catalog built from them can be checked picture by picture.

    face = render_face(7, "number")  # 240x240 BGR, two dots over a bar
"""

from __future__ import annotations

from typing import Literal

import cv2
import numpy as np

Side = Literal["glyph", "number"]

TILE_BROWN = (38, 78, 128)  # B, G, R: the clue tiles' brown
INK = (24, 30, 40)  # the dark paint of numbers and glyphs
FACE_SIZE = 240


def mayan_parts(number: int) -> tuple[int, int]:
    """(bars, dots) of a Mayan number 1-14: bars are fives, dots the ones left over."""
    if not 1 <= number <= 14:
        raise ValueError(f"clue tiles carry the numbers 1-14, not {number}")
    return divmod(number, 5)


def render_face(number: int, side: Side, size: int = FACE_SIZE) -> np.ndarray:
    """One face of the clue tile `number`, straight on: a size x size BGR image."""
    rng = np.random.default_rng(1000 + number)
    face = np.empty((size, size, 3), np.uint8)
    face[:] = TILE_BROWN
    # A little grain and a darker bevel, as printed card stock has.
    grain = rng.normal(0.0, 4.0, (size, size, 1))
    face = np.clip(face + grain, 0, 255).astype(np.uint8)
    bevel = max(2, size // 60)
    cv2.rectangle(face, (0, 0), (size - 1, size - 1), (28, 58, 98), bevel)
    if side == "number":
        _draw_numeral(face, number)
    elif side == "glyph":
        _draw_glyph(face, number)
    else:
        raise ValueError(f"a tile has a 'glyph' side and a 'number' side, not {side!r}")
    return face


def _draw_numeral(face: np.ndarray, number: int) -> None:
    """Dots in a row above stacked horizontal bars, centred, as Mayan numbers are written."""
    size = face.shape[0]
    bars, dots = mayan_parts(number)
    radius = round(size * 0.055)
    bar_w, bar_h = round(size * 0.56), round(size * 0.1)
    gap = round(size * 0.06)
    rows = ([radius * 2] if dots else []) + [bar_h] * bars
    top = (size - (sum(rows) + gap * (len(rows) - 1))) // 2
    if dots:
        pitch = radius * 2 + round(size * 0.05)
        x0 = size // 2 - pitch * (dots - 1) // 2
        for i in range(dots):
            cv2.circle(face, (x0 + i * pitch, top + radius), radius, INK, -1, cv2.LINE_AA)
        top += radius * 2 + gap
    for _ in range(bars):
        x0 = (size - bar_w) // 2
        cv2.rectangle(face, (x0, top), (x0 + bar_w, top + bar_h), INK, -1, cv2.LINE_AA)
        top += bar_h + gap


def _draw_glyph(face: np.ndarray, number: int) -> None:
    """A cartouche holding a few curls, eyes and strokes chosen by the number."""
    size = face.shape[0]
    rng = np.random.default_rng(number * 7919)
    s = size / 240
    thick = max(2, round(5 * s))
    inset = round(28 * s)
    cv2.rectangle(face, (inset, inset), (size - inset, size - inset), INK, thick, cv2.LINE_AA)
    c = size // 2
    # A spiral whose turns and direction differ per number.
    turns = 1.5 + (number % 4) * 0.5
    t = np.linspace(0, turns * 2 * np.pi, 120)
    r = (8 + 12 * t / (2 * np.pi)) * s
    sign = 1 if number % 2 else -1
    spiral = np.stack([c - 30 * s + r * np.cos(sign * t), c + r * np.sin(sign * t)], axis=1)
    cv2.polylines(face, [spiral.astype(np.int32)], False, INK, thick, cv2.LINE_AA)
    # Eyes: one or two rings with a pupil.
    for k in range(1 + number % 2):
        centre = (round(c + 40 * s), round(c - 40 * s + k * 36 * s))
        cv2.circle(face, centre, round(13 * s), INK, thick, cv2.LINE_AA)
        cv2.circle(face, centre, round(4 * s), INK, -1, cv2.LINE_AA)
    # A fringe of strokes along the bottom, their count and slant set by the number.
    strokes = 2 + number % 5
    slant = rng.uniform(-12, 12) * s
    for i in range(strokes):
        x = inset + (i + 1) * (size - 2 * inset) / (strokes + 1)
        p1 = (round(x), round(size - inset - 6 * s))
        p2 = (round(x + slant), round(size - inset - 34 * s))
        cv2.line(face, p1, p2, INK, thick, cv2.LINE_AA)
    # A zigzag crest whose height grows with the number.
    n_peaks = 3 + number // 4
    xs = np.linspace(inset + 12 * s, size - inset - 12 * s, 2 * n_peaks + 1)
    ys = [inset + 12 * s + (i % 2) * (10 + number) * s for i in range(len(xs))]
    crest = np.stack([xs, ys], axis=1).astype(np.int32)
    cv2.polylines(face, [crest], False, INK, thick, cv2.LINE_AA)
