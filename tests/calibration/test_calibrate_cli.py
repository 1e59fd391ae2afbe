"""`companion calibrate frame` and `companion calibrate glyphs` end to end on the simulated
table, and from picture files."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.tile_synth import SimTableCamera
from companion import profile as calibration_profile
from companion.cli import main
from companion.game.chac import catalog
from companion.game.chac.tile_art import render_face


def test_frame_then_glyphs_on_the_simulated_table_fill_the_catalog(tmp_path, capsys):
    assert main(["calibrate", "frame", "--camera", "sim", "--data-dir", str(tmp_path)]) == 0
    stored = calibration_profile.load(tmp_path / "profile.toml")
    assert stored.tray is not None
    assert "exposure_us" in stored.camera
    assert main(["calibrate", "glyphs", "--camera", "sim", "--data-dir", str(tmp_path)]) == 0
    assert catalog.stored_numbers(tmp_path) == list(range(1, 15))
    assert "All 14 glyph pictures" in capsys.readouterr().out


def test_glyphs_from_picture_files_with_a_typed_number(tmp_path, capsys):
    camera = SimTableCamera(seed=5)
    camera.open()
    files = []
    for number, side in ((3, "glyph"), (3, "number"), (12, "glyph"), (12, "glyph")):
        camera.lay_tile(render_face(number, side))
        path = tmp_path / f"{len(files)}.png"
        cv2.imwrite(str(path), camera.read().image)
        files.append(str(path))
    data = tmp_path / "data"
    # Tile 12's number side was never photographed: reading fails, the tile is skipped.
    code = main(["calibrate", "glyphs", "--data-dir", str(data), "--images", *files])
    assert code == 1
    assert catalog.stored_numbers(data) == [3]
    out = capsys.readouterr().out
    assert "Glyph 3 stored" in out
    assert "Glyphs still missing: 1, 2, 4" in out
    # Typed numbers stand in for reading them.
    main(
        ["calibrate", "glyphs", "--data-dir", str(data), "--images", *files[2:], "--numbers", "12"]
    )
    assert catalog.stored_numbers(data) == [3, 12]


def test_frame_from_a_picture_with_tapped_corners(tmp_path):
    camera = SimTableCamera(seed=2)
    camera.open()
    path = tmp_path / "empty.png"
    cv2.imwrite(str(path), camera.read().image)
    corners = ",".join(f"{v:.0f}" for v in camera.tray_quad.flatten())
    args = ["calibrate", "frame", "--image", str(path), "--corners", corners]
    assert main([*args, "--data-dir", str(tmp_path)]) == 0
    tray = np.array(calibration_profile.load(tmp_path / "profile.toml").tray)
    assert np.allclose(tray * [camera.width, camera.height], camera.tray_quad, atol=1.5)


def test_a_dark_picture_is_refused_with_its_reason(tmp_path, capsys):
    path = tmp_path / "dark.png"
    cv2.imwrite(str(path), np.full((480, 640, 3), 12, np.uint8))
    assert main(["calibrate", "frame", "--image", str(path), "--data-dir", str(tmp_path)]) == 1
    assert "Too dark" in capsys.readouterr().out
    assert not (tmp_path / "profile.toml").exists()
