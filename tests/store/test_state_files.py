"""State outside the event log (seat links, PIN, sign-ins, calibration profile, glyph
pictures) is written whole or not at all: on a read-only or full disk the change is refused
with a message naming the disk's fault, and memory keeps what the disk has."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.atomic_file import SaveError, write_atomically
from companion.game.chac import catalog
from companion.profile import CalibrationProfile, save
from companion.table import Table
from web.access import HOST_COOKIE, Access
from web.app import create_app


@pytest.fixture
def app_on(disk, tmp_path):
    """The pages with their access file on the small disk (the log elsewhere: a disk with a
    file open for writing cannot be switched to read-only by hand)."""
    data = disk.path / "data"
    data.mkdir()
    table = Table.open(tmp_path / "events.sqlite")
    app = create_app(table, data, public_port=8080)
    yield app
    app.extensions["companion"].broadcaster.close()
    table.close()


def access_file(app) -> dict:
    web = app.extensions["companion"]
    return json.loads((web.access._path).read_text())


@pytest.mark.parametrize("fault, words", [("read_only", "read-only"), ("fill", "full")])
def test_new_seat_links_on_a_failing_disk_change_nothing(app_on, disk, fault, words):
    access = app_on.extensions["companion"].access
    host = app_on.test_client()
    pin = access.pin
    assert host.post("/api/host/login", json={"pin": pin}).status_code == 200
    links = [access.join_path(s) for s in range(6)]
    before = access_file(app_on)

    getattr(disk, fault)()
    response = host.post("/api/host/reissue", json={})
    assert response.status_code == 503
    assert words in response.json["error"] and "Nothing changed" in response.json["error"]
    # The phones keep their seats: the links in memory are the ones on disk.
    assert [access.join_path(s) for s in range(6)] == links
    assert access_file(app_on) == before
    assert Access.load(access._path.parent).join_path(0) == links[0]


@pytest.mark.parametrize("fault, words", [("read_only", "read-only"), ("fill", "full")])
def test_signing_in_on_a_failing_disk_is_a_clear_refusal(app_on, disk, fault, words):
    access = app_on.extensions["companion"].access
    getattr(disk, fault)()
    phone = app_on.test_client()
    response = phone.post("/api/host/login", json={"pin": access.pin})
    assert response.status_code == 503
    assert words in response.json["error"]
    assert phone.get_cookie(HOST_COOKIE) is None
    assert access_file(app_on)["host_sessions"] == []


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(disk):
    target = disk.path / "state.json"
    write_atomically(target, b'{"old": true}')
    disk.fill()
    with pytest.raises(SaveError, match="full"):
        write_atomically(target, b'{"new": true}' * 100000)
    assert target.read_bytes() == b'{"old": true}'
    assert sorted(p.name for p in disk.path.iterdir()) == ["filler", "state.json"]


def test_glyph_pictures_are_owner_only_and_refused_whole_on_a_read_only_disk(disk):
    picture = np.full((40, 40, 3), 200, np.uint8)
    path = catalog.save_glyph(disk.path, 3, picture)
    assert path.stat().st_mode & 0o077 == 0  # the trap secret is not world-readable
    disk.read_only()
    with pytest.raises(SaveError, match="read-only"):
        catalog.save_glyph(disk.path, 4, picture)
    assert catalog.stored_numbers(disk.path) == [3]


def test_a_profile_on_a_read_only_disk_keeps_the_old_one(disk):
    path = disk.path / "profile.toml"
    save(CalibrationProfile(), path)
    old = path.read_text()
    disk.read_only()
    with pytest.raises(SaveError, match="read-only"):
        save(CalibrationProfile(tray=((0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9))), path)
    assert path.read_text() == old
