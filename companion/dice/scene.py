"""Whole-frame checks that come before reading dice: is a hand in the tray?"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.dice.pips import shade_distance
from companion.dice.profile import SceneParams
from companion.dice.reading import Die

_SHRINK = 8  # skin is found on an eighth-size frame: a hand is big
LIGHT_SHADE_TOLERANCE = 15.0  # colour distance from a shade of the tray's, for light on it
# the ring of the eighth-size frame two pixels out from a region: past a hand's blurred edge
_RING_OUTER, _RING_INNER = np.ones((5, 5), np.uint8), np.ones((3, 3), np.uint8)


def _median(small: np.ndarray) -> np.ndarray:
    """np.median of each channel of a uint8 image, from its histograms: the mean of the two
    middle values, as np.median gives them, without sorting the pixels."""
    n = small.shape[0] * small.shape[1]
    out = np.empty(3)
    for c in range(3):
        below = np.cumsum(cv2.calcHist([small], [c], None, [256], [0, 256]).ravel())
        low, high = np.searchsorted(below, [(n - 1) // 2 + 1, n // 2 + 1])
        out[c] = (int(low) + int(high)) / 2
    return out


@dataclass(frozen=True)
class Hand:
    """A hand in view: its region of the eighth-size frame the colour test looked at, and
    the scene settings it was found with."""

    region: np.ndarray  # bool, the frame's height and width // _SHRINK
    p: SceneParams

    def may_hide(self, die: Die) -> bool:
        """Does the hand reach the die without lying all round it? Then it may hide part of
        it. A die it lies all round lies on it: a tray of a skin's colour, not a hand."""
        share = self._around(die)
        return self.p.hand_reaches <= share < self.p.hand_beneath

    def _around(self, die: Die) -> float:
        """The share of a square ring round the die that is hand: 32 points 0.8 of its
        edge from its centre, past its shadow."""
        x1, y1, x2, y2 = die.box
        reach = 0.8 * max(x2 - x1, y2 - y1, 1)
        side = np.linspace(-reach, reach, 9)[:-1]
        dx = np.concatenate([side, np.full(8, reach), -side, np.full(8, -reach)])
        dy = np.concatenate([np.full(8, -reach), side, np.full(8, reach), -side])
        h, w = self.region.shape
        cx = np.clip(((die.centre[0] + dx) / _SHRINK).astype(int), 0, w - 1)
        cy = np.clip(((die.centre[1] + dy) / _SHRINK).astype(int), 0, h - 1)
        return float(self.region[cy, cx].mean())


def hand_in_view(bgr: np.ndarray, p: SceneParams) -> Hand | None:
    """A hand: one skin-coloured region, unlike the tray, covering `hand_area` of the frame.
    Skin-coloured wood is not a hand: skin must also differ from the frame's dominant colour."""
    # Sampled rather than averaged down: a hand is big, and averaging took longer than the
    # rest of this check.
    small = cv2.resize(
        bgr, (bgr.shape[1] // _SHRINK, bgr.shape[0] // _SHRINK), interpolation=cv2.INTER_LINEAR
    )
    ycc = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycc, (40, 136, 77), (250, 180, 127))
    # Too little skin is no hand, whatever the tray's colour.
    if cv2.countNonZero(skin) / skin.size < p.hand_area:
        return None
    tray = _median(small)
    # Every pixel's distance from the tray's colour, then kept where there is skin: on a
    # frame this small, quicker than picking the skin's pixels out first.
    distance = np.linalg.norm(small.astype(np.float32) - tray, axis=2)
    mask = ((skin > 0) & (distance > p.hand_colour_distance)).view(np.uint8)
    if cv2.countNonZero(mask) / mask.size < p.hand_area:
        return None
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[largest, cv2.CC_STAT_AREA] < p.hand_area * mask.size:
        return None
    # A hand fills much of the box around it; a tray wall lit unlike the tray is a thin
    # band along the frame's edges, its box most of the frame.
    box = stats[largest, cv2.CC_STAT_WIDTH] * stats[largest, cv2.CC_STAT_HEIGHT]
    if stats[largest, cv2.CC_STAT_AREA] < p.hand_fill * box:
        return None
    region = labels == largest
    return None if _uneven_light(small, tray, distance, region, p) else Hand(region, p)


def _uneven_light(small: np.ndarray, tray: np.ndarray, distance, region, p: SceneParams) -> bool:
    """Is the `region` unlike the tray only a lighter or darker shade of it (a lamp's light
    or a corner's shadow on skin-coloured wood) that fades into the tray around it? A hand
    has an edge: just outside it, the tray is as it is elsewhere."""
    off_shade = shade_distance(small[region].astype(np.float32), tray)
    if np.mean(off_shade < LIGHT_SHADE_TOLERANCE) <= 0.5:
        return False
    region = region.view(np.uint8)
    around = cv2.dilate(region, _RING_OUTER) & ~cv2.dilate(region, _RING_INNER)
    return bool(np.median(distance[around > 0]) > 0.5 * p.hand_colour_distance)
