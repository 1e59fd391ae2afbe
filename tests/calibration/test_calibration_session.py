"""The guided calibration from the owner's side: frame, dice, glyph pictures, with every bad
frame explained and nothing stored from it."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.session import OLED_WIDTH, CalibrationSession
from companion import profile as calibration_profile
from companion.dice import reader
from companion.dice.profile import Profile
from companion.game.chac import catalog
from companion.game.chac.glyphs import GlyphCatalog
from companion.game.chac.tile_art import render_face


def _similarity(a: np.ndarray, b: np.ndarray) -> float:
    a = cv2.resize(a, (128, 128)).astype(np.float32)
    b = cv2.resize(b, (128, 128)).astype(np.float32)
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))


def _frame_done(session, camera) -> None:
    camera.clear()
    assert session.capture(camera.read().image), session.problem


def test_the_frame_step_finds_the_tray_and_stores_it_with_the_camera_settings(tmp_path, camera):
    session = CalibrationSession(tmp_path)
    camera.clear()
    assert session.capture(camera.read().image, camera.settings)
    stored = calibration_profile.load(tmp_path / "profile.toml")
    corners = np.array(stored.tray) * [camera.width, camera.height]
    assert np.abs(corners - camera.tray_quad).max() < 30
    assert stored.camera["exposure_us"] == camera.settings.exposure_us
    assert session.step == "dice"


def test_a_dark_frame_is_explained_and_changes_nothing(tmp_path, camera):
    session = CalibrationSession(tmp_path)
    dark = (camera.read().image * 0.1).astype(np.uint8)
    assert not session.capture(dark)
    assert "Too dark" in session.problem
    assert "Too dark" in " ".join(session.guide().oled[1:]) or "dark" in session.guide().oled[1]
    assert not (tmp_path / "profile.toml").exists()
    assert session.step == "frame"


def test_tapped_corners_stand_in_when_the_tray_is_not_found(tmp_path, camera):
    session = CalibrationSession(tmp_path)
    frame = camera.read().image
    quad = camera.tray_quad
    # Tapped in any order.
    assert session.set_corners(frame, [quad[2], quad[0], quad[3], quad[1]])
    assert np.allclose(np.array(session.profile.tray) * [camera.width, camera.height], quad, atol=1)
    assert not session.set_corners(frame, [quad[0], quad[1], quad[2]])
    assert "4 corners" in session.problem


def test_tuning_on_three_rolls_improves_a_deliberately_bad_profile(tmp_path, camera):
    # It wants perfectly round pips: no camera sees a die's pips that way.
    bad = Profile()
    bad = replace(bad, faces=replace(bad.faces, max_pip_elongation=1.0))
    calibration_profile.save(
        calibration_profile.CalibrationProfile(dice=bad), tmp_path / "profile.toml"
    )
    session = CalibrationSession(tmp_path, reader="pip-search")
    _frame_done(session, camera)
    rng = np.random.default_rng(1)
    for _ in range(3):
        faces = [int(f) for f in rng.integers(1, 7, 5)]
        camera.show_dice(faces)
        assert session.add_roll(camera.read().image, faces), session.problem
    before, after = session.dice_accuracy
    assert after > before
    assert after >= 0.9
    assert f"{after:.0%}" in session.note
    # The stored profile reads rolls it was not tuned on better than the bad one did.
    tuned = calibration_profile.load(tmp_path / "profile.toml")
    assert tuned.tray is not None  # tuning kept the frame step's tray
    right = {"tuned": 0, "bad": 0}
    for _ in range(5):
        faces = [int(f) for f in rng.integers(1, 7, 5)]
        camera.show_dice(faces)
        view = session.tray_view(camera.read().image)
        for name, dice in (("tuned", tuned.dice), ("bad", bad)):
            read = Counter(reader.read(view, dice, 5).values)
            right[name] += sum((read & Counter(faces)).values())
    assert right["tuned"] > right["bad"]
    assert session.step == "glyphs"


def test_dice_faces_that_are_not_dice_are_refused(tmp_path, camera):
    session = CalibrationSession(tmp_path)
    session.start("dice")
    assert not session.add_roll(camera.read().image, [3, 7])
    assert "1-6" in session.problem
    assert session.rolls == []


def test_all_14_glyph_pictures_are_stored_under_the_numbers_read_CHAC_GLYPH_2(tmp_path, camera):
    session = CalibrationSession(tmp_path)
    _frame_done(session, camera)
    session.start("glyphs")
    for number in range(1, 15):
        camera.lay_tile(render_face(number, "glyph"))
        assert session.capture(camera.read().image), session.problem
        assert session.awaiting_number
        camera.lay_tile(render_face(number, "number"))
        assert session.capture(camera.read().image), session.problem
    assert session.runs["glyphs"].missing() == []
    assert session.done()["glyphs"]
    # Each stored picture is its own tile's picture, more like it than like any other glyph.
    for number in range(1, 15):
        stored = catalog.load_glyph(tmp_path, number)
        scores = {n: _similarity(stored, render_face(n, "glyph")) for n in range(1, 15)}
        assert max(scores, key=scores.get) == number
    # The seat page's viewer finds them where calibration put them.
    assert GlyphCatalog(tmp_path).available() == list(range(1, 15))


def test_the_number_side_first_is_explained(tmp_path, camera):
    session = CalibrationSession(tmp_path)
    _frame_done(session, camera)
    session.start("glyphs")
    camera.lay_tile(render_face(6, "number"))
    assert not session.capture(camera.read().image)
    assert "number side (6)" in session.problem
    assert not session.awaiting_number
    assert catalog.stored_numbers(tmp_path) == []


def test_an_unreadable_number_can_be_typed_and_a_repeat_is_refused(tmp_path, camera):
    session = CalibrationSession(tmp_path)
    _frame_done(session, camera)
    session.start("glyphs")
    camera.lay_tile(render_face(4, "glyph"))
    assert session.capture(camera.read().image)
    camera.clear()  # the tile was picked up instead of turned over
    assert not session.capture(camera.read().image)
    assert "No clue tile" in session.problem
    assert session.awaiting_number
    assert not session.type_number(15)
    assert session.type_number(4)
    assert catalog.stored_numbers(tmp_path) == [4]
    camera.lay_tile(render_face(9, "glyph"))
    assert session.capture(camera.read().image)
    assert not session.type_number(4)
    assert "already stored" in session.problem
    assert catalog.stored_numbers(tmp_path) == [4]
    session.skip_tile()
    assert not session.awaiting_number


def test_any_step_can_be_redone(tmp_path, camera):
    session = CalibrationSession(tmp_path)
    _frame_done(session, camera)
    session.start("dice")
    camera.show_dice([1, 2])
    assert session.add_roll(camera.read().image, [1, 2])
    session.start("dice")
    assert session.rolls == []
    session.start("frame")
    assert session.step == "frame"
    assert session.done()["frame"]  # the stored tray stays until a new one replaces it
    with pytest.raises(ValueError):
        session.start("lunch")


def test_the_oled_lines_fit_the_screen_at_every_step(tmp_path, camera):
    session = CalibrationSession(tmp_path)
    guides = [session.guide()]
    session.capture((camera.read().image * 0.1).astype(np.uint8))
    guides.append(session.guide())
    _frame_done(session, camera)
    guides.append(session.guide())
    session.start("glyphs")
    guides.append(session.guide())
    camera.lay_tile(render_face(2, "glyph"))
    session.capture(camera.read().image)
    guides.append(session.guide())
    for guide in guides:
        assert 1 <= len(guide.oled) <= 4
        assert all(len(line) <= OLED_WIDTH for line in guide.oled)
        assert guide.text and guide.title
        screen = guide.screen()
        assert screen.image.size == (128, 64)
        assert screen.find(guide.oled[0], whole=True), guide.oled[0]  # the title fits its bar
    assert "Too dark" in guides[1].screen().text
