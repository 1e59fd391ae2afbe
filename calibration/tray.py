"""The dice tray in a camera frame: is the picture usable, where is the tray, and the tray seen
straight from above.

The tray is the largest four-cornered region that stands out from the table, by brightness or
by colour, and does not run off the frame. Its corners are kept as fractions of the frame's
width and height, so they hold at any capture resolution.

    problem = frame_problem(image)            # None, or a sentence: too dark, too bright, ...
    corners = find_tray(image)                # 4x2 pixels, clockwise from top left
    top_down = warp_tray(image, corners)      # the tray floor, perspective removed
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.profile import tray_size

WORK_WIDTH = 320  # frames are searched at this width: enough for a tray, cheap on a Pi
MIN_TRAY_AREA = 0.12  # of the frame
MAX_TRAY_AREA = 0.97
MIN_FILL = 0.9  # region area / its quadrilateral's area
AGREE = 0.025  # outlines whose corners are this close (share of the width) agree

TOO_DARK = 40  # mean grey level
TOO_BRIGHT = 0.1  # fraction of clipped pixels
FLAT = 3.0  # grey standard deviation of a covered lens or a blank wall


class TrayNotFound(Exception):
    """No tray in the frame; the message says what to change."""


def frame_problem(image: np.ndarray) -> str | None:
    """Why this frame cannot be used for calibration, as a sentence, or None when it can."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (WORK_WIDTH, max(1, grey.shape[0] * WORK_WIDTH // grey.shape[1])))
    mean = float(small.mean())
    if mean < TOO_DARK:
        return (
            f"Too dark (brightness {mean:.0f} of 255): switch on a lamp over the tray, or "
            "check that nothing covers the lens."
        )
    clipped = float((small >= 250).mean())
    if clipped > TOO_BRIGHT:
        return (
            f"Too bright: {clipped:.0%} of the picture is pure white. Move the lamp so it does not "
            "shine straight into the tray, or lower the exposure."
        )
    if float(small.std()) < FLAT:
        return "The picture is flat and featureless: is the lens covered or out of focus?"
    return None


def find_tray(image: np.ndarray) -> np.ndarray:
    """The tray's corners in pixels (float32, 4x2, clockwise from the top left)."""
    problem = frame_problem(image)
    if problem:
        raise TrayNotFound(problem)
    height, width = image.shape[:2]
    scale = WORK_WIDTH / width
    small = cv2.resize(image, (WORK_WIDTH, max(1, round(height * scale))), cv2.INTER_AREA)
    quads = [q for q in map(_best_quad, _candidate_masks(small)) if q is not None]
    if not quads:
        raise TrayNotFound(
            "Tray not found: the whole tray should be in view, on a table of a different "
            "colour or brightness. Or tap its four corners."
        )
    # Each way of looking finds the tray's outline, its floor inside the rim, or part of a
    # shaded floor: keep the outline most agree on, the largest among equals, so that dice
    # leaning on the walls stay inside it.
    quads = [order_corners(q) for q in quads]
    tolerance = AGREE * WORK_WIDTH

    def support(q: np.ndarray) -> int:
        return sum(np.abs(q - other).max() <= tolerance for other in quads)

    best = max(quads, key=lambda q: (support(q), cv2.contourArea(q)))
    return best / scale


def _candidate_masks(small: np.ndarray):
    """Binary pictures in which the tray may be one white region."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    for channel in cv2.split(lab):
        _, mask = cv2.threshold(channel, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        for m in (mask, 255 - mask):
            m = cv2.morphologyEx(m, cv2.MORPH_OPEN, kernel)
            yield cv2.morphologyEx(m, cv2.MORPH_CLOSE, kernel, iterations=3)
    # The rim: edges closed into outlines, the regions inside them filled.
    grey = lab[:, :, 0]
    median = float(np.median(grey))
    edges = cv2.Canny(grey, 0.5 * median, 1.2 * median)
    edges = cv2.dilate(edges, kernel)
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:4]:
        filled = np.zeros_like(grey)
        cv2.drawContours(filled, [contour], -1, 255, cv2.FILLED)
        yield filled


def _best_quad(mask: np.ndarray) -> np.ndarray | None:
    """The largest region of `mask` that is a convex quadrilateral clear of the frame edge."""
    height, width = mask.shape
    total = height * width
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:3]:
        area = cv2.contourArea(contour)
        if not MIN_TRAY_AREA * total <= area <= MAX_TRAY_AREA * total:
            continue
        hull = cv2.convexHull(contour)
        perimeter = cv2.arcLength(hull, True)
        for eps in (0.02, 0.035, 0.05):
            poly = cv2.approxPolyDP(hull, eps * perimeter, True)
            if len(poly) == 4:
                break
        else:
            continue
        quad = poly.reshape(4, 2).astype(np.float32)
        if area < MIN_FILL * cv2.contourArea(quad):
            continue
        margin = 2
        on_edge = (
            (quad[:, 0] <= margin)
            | (quad[:, 1] <= margin)
            | (quad[:, 0] >= width - 1 - margin)
            | (quad[:, 1] >= height - 1 - margin)
        )
        if on_edge.sum() >= 2:  # the table around the tray, or a tray running off the frame
            continue
        return quad
    return None


def order_corners(points: np.ndarray) -> np.ndarray:
    """Top left, top right, bottom right, bottom left."""
    pts = np.asarray(points, np.float32).reshape(4, 2)
    s = pts.sum(axis=1)
    d = pts[:, 1] - pts[:, 0]
    ordered = np.array([pts[s.argmin()], pts[d.argmin()], pts[s.argmax()], pts[d.argmax()]])
    if len({tuple(p) for p in ordered.tolist()}) != 4:  # a tray turned near 45 degrees
        centre = pts.mean(axis=0)
        by_angle = pts[np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))]
        start = int(np.argmin(by_angle.sum(axis=1)))
        ordered = np.roll(by_angle, -start, axis=0)
    return ordered.astype(np.float32)


def warp_tray(image: np.ndarray, corners: np.ndarray, width: int | None = None) -> np.ndarray:
    """The tray floor seen from straight above."""
    w, h = tray_size(corners, width)
    dst = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_AREA)


def to_fractions(corners: np.ndarray, size: tuple[int, int]) -> list[list[float]]:
    """Pixel corners as [x / width, y / height] pairs, rounded for a readable profile."""
    w, h = size
    return [[round(float(x) / w, 4), round(float(y) / h, 4)] for x, y in corners]
