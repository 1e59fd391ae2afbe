"""Rendered tables, trays and clue tiles for the calibration tests."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.tile_synth import SimTableCamera
from companion.dice import synth


@pytest.fixture
def camera():
    """A simulated camera over a table with a tray, open, on the lamp's right exposure."""
    with SimTableCamera(seed=11) as cam:
        yield cam


def empty_tray(surface: str = "grey", seed: int = 0, size=(640, 440)) -> np.ndarray:
    colour, texture = synth.SURFACES[surface]
    scene = synth.Scene(
        width=size[0],
        height=size[1],
        surface=colour,
        texture=texture,
        texture_seed=seed,
        tray_wall=16,
    )
    return synth.render(scene, np.random.default_rng(seed))
