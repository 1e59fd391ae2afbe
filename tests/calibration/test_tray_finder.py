"""Finding the tray on a table, and telling the owner why a frame cannot be used."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.tile_synth import tray_on_table
from calibration.tray import TrayNotFound, find_tray, frame_problem, warp_tray
from companion.dice import synth

SIZE = (1280, 720)


def _table_with_tray(seed: int, surface: str):
    rng = np.random.default_rng(seed)
    tray = synth.render(synth.random_scene([1, 2, 3, 4, 5], rng, surface=surface), rng)
    cx, cy = SIZE[0] / 2 + rng.uniform(-80, 80), SIZE[1] / 2 + rng.uniform(-40, 40)
    w, h = rng.uniform(500, 800), rng.uniform(350, 500)
    k = rng.uniform(0, 0.1) * w  # the far edge looks shorter: an oblique camera
    quad = np.float32(
        [
            [cx - w / 2 + k, cy - h / 2],
            [cx + w / 2 - k, cy - h / 2],
            [cx + w / 2, cy + h / 2],
            [cx - w / 2, cy + h / 2],
        ]
    )
    a = np.deg2rad(rng.uniform(-8, 8))
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = ((quad - [cx, cy]) @ turn.T + [cx, cy]).astype(np.float32)
    table = tuple(int(v) for v in rng.integers(40, 200, 3))
    return tray_on_table(tray, quad, SIZE, rng, table=table), quad


@pytest.mark.parametrize("seed", range(12))
def test_the_tray_is_found_on_any_table_within_a_few_percent(seed):
    surface = list(synth.SURFACES)[seed % len(synth.SURFACES)]
    frame, truth = _table_with_tray(seed, surface)
    corners = find_tray(frame)
    diagonal = float(np.linalg.norm(truth[2] - truth[0]))
    # The rim around the floor is part of the tray: dice lean against it.
    assert np.abs(corners - truth).max() < 0.04 * diagonal, (corners, truth)


def test_the_straightened_tray_has_the_trays_proportions():
    frame, truth = _table_with_tray(3, "felt-blue")
    top_down = warp_tray(frame, find_tray(frame))
    width = np.linalg.norm(truth[2] - truth[3])
    height = np.linalg.norm(truth[3] - truth[0])
    assert top_down.shape[1] / top_down.shape[0] == pytest.approx(width / height, rel=0.08)


def test_a_dark_frame_is_explained_as_too_dark():
    frame, _ = _table_with_tray(1, "grey")
    dark = (frame * 0.12).astype(np.uint8)
    assert frame_problem(frame) is None
    assert "Too dark" in frame_problem(dark)
    with pytest.raises(TrayNotFound, match="Too dark"):
        find_tray(dark)


def test_a_washed_out_frame_is_explained_as_too_bright():
    frame, _ = _table_with_tray(2, "white-sheet")
    bright = np.clip(frame.astype(np.float32) * 3.0, 0, 255).astype(np.uint8)
    assert "Too bright" in frame_problem(bright)


def test_a_table_without_a_tray_says_the_tray_was_not_found():
    rng = np.random.default_rng(5)
    frame = tray_on_table(np.zeros((20, 20, 3), np.uint8), None, SIZE, rng)
    with pytest.raises(TrayNotFound, match="Tray not found"):
        find_tray(frame)


def test_a_covered_lens_is_flat_not_a_tray():
    grey = np.full((480, 640, 3), 90, np.uint8)
    assert "lens" in frame_problem(grey)
