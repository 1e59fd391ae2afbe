"""The pip search's whole-frame passes give, byte for byte, what OpenCV's smoothing,
top-hats and 5 x 5 maxima give (the reader was tuned on them), and refuse with a clear error
what they would otherwise misread."""

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
    filters.responses(bgr, k, smooth, both)
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
        found = filters.peaks(response, floor)
        assert found.dtype == np.intp
        assert found.tolist() == _numpy_peaks(response, floor).tolist()


def test_a_flat_top_is_one_peak_and_a_lone_spike_is_one():
    response = np.zeros((12, 10, 3), np.uint8)
    response[2:5, 3:6, 1] = 90  # a 3 x 3 plateau in G
    response[9, 8, 2] = 40  # a spike in R
    response[9, 1, 0] = 20  # below the floor
    assert filters.peaks(response, 25).tolist() == [(2 * 10 + 3) * 3 + 1, (9 * 10 + 8) * 3 + 2]


def test_a_response_with_no_peak_has_none():
    assert filters.peaks(np.full((5, 8, 3), 24, np.uint8), 25).tolist() == []


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((10, 12), np.uint8),  # grey
        np.zeros((10, 12, 4), np.uint8),  # with alpha
        np.zeros((10, 12, 3), np.float32),
        np.zeros((0, 12, 3), np.uint8),
    ],
    ids=["grey", "bgra", "float", "empty"],
)
def test_an_image_that_is_not_h_x_w_x_3_bytes_is_refused(bad):
    with pytest.raises(ValueError, match="H x W x 3 uint8"):
        filters.responses(bad, 21, np.empty_like(bad), np.empty((22, 12, 3), np.uint8))
    with pytest.raises(ValueError, match="H x W x 3 uint8"):
        filters.peaks(bad, 10)


def test_outputs_opencv_would_not_write_into_and_an_empty_square_are_refused():
    """OpenCV puts a result that does not fit the array it is given into a new one (the
    caller's would be left as it was), and takes an empty square for a 3 x 3."""
    bgr = np.zeros((10, 12, 3), np.uint8)
    smooth = np.empty_like(bgr)
    with pytest.raises(ValueError, match=r"out \(2H \+ 2\)"):
        filters.responses(bgr, 21, smooth, np.empty((20, 12, 3), np.uint8))
    with pytest.raises(ValueError, match=r"out \(2H \+ 2\)"):
        filters.responses(bgr, 21, smooth, np.empty((22, 12, 3), np.int16))
    with pytest.raises(ValueError, match="smooth"):
        filters.responses(bgr, 21, np.empty((10, 11, 3), np.uint8), np.empty((22, 12, 3), np.uint8))
    with pytest.raises(ValueError, match="k must be at least 1"):
        filters.responses(bgr, 0, smooth, np.empty((22, 12, 3), np.uint8))


@pytest.mark.parametrize("floor", [0, 256])
def test_a_floor_outside_the_bytes_is_refused(floor):
    with pytest.raises(ValueError, match=r"floor must be 1\.\.255"):
        filters.peaks(np.zeros((10, 12, 3), np.uint8), floor)
