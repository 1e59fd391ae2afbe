"""The pip search's passes over the whole frame: the smoothing, the top-hat responses and
their peaks.

Arrays come in as buffers (`buffers`), and the results go into the caller's arrays: the pip
search keeps its frame-sized ones from one frame to the next. Everything here is whole bytes
and indices, by OpenCV's bit-exact 8-bit Gaussian, morphology and comparisons: every build
of NumPy and OpenCV must give the same bytes, so no step may bring in floats.
"""

from __future__ import annotations

from operator import index

import cv2
import numpy as np

from companion.dice.buffers import raw, writable

_FIVE = np.ones((5, 5), np.uint8)


def responses(bgr, width, k, smooth, out) -> None:
    """`bgr` (uint8, H x width x 3) smoothed as cv2.GaussianBlur(bgr, (5, 5), 1.0) into
    `smooth` (uint8, H x width x 3), then its black-hat and top-hat with a k x k square
    (anchor k // 2), each channel on its own, as cv2.morphologyEx gives them: the black-hat
    (closing less the image) into rows 0..H-1 of `out` (uint8, (2H + 2) x width x 3), two rows
    of zeros, then the top-hat (the image less its opening)."""
    width, k = index(width), index(k)
    src, image, both = raw(bgr), writable(smooth, "smooth"), writable(out, "out")
    n = width * 3
    h = len(src) // n if n > 0 else 0
    if width <= 0 or h <= 0 or len(src) != h * n or not 1 <= k <= 64:
        raise ValueError("responses: bgr must be H x width x 3, k 1..64")
    if len(image) != h * n or len(both) != (2 * h + 2) * n:
        raise ValueError("responses: smooth must be H x width x 3, out (2H + 2) x width x 3")
    image, both = image.reshape(h, width, 3), both.reshape(2 * h + 2, width, 3)
    cv2.GaussianBlur(src.reshape(h, width, 3), (5, 5), 1.0, dst=image)
    square = np.ones((k, k), np.uint8)
    cv2.morphologyEx(image, cv2.MORPH_BLACKHAT, square, dst=both[:h])
    both[h : h + 2] = 0
    cv2.morphologyEx(image, cv2.MORPH_TOPHAT, square, dst=both[h + 2 :])


def peaks(response, width, floor, found) -> int:
    """The flat indices, in order, of the peaks of `response` (uint8, rows x width x 3):
    bytes at least `floor` (1..255) and the largest of their channel's 5 x 5 (on the image),
    as a 5 x 5 dilate finds them. Of a flat top, only the first of each run along a row, and
    of those the first down each column: a peak whose left neighbour is a peak is passed
    over, and so is one whose upper neighbour is, unless the upper-left one is too. Writes at
    most len(found) (intp) of them and returns how many there are: a larger count asks for a
    larger `found`."""
    width, floor = index(width), index(floor)
    r, into = raw(response), writable(found, "found")
    n = width * 3
    rows = len(r) // n if n > 0 else 0
    if width <= 0 or len(r) != rows * n or not 1 <= floor <= 255:
        raise ValueError("peaks: response must be rows x width x 3, floor 1..255")
    if not rows:
        return 0
    # Off the image counts as nothing: dilate's default border never wins a maximum.
    most = cv2.dilate(r.reshape(rows, width, 3), _FIVE).reshape(rows, n)
    # (A row of floors broadcast: NumPy is slow with a scalar here, and OpenCV reads a
    # scalar as an array beside a 1 x 1 image.)
    np.maximum(most, np.full((1, n), floor, np.uint8), out=most)
    # A byte no less than the larger of its 5 x 5's largest and the floor is a peak: there
    # the difference, saturated at 0, is 0; marked 1 (so it reads as a bool), else 0.
    flag = cv2.subtract(most, r.reshape(rows, n), dst=most)
    cv2.threshold(flag, 0, 1, cv2.THRESH_BINARY_INV, dst=flag)
    places = cv2.findNonZero(flag)  # (x, y) in row order; None where there are none
    if places is None:
        return 0
    places = places.reshape(-1, 2).astype(np.intp)
    at = places[:, 1] * n + places[:, 0]
    flag = flag.reshape(-1).view(bool)
    has_left, has_above = places[:, 0] >= 3, places[:, 1] >= 1
    # Their neighbours' flags (where there is no neighbour, some byte's, masked off).
    left = has_left & flag[np.maximum(at - 3, 0)]
    above_left = has_left & has_above & flag[np.maximum(at - n - 3, 0)]
    above = has_above & flag[np.maximum(at - n, 0)] & ~above_left
    at = at[~left & ~above]
    room = len(into) // at.itemsize
    into[: room * at.itemsize].view(np.intp)[: len(at)] = at[:room]
    return len(at)
