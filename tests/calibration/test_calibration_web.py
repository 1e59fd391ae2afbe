"""Calibration on the host page: host-only JSON endpoints driving the same guided steps."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.tile_synth import SimTableCamera
from companion.game.chac import catalog
from companion.game.chac.tile_art import render_face
from companion.table import Table
from web import calibration as calibration_web
from web.app import Limits, create_app

API = "/api/host/calibration"


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def app(data_dir):
    with Table.open(data_dir / "events.sqlite") as table:
        app = create_app(table, data_dir, limits=Limits(reads=(500, 500), writes=(500, 500)))
        yield app
        app.extensions["companion"].broadcaster.close()


@pytest.fixture
def camera():
    with SimTableCamera(seed=8) as cam:
        yield cam


@pytest.fixture
def host(app, camera):
    calibration_web.attach(app, lambda: camera.read().image, lambda: camera.settings)
    client = app.test_client()
    pin = app.extensions["companion"].access.pin
    assert client.post("/api/host/login", json={"pin": pin}).status_code == 200
    return client


def test_calibration_is_for_the_host_only(app):
    client = app.test_client()
    assert client.get(API).status_code in (401, 403)
    assert client.post(API + "/capture", json={}).status_code in (401, 403)
    assert client.get(API + "/frame.jpg").status_code in (401, 403)


def test_the_page_loads_with_its_script(app):
    client = app.test_client()
    page = client.get("/host/calibration")
    assert page.status_code == 200
    assert b"/host/calibration.js" in page.data
    assert client.get("/host/calibration.js").status_code == 200


def test_frame_then_glyphs_through_the_endpoints_CHAC_GLYPH_2(host, camera, data_dir):
    state = host.get(API).json
    assert state["step"] == "frame" and state["oled"]
    camera.clear()
    reply = host.post(API + "/capture", json={}).json
    assert reply["ok"], reply["problem"]
    assert reply["step"] == "dice" and reply["done"]["frame"]
    frame = host.get(API + "/frame.jpg")
    assert frame.mimetype == "image/jpeg"
    picture = cv2.imdecode(np.frombuffer(frame.data, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[:2] == (camera.height, camera.width)

    assert host.post(API + "/start", json={"step": "glyphs"}).json["step"] == "glyphs"
    assert host.get(API + "/tile.png").status_code == 404  # no tile in hand yet
    camera.lay_tile(render_face(5, "glyph"))
    reply = host.post(API + "/capture", json={}).json
    assert reply["ok"] and reply["awaiting_number"]
    tile = host.get(API + "/tile.png")
    assert tile.status_code == 200 and tile.mimetype == "image/png"
    camera.lay_tile(render_face(5, "number"))
    reply = host.post(API + "/capture", json={}).json
    assert reply["ok"], reply["problem"]
    assert "Glyph 5 stored" in reply["note"]
    assert catalog.stored_numbers(data_dir) == [5]
    # Once stored, the picture is no longer served here: which glyph is which number is
    # exactly what the trap secret hides.
    assert host.get(API + "/tile.png").status_code == 404
    assert 5 not in reply["glyphs_missing"]


def test_a_typed_number_and_bad_input(host, camera, data_dir):
    host.post(API + "/start", json={"step": "glyphs"})
    camera.lay_tile(render_face(11, "glyph"))
    assert host.post(API + "/capture", json={}).json["ok"]
    upright = host.get(API + "/tile.png").data
    assert host.post(API + "/turn", json={}).json["ok"]
    turned = cv2.imdecode(np.frombuffer(host.get(API + "/tile.png").data, np.uint8), 1)
    before = cv2.imdecode(np.frombuffer(upright, np.uint8), 1)
    assert np.array_equal(turned, np.rot90(before, k=-1))
    assert host.post(API + "/number", json={"number": "eleven"}).status_code == 400
    reply = host.post(API + "/number", json={"number": 20}).json
    assert not reply["ok"] and "1-14" in reply["problem"]
    assert host.post(API + "/number", json={"number": "11"}).json["ok"]
    assert catalog.stored_numbers(data_dir) == [11]
    assert host.post(API + "/start", json={"step": "nap"}).status_code == 400


def test_a_dark_frame_is_explained(host, app):
    calibration_web.attach(app, lambda: np.full((480, 640, 3), 5, np.uint8))
    reply = host.post(API + "/capture", json={}).json
    assert not reply["ok"]
    assert "Too dark" in reply["problem"]


def test_tapped_corners_and_a_roll(host, camera):
    quad = camera.tray_quad.tolist()
    reply = host.post(API + "/corners", json={"points": quad}).json
    assert reply["ok"] and reply["step"] == "dice"
    assert host.post(API + "/corners", json={"points": quad[:3]}).status_code == 400
    camera.show_dice([2, 4, 6])
    reply = host.post(API + "/roll", json={"faces": "2 4 6"}).json
    assert reply["ok"] and reply["rolls"] == 1
    assert host.post(API + "/roll", json={"faces": "two"}).status_code == 400


def test_without_a_camera_capture_says_so(app):
    calibration_web.attach(app, lambda: None)
    client = app.test_client()
    pin = app.extensions["companion"].access.pin
    client.post("/api/host/login", json={"pin": pin})
    reply = client.post(API + "/capture", json={})
    assert reply.status_code == 503
    assert "camera" in reply.json["error"]
