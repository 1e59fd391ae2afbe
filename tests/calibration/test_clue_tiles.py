"""Clue tiles: found in the tray, straightened upright, their Mayan numbers read (CHAC-GLYPH-1:
dots = 1, bars = 5)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from conftest import empty_tray

from calibration.tile_synth import place_tile, tile_quad
from companion.game.chac.tile_art import mayan_parts, render_face
from companion.game.chac.tiles import NumberNotRead, TileNotFound, find_tile, read_number

TRAY = np.float32([[0, 0], [640, 0], [640, 440], [0, 440]])


def _laid(number, side, surface="grey", angle=12.0, centre=(0.5, 0.5), side_frac=0.22):
    empty = empty_tray(surface)
    quad = tile_quad(TRAY, centre, side_frac, angle)
    return place_tile(empty, render_face(number, side), quad), empty


def test_mayan_numbers_are_bars_of_five_and_dots_of_one_CHAC_GLYPH_1():
    assert mayan_parts(1) == (0, 1)
    assert mayan_parts(5) == (1, 0)
    assert mayan_parts(14) == (2, 4)
    with pytest.raises(ValueError):
        mayan_parts(15)


@pytest.mark.parametrize("number", range(1, 15))
def test_every_number_side_is_read_at_any_angle_CHAC_GLYPH_1(number):
    rng = np.random.default_rng(number)
    angle = float(rng.uniform(-40, 40))
    centre = (float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.25, 0.4)))
    for surface in ("grey", "felt-green", "white-sheet"):
        frame, empty = _laid(number, "number", surface, angle, centre)
        # With the empty tray to compare with, and from the tile's brown alone.
        assert read_number(find_tile(frame, empty).face) == number
        assert read_number(find_tile(frame).face) == number


@pytest.mark.parametrize("number", range(1, 15))
def test_a_glyph_side_is_not_mistaken_for_a_number(number):
    frame, empty = _laid(number, "glyph")
    with pytest.raises(NumberNotRead):
        read_number(find_tile(frame, empty).face)


def test_the_straightened_picture_is_upright_and_matches_the_tile():
    face = render_face(9, "glyph")
    frame, empty = _laid(9, "glyph", angle=-30.0)
    picture = find_tile(frame, empty).face.astype(np.float32)
    expected = np.asarray(__import__("cv2").resize(face, picture.shape[:2][::-1]), np.float32)

    def similarity(a, b):
        a, b = a - a.mean(), b - b.mean()
        return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))

    upright = similarity(picture, expected)
    turned = [similarity(np.rot90(picture, k).copy(), expected) for k in (1, 2, 3)]
    assert upright > 0.9
    assert upright > max(turned) + 0.1


def test_an_empty_tray_has_no_tile():
    empty = empty_tray("felt-blue")
    with pytest.raises(TileNotFound, match="No clue tile"):
        find_tile(empty, empty)
    with pytest.raises(TileNotFound, match="No clue tile"):
        find_tile(empty)


def test_a_tile_at_the_edge_of_the_view_is_asked_to_move():
    frame, empty = _laid(3, "number", centre=(0.05, 0.3))
    with pytest.raises(TileNotFound, match="edge"):
        find_tile(frame, empty)


def test_too_many_dots_is_no_clue_tile_number():
    face = render_face(1, "number")
    face[:] = (38, 78, 128)
    for i in range(6):  # six dots: no Mayan number has more than four
        cv2.circle(face, (40 + 32 * i, 120), 12, (24, 30, 40), -1)
    with pytest.raises(NumberNotRead, match="6 dot"):
        read_number(face)


def test_a_blank_face_has_no_number():
    face = render_face(1, "number")
    face[:] = (38, 78, 128)
    with pytest.raises(NumberNotRead, match="No dots or bars"):
        read_number(face)


@pytest.mark.parametrize("number", [4, 8, 14])
def test_light_numbers_on_a_dark_tile_are_read_too(number):
    face = render_face(number, "number")
    card = face.mean(axis=2) > 55  # everything but the paint
    face[card] = (30, 45, 70)
    face[~card] = (200, 215, 225)
    frame = place_tile(empty_tray("grey"), face, tile_quad(TRAY, (0.5, 0.5), 0.22, 20))
    assert read_number(find_tile(frame, empty_tray("grey")).face) == number
