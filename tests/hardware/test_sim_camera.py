"""The simulated camera: a still tray, a throw that tumbles and settles, a hand, a failure."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

from hardware.camera import CameraError, SimCamera


def difference(a, b):
    return float(np.mean(np.abs(a.image.astype(np.int16) - b.image.astype(np.int16))))


@pytest.fixture
def camera():
    with SimCamera(width=320, height=240, fps=20, seed=5) as camera:
        yield camera


def test_the_still_tray_changes_only_by_sensor_noise(camera):
    a, b = camera.read(), camera.read()
    assert a.image.shape == (240, 320, 3) and a.image.dtype == np.uint8
    assert not np.array_equal(a.image, b.image)  # fresh noise every frame
    assert difference(a, b) < 4
    assert b.timestamp - a.timestamp == pytest.approx(1 / 20)


def test_a_throw_tumbles_then_settles_within_a_second(camera):
    empty = camera.read()
    camera.throw([3, 5, 1, 6, 2], hand=False)
    frames = [camera.read() for _ in range(30)]
    moving = [difference(a, b) for a, b in itertools.pairwise(frames)]
    settle_at = next(i for i, d in enumerate(moving) if all(m < 4 for m in moving[i:]))
    elapsed = frames[settle_at].timestamp - frames[0].timestamp
    assert 0.3 <= elapsed <= 1.0
    assert max(moving[:settle_at]) > 4  # the dice visibly moved before
    assert camera.settled and camera.faces == (3, 5, 1, 6, 2)
    assert difference(frames[-1], empty) > 2  # five dice now lie in the tray


def test_a_throw_can_show_the_hand_that_threw(camera):
    empty = camera.read()
    camera.throw([4, 4], hand=True)
    first = camera.read()
    assert not camera.settled
    # The hand's frames come before any die: a large part of the tray is covered.
    changed = np.abs(first.image.astype(np.int16) - empty.image.astype(np.int16)).max(axis=2) > 15
    assert changed.mean() > 0.04


def test_each_throw_keeps_the_same_tray(camera):
    camera.throw([1], hand=False)
    a = [camera.read() for _ in range(30)][-1]
    camera.throw([6], hand=False)
    b = [camera.read() for _ in range(30)][-1]
    corner = (slice(0, 15), slice(0, 15))
    assert np.abs(a.image[corner].astype(int) - b.image[corner].astype(int)).mean() < 6


def test_bad_faces_are_refused(camera):
    with pytest.raises(ValueError, match="1-6"):
        camera.throw([0, 7])


def test_an_unplugged_simulated_camera_fails_like_a_real_one_and_reopens(camera):
    camera.unplug()
    with pytest.raises(CameraError, match="unplugged"):
        camera.read()
    assert not camera.is_open
    camera.open()
    assert camera.read().index == 0


def test_realtime_mode_paces_frames_at_the_frame_rate():
    with SimCamera(width=160, height=120, fps=25, realtime=True) as camera:
        started = time.monotonic()
        frames = [camera.read() for _ in range(6)]
        took = time.monotonic() - started
        time.sleep(0.13)  # a reader that falls behind gets the next frame, not a burst
        started = time.monotonic()
        frames += [camera.read() for _ in range(3)]
        caught_up = time.monotonic() - started
    assert took >= 5 / 25 * 0.9
    assert caught_up >= 2 / 25 * 0.9
    gaps = np.diff([f.timestamp for f in frames])
    assert gaps.min() > 0.99 / 25  # each frame on a tick of its own
    assert gaps[5] >= 0.13  # the ticks missed while behind are skipped
