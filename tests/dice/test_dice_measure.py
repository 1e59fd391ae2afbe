"""Measuring faces against the image: faces measured in batches get what they get alone."""

from __future__ import annotations

from copy import deepcopy

import numpy as np

from companion.dice import faces as facefit
from companion.dice import kernels, synth
from companion.dice.reader import default_profile, propose


def test_a_face_measures_the_same_among_many_as_alone():
    """Faces are measured in batches (every 1 together, every other face together): each
    face the pip search measured in a tray of a dozen dice must get the edge score, box and
    flags it gets measured on its own."""
    profile = default_profile()
    rng = np.random.default_rng(12)
    faces = [1, 2, 3, 4, 5, 6, 1, 2, 4, 6, 1, 3]
    scene = synth.random_scene(faces, rng, view_tilt=0.2)
    frame = synth.render(scene, rng)
    searched = propose(frame, profile, len(faces)).extras
    assert "scale" not in searched  # searched in the frame's own pixels
    candidates, pips = searched["candidates"], searched["pips"]
    assert {f.face for f in candidates} >= {1, 2, 3, 4, 5, 6}
    alone = deepcopy(candidates)
    for face in alone:
        facefit.measure(frame, [face], pips, profile.dice)
    for together, single in zip(candidates, alone, strict=True):
        assert together.edge_score == single.edge_score
        assert together.box == single.box
        assert together.missing_pip == single.missing_pip
        assert together.squash == single.squash


def test_a_probe_on_a_half_pixel_takes_one_pixel_whatever_its_last_bit():
    """A probe of a fitted face often lies on a half pixel exactly; another machine's BLAS
    or libm can put it a last bit either side. It must look at the same pixel either way,
    or the same frame reads differently there."""
    frame = np.full((20, 20, 3), 200, np.uint8)  # ivory face...
    frame[:, 10:] = 20  # ... and pip-black from x = 10 on
    # face B, G, R, pip B, G, R, then the pip test's limit (half the contrast, 311) and the
    # face test's, as a face's probes are tested
    rows = np.tile(np.array([200, 200, 200, 20, 20, 20, 155.5, 30], np.float32), (3, 1))
    half = 9.5
    points = np.array([[np.nextafter(half, 0), 5.0], [half, 5.0], [np.nextafter(half, 20), 5.0]])
    answers = kernels.probes(frame, points, rows, True, facefit.SATURATED)
    assert answers.tolist() in ([True] * 3, [False] * 3)
