"""The pip search's whole-frame passes give, byte for byte, what OpenCV's smoothing,
top-hats and 5 x 5 maxima give (the reader was tuned on them), and refuse arrays of the wrong
size with a clear error."""

import cv2
import numpy as np
import pytest

from companion.dice import filters


def _opencv_responses(bgr: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    h = bgr.shape[0]
    smooth = cv2.GaussianBlur(bgr, (5, 5), 1.0)
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    both = np.zeros((2 * h + 2, *bgr.shape[1:]), np.uint8)
    cv2.morphologyEx(smooth, cv2.MORPH_BLACKHAT, square, dst=both[:h])
    cv2.morphologyEx(smooth, cv2.MORPH_TOPHAT, square, dst=both[h + 2 :])
    return smooth, both


def _responses(bgr: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    h, w = bgr.shape[:2]
    smooth = np.empty_like(bgr)
    both = np.full((2 * h + 2, w, 3), 77, np.uint8)  # every byte must be written
    filters.responses(bgr, w, k, smooth, both)
    return smooth, both


def _frame(rng, h: int, w: int) -> np.ndarray:
    """Noise, or blobs of colour with edges: flat runs, ties and saturated corners."""
    if rng.random() < 0.5:
        return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    small = rng.integers(0, 256, (max(1, h // 6), max(1, w // 6), 3), dtype=np.uint8)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST)


def test_responses_are_opencvs_on_random_frames_of_every_size_and_square():
    rng = np.random.default_rng(3)
    # odd and even squares (an even one's window is off centre), frames smaller than the
    # square, one pixel wide or high
    for k in (1, 2, 4, 5, 9, 20, 21, 33, 64):
        for h, w in ((1, 1), (1, 9), (7, 1), (2, 3), (13, 40), (64, 48), (97, 131)):
            bgr = _frame(rng, h, w)
            want_smooth, want = _opencv_responses(bgr, k)
            smooth, got = _responses(bgr, k)
            assert np.array_equal(smooth, want_smooth), (k, h, w)
            assert np.array_equal(got, want), (k, h, w)


def test_responses_of_a_rendered_tray_are_opencvs():
    from companion.dice.synth import random_scene, render

    rng = np.random.default_rng(11)
    bgr = render(random_scene([1, 2, 3, 4, 5, 6], rng), rng)
    want_smooth, want = _opencv_responses(bgr, 21)
    smooth, got = _responses(bgr, 21)
    assert np.array_equal(smooth, want_smooth)
    assert np.array_equal(got, want)
    assert got[: bgr.shape[0]].max() > 100  # the pips do stand out


def _numpy_peaks(response: np.ndarray, floor: int) -> np.ndarray:
    """The peaks as a 5 x 5 dilate and numpy find them."""
    rows, w = response.shape[:2]
    row = w * 3
    most = cv2.dilate(response, np.ones((5, 5), np.uint8)).reshape(rows, row)
    mask = ((response.reshape(rows, row) >= floor) & (most == response.reshape(rows, row))).ravel()
    found = np.flatnonzero(mask)
    ys, xs = np.divmod(found, row)
    xs //= 3
    left = (xs > 0) & mask.take(found - 3, mode="wrap")
    above_left = (xs > 0) & mask.take(found - row - 3, mode="wrap")
    above = (ys > 0) & mask.take(found - row, mode="wrap") & ~above_left
    return found[~left & ~above]


def test_peaks_are_the_tallest_of_their_5x5_and_one_per_flat_top():
    rng = np.random.default_rng(5)
    for trial in range(60):
        h, w = rng.integers(1, 70, 2)
        response = rng.integers(0, 60, (h, w, 3), dtype=np.uint8)
        if trial % 2:
            response = (response // 20 * 20).astype(np.uint8)  # flat tops and ties
        floor = int(rng.integers(1, 60))
        found = np.empty(h * w * 3, np.intp)
        count = filters.peaks(response, w, floor, found)
        assert found[:count].tolist() == _numpy_peaks(response, floor).tolist()


def test_a_flat_top_is_one_peak_and_a_lone_spike_is_one():
    response = np.zeros((12, 10, 3), np.uint8)
    response[2:5, 3:6, 1] = 90  # a 3 x 3 plateau in G
    response[9, 8, 2] = 40  # a spike in R
    response[9, 1, 0] = 20  # below the floor
    found = np.empty(16, np.intp)
    count = filters.peaks(response, 10, 25, found)
    assert found[:count].tolist() == [(2 * 10 + 3) * 3 + 1, (9 * 10 + 8) * 3 + 2]


def test_peaks_counts_past_a_short_buffer_so_the_caller_can_ask_again():
    response = np.zeros((5, 40, 3), np.uint8)
    response[2, ::6, 0] = 50  # 7 spikes, each out of the others' 5 x 5
    found = np.empty(2, np.intp)
    count = filters.peaks(response, 40, 25, found)
    assert count == 7
    assert found.tolist() == [(2 * 40 + 0) * 3, (2 * 40 + 6) * 3]


def test_wrong_sizes_are_refused_with_a_clear_error():
    bgr = np.zeros((10, 12, 3), np.uint8)
    with pytest.raises(ValueError, match=r"out \(2H \+ 2\)"):
        filters.responses(bgr, 12, 21, np.empty_like(bgr), np.empty((20, 12, 3), np.uint8))
    with pytest.raises(ValueError, match=r"k 1\.\.64"):
        filters.responses(bgr, 12, 65, np.empty_like(bgr), np.empty((22, 12, 3), np.uint8))
    with pytest.raises(ValueError, match="floor"):
        filters.peaks(bgr, 12, 0, np.empty(4, np.intp))
    with pytest.raises(ValueError, match="rows x width"):
        filters.peaks(bgr, 7, 10, np.empty(4, np.intp))
