"""The frame-wide pip search: which of many peaks it measures."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.dice import pips as pipfind
from companion.dice.reader import default_profile

SPOTS = np.array([(30 + 40 * i, 30 + 40 * j) for j in range(5) for i in range(7)])


def _spotted_frame() -> np.ndarray:
    """35 round dark spots in rows, each alike to the last pixel (one peak apiece, of one
    strength in each channel): the first 14 fainter, the other 21 darker."""
    yy, xx = np.mgrid[-10:11, -10:11]
    shape = np.exp(-(xx**2 + yy**2) / (2 * 3.0**2))
    frame = np.full((240, 320, 3), 215.0)
    for k, (x, y) in enumerate(SPOTS.tolist()):
        frame[y - 10 : y + 11, x - 10 : x + 11] -= np.rint((120 if k < 14 else 185) * shape)[
            ..., None
        ]
    return frame.astype(np.uint8)


@pytest.mark.parametrize(
    "budget, measured",
    [
        (5, range(14, 19)),  # the first five dark spots, in the top one of their rows
        (26, [*range(5), *range(14, 35)]),  # all dark ones, and the first five faint
    ],
)
def test_past_its_budget_the_search_measures_the_strongest_peaks_first_found_of_equals(
    budget, measured
):
    # Which of equally strong peaks are measured must not be left to how the NumPy of the
    # day breaks ties: on another build the same frame would read differently.
    search = replace(default_profile().pips, max_peaks=budget)
    found = pipfind.find(_spotted_frame(), search)
    gap = np.hypot(*(found.xy[:, None] - SPOTS[None]).transpose(2, 0, 1))
    assert (gap.min(axis=1) < 1).all()
    assert sorted(gap.argmin(axis=1).tolist()) == list(measured)
