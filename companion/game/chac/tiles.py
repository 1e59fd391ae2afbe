"""Clue tiles in a frame: find the tile, straighten it, read the Mayan number on its back.

A clue tile is a brown square. With a picture of the empty tray (taken when the frame was
calibrated) the tile is whatever differs from it, whatever the tray's colour; without one it is
the largest brown square. Its straightened face is a square image, turned by the smallest angle
that makes its edges level, so a tile laid upright stays upright.

Mayan numbers (CHAC-GLYPH-1): dots count 1, bars count 5, at most 4 dots and 2 bars for 1-14.
They are blobs of paint on the face, darker or lighter than it, told apart by their shape.

    tile = find_tile(tray_image, empty_tray)
    number = read_number(tile.face)      # raises NumberNotRead with a reason a person can act on
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

FACE_SIZE = 256
# Brown in OpenCV's HSV (hue 0-180): orange-red hues, clearly coloured, neither black nor white.
BROWN_LOW = (0, 70, 35)
BROWN_HIGH = (28, 255, 230)
MIN_TILE_AREA = 0.002  # of the image
MAX_TILE_AREA = 0.5
MAX_ASPECT = 1.5  # a square seen a little obliquely
MIN_SOLIDITY = 0.85
MIN_PAINT_CONTRAST = 0.3  # paint and card differ by this share of the brighter one


class TileNotFound(Exception):
    """No clue tile in the picture; the message says what to change."""


class NumberNotRead(Exception):
    """The marks on a tile are not a Mayan number 1-14; the message says what was seen."""


@dataclass(frozen=True)
class Tile:
    """A tile found in an image: its corners there (clockwise from top left) and its face,
    straightened to FACE_SIZE x FACE_SIZE."""

    corners: np.ndarray
    face: np.ndarray


def find_tile(image: np.ndarray, empty: np.ndarray | None = None) -> Tile:
    """The one clue tile lying in `image` (BGR). `empty` is the same view with nothing in it."""
    mask = _difference_mask(image, empty) if empty is not None else _brown_mask(image)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    area_total = image.shape[0] * image.shape[1]
    big = [c for c in contours if cv2.contourArea(c) >= MIN_TILE_AREA * area_total]
    if not big:
        raise TileNotFound(
            "No clue tile found: lay one tile flat in the middle of the tray, nothing else in it."
        )
    contour = max(big, key=cv2.contourArea)
    area = cv2.contourArea(contour)
    if area > MAX_TILE_AREA * area_total:
        if empty is None:
            raise TileNotFound(
                "Most of the view is as brown as the tiles: calibrate the frame first, or lay "
                "a light cloth or sheet in the tray."
            )
        raise TileNotFound(
            "Something fills most of the view: take hands and other things out of the tray."
        )
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    hull = cv2.convexHull(contour)
    solidity = area / max(cv2.contourArea(hull), 1.0)
    if max(w, h) / max(min(w, h), 1.0) > MAX_ASPECT or solidity < MIN_SOLIDITY:
        raise TileNotFound(
            "What lies in the tray is not a square tile: lay one clue tile flat, apart from "
            "dice and hands."
        )
    x, y, bw, bh = cv2.boundingRect(contour)
    height, width = image.shape[:2]
    if x <= 1 or y <= 1 or x + bw >= width - 1 or y + bh >= height - 1:
        raise TileNotFound("The tile is cut off at the edge of the view: move it to the middle.")
    corners = _order_corners(_quad(hull))
    return Tile(corners=corners, face=straighten(image, corners))


def straighten(image: np.ndarray, corners: np.ndarray, size: int = FACE_SIZE) -> np.ndarray:
    """The square under `corners` (clockwise from top left) as a size x size image."""
    dst = np.float32([[0, 0], [size - 1, 0], [size - 1, size - 1], [0, size - 1]])
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.warpPerspective(image, matrix, (size, size), flags=cv2.INTER_AREA)


def _brown_mask(image: np.ndarray) -> np.ndarray:
    hsv = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, BROWN_LOW, BROWN_HIGH)
    # Brown along the edge of the view is table or tray rim, not a tile lying in the tray.
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    height, width = mask.shape
    x, y, w, h = (stats[:, i] for i in range(4))
    touching = (x == 0) | (y == 0) | (x + w == width) | (y + h == height)
    touching[0] = False  # the background
    mask[touching[labels]] = 0
    return _solid(mask, image.shape)


def _difference_mask(image: np.ndarray, empty: np.ndarray) -> np.ndarray:
    if empty.shape != image.shape:
        empty = cv2.resize(empty, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_AREA)
    a = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.int16)
    b = cv2.cvtColor(cv2.GaussianBlur(empty, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.int16)
    diff = np.abs(a - b)
    # Colour counts double: a tile's shadow darkens the tray without changing its hue.
    distance = diff[:, :, 0] // 2 + diff[:, :, 1] + diff[:, :, 2]
    mask = (distance > 28).astype(np.uint8) * 255
    return _solid(mask, image.shape)


def _solid(mask: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Speckles removed and the painted marks inside a tile filled in."""
    k = max(3, round(min(shape[:2]) / 160) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    return filled


def _quad(hull: np.ndarray) -> np.ndarray:
    """Four corners of a convex outline: its polygon when it has four, else its tightest box."""
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.05):
        poly = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(poly) == 4:
            return poly.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)


def _order_corners(points: np.ndarray) -> np.ndarray:
    """Clockwise on screen, starting with the corner nearest the top-left direction: the order
    that turns the square by the smallest angle."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    clockwise = points[np.argsort(angles)]  # image y points down: increasing angle is clockwise
    offsets = np.arctan2(clockwise[:, 1] - centre[1], clockwise[:, 0] - centre[0])
    start = int(np.argmin(np.abs(np.angle(np.exp(1j * (offsets + 3 * np.pi / 4))))))
    return np.roll(clockwise, -start, axis=0).astype(np.float32)


@dataclass(frozen=True)
class Marks:
    """The painted marks on a tile face, sorted into Mayan dots and bars."""

    dots: int
    bars: int
    other: int


def find_marks(face: np.ndarray) -> Marks:
    """Count the dots and bars painted on a straightened face."""
    size = face.shape[0]
    trim = round(size * 0.1)  # the bevel and edge, and any tray showing past the tile
    inner = cv2.cvtColor(face[trim:-trim, trim:-trim], cv2.COLOR_BGR2GRAY)
    inner = cv2.GaussianBlur(inner, (5, 5), 0)
    _, ink = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    # The paint covers less of the face than the card does: dark numbers on a light tile, or
    # light numbers on a dark one.
    if np.count_nonzero(ink) > ink.size / 2:
        ink = cv2.bitwise_not(ink)
    paint_px, card_px = inner[ink > 0], inner[ink == 0]
    if paint_px.size == 0 or card_px.size == 0:
        return Marks(0, 0, 0)
    # Plain card stock: Otsu splits grain, not paint, which stands out at any exposure.
    card, paint = float(card_px.mean()), float(paint_px.mean())
    if abs(card - paint) < max(12.0, MIN_PAINT_CONTRAST * max(card, paint)):
        return Marks(0, 0, 0)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count <= 1:
        return Marks(0, 0, 0)
    areas = stats[1:, cv2.CC_STAT_AREA]
    floor = max(0.003 * inner.size, 0.05 * float(areas.max()))
    dots = bars = other = 0
    for label in np.flatnonzero(areas >= floor) + 1:
        x, y, w, h, area = stats[label]
        blob = (labels[y : y + h, x : x + w] == label).astype(np.uint8)
        (_, _), (bw, bh), _ = cv2.minAreaRect(cv2.findNonZero(blob))
        long, short = max(bw, bh) + 1.0, min(bw, bh) + 1.0  # pixel centres to pixel edges
        # Ink over its box: a ring, a stroke or a spiral leaves most of its box empty.
        fill = float(area) / (long * short)
        if long / short <= 1.5 and fill >= 0.62:
            dots += 1
        elif long / short >= 2.5 and fill >= 0.75:
            bars += 1
        else:
            other += 1
    return Marks(dots, bars, other)


def read_number(face: np.ndarray) -> int:
    """The Mayan number 1-14 painted on a straightened number side."""
    marks = find_marks(face)
    if marks.other:
        raise NumberNotRead(
            "The tile shows marks that are neither dots nor bars: is it the picture side? "
            "Turn it over, or type the number."
        )
    if not marks.dots and not marks.bars:
        raise NumberNotRead("No dots or bars on the tile: show its number side, or type it.")
    number = marks.bars * 5 + marks.dots
    if marks.dots > 4 or marks.bars > 2 or number > 14:
        raise NumberNotRead(
            f"Saw {marks.dots} dot(s) and {marks.bars} bar(s), which is no clue tile number "
            "(1-14): check the light, or type the number."
        )
    return number
