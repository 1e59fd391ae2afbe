"""The pip search's passes over the whole frame: the smoothing, the top-hat responses and
their peaks.

The smoothing and the responses go into the caller's arrays: the pip search keeps its
frame-sized ones from one frame to the next. Everything here is whole bytes and indices, by
OpenCV's bit-exact 8-bit Gaussian, morphology and comparisons: every build of NumPy and
OpenCV must give the same bytes, so no step may bring in floats.
"""

from __future__ import annotations

from operator import index

import cv2
import numpy as np

from companion.dice.reading import frame_problem

_FIVE = np.ones((5, 5), np.uint8)


def check_frame(bgr: np.ndarray, name: str) -> None:
    """A ValueError naming `name` unless `bgr` is an image as the dice reader takes one
    (`reading.frame_problem`), of any size but empty: another array would not fail, but be
    read as something it is not."""
    problem = frame_problem(bgr, smallest=1)
    if problem is not None:
        raise ValueError(f"{name}: an H x W x 3 uint8 image is needed: {problem}")


def responses(bgr: np.ndarray, k: int, smooth: np.ndarray, out: np.ndarray) -> None:
    """`bgr` (uint8, H x W x 3) smoothed as cv2.GaussianBlur(bgr, (5, 5), 1.0) into `smooth`
    (uint8, H x W x 3), then its black-hat and top-hat with a k x k square (anchor k // 2),
    each channel on its own, as cv2.morphologyEx gives them: the black-hat (closing less the
    image) into rows 0..H-1 of `out` (uint8, (2H + 2) x W x 3), two rows of zeros, then the
    top-hat (the image less its opening). OpenCV would put results that do not fit `smooth`
    or `out` into new arrays of its own, and would take an empty square for a 3 x 3: both
    are refused."""
    check_frame(bgr, "responses")
    k = index(k)
    h, w = bgr.shape[:2]
    if k < 1:
        raise ValueError(f"responses: k must be at least 1, not {k}")
    shapes = smooth.shape == bgr.shape and out.shape == (2 * h + 2, w, 3)
    if not shapes or smooth.dtype != np.uint8 or out.dtype != np.uint8:
        raise ValueError("responses: smooth must be uint8 H x W x 3, out (2H + 2) x W x 3")
    cv2.GaussianBlur(bgr, (5, 5), 1.0, dst=smooth)
    square = np.ones((k, k), np.uint8)
    cv2.morphologyEx(smooth, cv2.MORPH_BLACKHAT, square, dst=out[:h])
    out[h : h + 2] = 0
    cv2.morphologyEx(smooth, cv2.MORPH_TOPHAT, square, dst=out[h + 2 :])


def peaks(response: np.ndarray, floor: int) -> np.ndarray:
    """The flat indices (intp), in order, of the peaks of `response` (uint8, rows x W x 3):
    bytes at least `floor` (1..255) and the largest of their channel's 5 x 5 (on the image),
    as a 5 x 5 dilate finds them. Of a flat top, only the first of each run along a row, and
    of those the first down each column: a peak whose left neighbour is a peak is passed
    over, and so is one whose upper neighbour is, unless the upper-left one is too."""
    check_frame(response, "peaks")
    floor = index(floor)
    if not 1 <= floor <= 255:
        raise ValueError(f"peaks: floor must be 1..255, not {floor}")
    rows, n = response.shape[0], response.shape[1] * 3
    flat = response.reshape(rows, n)
    # Off the image counts as nothing: dilate's default border never wins a maximum.
    most = cv2.dilate(response, _FIVE).reshape(rows, n)
    # (A row of floors broadcast: NumPy is slow with a scalar here, and OpenCV reads a
    # scalar as an array beside a 1 x 1 image.)
    np.maximum(most, np.full((1, n), floor, np.uint8), out=most)
    # A byte no less than the larger of its 5 x 5's largest and the floor is a peak: there
    # the difference, saturated at 0, is 0; marked 1 (so it reads as a bool), else 0.
    flag = cv2.subtract(most, flat, dst=most)
    cv2.threshold(flag, 0, 1, cv2.THRESH_BINARY_INV, dst=flag)
    places = cv2.findNonZero(flag)  # (x, y) in row order; None where there are none
    if places is None:
        return np.zeros(0, np.intp)
    places = places.reshape(-1, 2).astype(np.intp)
    at = places[:, 1] * n + places[:, 0]
    flag = flag.reshape(-1).view(bool)
    has_left, has_above = places[:, 0] >= 3, places[:, 1] >= 1
    # Their neighbours' flags (where there is no neighbour, some byte's, masked off).
    left = has_left & flag[np.maximum(at - 3, 0)]
    above_left = has_left & has_above & flag[np.maximum(at - n - 3, 0)]
    above = has_above & flag[np.maximum(at - n, 0)] & ~above_left
    return at[~left & ~above]
