"""Calibration: time to find the tray, to find a clue tile and read its number, to warp a frame
to the tray view (done on every frame during play), and how often each is right, on frames of
the simulated table.

    .venv/bin/python bench/calibrate.py [--frames 30]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from calibration import tray
from calibration.tile_synth import SimTableCamera
from companion.game.chac import tiles
from companion.game.chac.tile_art import render_face
from companion.profile import CalibrationProfile
from hardware.camera import CameraSettings


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):6.2f} ms, p95 {p95:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=30)
    args = parser.parse_args()

    find_ms, tile_ms, warp_ms = [], [], []
    trays_ok = numbers_ok = 0
    for seed in range(args.frames):
        camera = SimTableCamera(seed=seed, settings=CameraSettings(width=1280, height=720))
        camera.open()
        number = seed % 14 + 1
        camera.lay_tile(render_face(number, "number"))
        frame = camera.read().image
        t0 = time.perf_counter()
        corners = tray.find_tray(frame)
        find_ms.append((time.perf_counter() - t0) * 1000)
        diagonal = float(np.linalg.norm(camera.tray_quad[2] - camera.tray_quad[0]))
        trays_ok += np.abs(corners - camera.tray_quad).max() < 0.04 * diagonal
        size = (frame.shape[1], frame.shape[0])
        profile = CalibrationProfile(tray=tuple(map(tuple, tray.to_fractions(corners, size))))
        t0 = time.perf_counter()
        view = profile.tray_view(frame)
        warp_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        try:
            read = tiles.read_number(tiles.find_tile(view).face)
        except (tiles.TileNotFound, tiles.NumberNotRead):
            read = None
        tile_ms.append((time.perf_counter() - t0) * 1000)
        numbers_ok += read == number
    n = args.frames
    print(f"{n} frames of 1280x720 from the simulated table")
    print(f"find the tray          {_ms(find_ms)}   right {trays_ok}/{n}")
    print(f"warp to the tray view  {_ms(warp_ms)}")
    print(f"find tile + read number {_ms(tile_ms)}  right {numbers_ok}/{n}")


if __name__ == "__main__":
    main()
