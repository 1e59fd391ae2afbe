"""Settle detection on rendered throws: one reading per roll, once the dice are still."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.dice import synth
from companion.dice.settle import SettleDetector


def _final(faces, seed):
    rng = np.random.default_rng(seed)
    scene = synth.random_scene(faces, rng, view_tilt=0.0, style="white", surface="felt-green")
    return scene, rng


def _feed(detector, scenes, rng):
    """(frame index, reading) for every frame that produced a reading."""
    out = []
    for i, scene in enumerate(scenes):
        reading = detector.feed(synth.render(scene, rng))
        if reading is not None:
            out.append((i, reading))
    return out


def test_one_reading_per_roll_shortly_after_the_dice_stop():
    final, rng = _final([3, 5, 1, 6, 2], seed=1)
    frames = synth.throw_sequence(final, rng, fps=30, tumble_s=0.5, rest_s=1.0)
    settled_at = next(i for i, s in enumerate(frames) if s == final)
    readings = _feed(SettleDetector(expected=5), frames, rng)
    assert len(readings) == 1
    index, reading = readings[0]
    assert settled_at <= index <= settled_at + 8  # within a quarter second at 30 fps
    assert reading.values == [1, 2, 3, 5, 6]
    assert reading.ok


def test_no_reading_while_dice_tumble_or_a_hand_is_in_the_tray():
    final, rng = _final([4, 4], seed=2)
    frames = synth.throw_sequence(final, rng, rest_s=0.0, hand_before=True)[:-1]
    assert _feed(SettleDetector(expected=2), frames, rng) == []
    # A hand resting still in the tray over a die is not a roll either.
    hand = synth.random_hand(rng, final.width, final.height)
    hand = replace(hand, x=final.dice[0].x, y=final.dice[0].y)
    held = [replace(final, hand=hand)] * 10
    assert _feed(SettleDetector(expected=2), held, rng) == []


def test_next_roll_is_read_again_and_an_empty_tray_is_not():
    detector = SettleDetector(expected=3)
    first, rng = _final([1, 2, 3], seed=3)
    second, _ = _final([6, 6, 4], seed=4)
    second = replace(second, texture_seed=first.texture_seed, surface=first.surface)
    empty = replace(first, dice=())
    frames = (
        synth.throw_sequence(first, rng, rest_s=0.5)
        + [empty] * 8
        + synth.throw_sequence(second, rng, rest_s=0.5)
    )
    readings = _feed(detector, frames, rng)
    assert [r.values for _, r in readings] == [[1, 2, 3], [4, 6, 6]]


def test_a_still_empty_tray_is_looked_at_once_not_every_frame(monkeypatch):
    from companion.dice import reader

    reads = []

    def counted(*args, **kwargs):
        reads.append(1)
        return real_read(*args, **kwargs)

    real_read = reader.read
    monkeypatch.setattr(reader, "read", counted)
    first, rng = _final([5, 2], seed=5)
    empty = replace(first, dice=())
    detector = SettleDetector(expected=2)
    assert _feed(detector, [empty] * 30, rng) == []
    assert len(reads) == 1
    # Dice thrown in afterwards move, and are read once they rest.
    readings = _feed(detector, synth.throw_sequence(first, rng, rest_s=0.5), rng)
    assert [r.values for _, r in readings] == [[2, 5]]
