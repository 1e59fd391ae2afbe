"""The dice reader on frames of any width, one after another and from several threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from companion.dice import synth
from companion.dice.reader import read


def _frame(faces, width: int, seed: int) -> np.ndarray:
    body, pips = synth.DIE_STYLES["ivory"]
    colour, texture = synth.SURFACES["felt-green"]
    dice = tuple(
        synth.DieSpec(face=f, x=110 + 140 * i, y=150 + 160 * (i % 2), body=body, pips=pips)
        for i, f in enumerate(faces)
    )
    scene = synth.Scene(dice=dice, surface=colour, texture=texture, width=width)
    return synth.render(scene, np.random.default_rng(seed))


def test_frames_of_any_width_are_read_one_after_another():
    # 637 and 642 are not multiples of 4; the reader keeps work arrays between frames.
    for width, faces in [(640, (1, 6, 3, 5)), (637, (2, 4, 6, 1)), (642, (5, 5, 3, 2))]:
        reading = read(_frame(faces, width, seed=width), expected=4)
        assert reading.values == sorted(faces), (width, reading.problems)
        assert reading.ok


def test_readings_from_several_threads_at_once_match_one_at_a_time():
    frames = [_frame((1 + i % 6, 1 + (i + 2) % 6, 1 + (i + 4) % 6), 640, i) for i in range(8)]
    alone = [read(f, expected=3).to_json() for f in frames]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda f: read(f, expected=3).to_json(), frames))
    assert together == alone
    assert all(r["status"] == "ok" for r in alone)
