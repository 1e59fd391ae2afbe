"""The companion as one program: a throw on the simulated camera is read by the real dice
reader and reaches the table; the panel confirms doubtful readings; a lost camera leaves
manual entry working; a full disk refuses commands without damaging the log."""

from __future__ import annotations

import re
import sqlite3

from servicekit import to_first_roll, wait_for
from tablehttp import Phone, host

from companion.table import Table


def entered_or_pending(service, version: int):
    rolls = service.rolls
    if service.table.version != version:
        return "entered"
    return "pending" if rolls.pending is not None else None


def test_dice_thrown_on_the_camera_are_read_and_entered(start_service):
    running = start_service()
    service = running.service
    to_first_roll(service.table)
    sim = Phone(running.base)
    entered = []
    # As at a real table, a throw the camera is unsure of is thrown again.
    for _ in range(10):
        version = service.table.version
        status, body = sim.post("/api/sim/throw", {})
        assert status == 200, body
        assert len(body["values"]) == 5  # the prompt asks for five dice
        result = wait_for(lambda v=version: entered_or_pending(service, v))
        assert result, "a settled throw gave neither an entry nor a pending reading"
        if result == "entered":
            entered.append((sorted(body["values"]), list(service.rolls.last_submitted)))
            break
        assert service.rolls.pending.expected == 5
        service.rolls.discard()
    assert entered, "ten throws and the camera never read one with confidence"
    thrown, read = entered[0]
    assert read == thrown
    assert not any(p.kind == "roll" for p in service.table.prompts())


def test_a_doubtful_reading_waits_for_the_ok_button(start_service):
    running = start_service(**{"dice.auto_submit": False})
    service = running.service
    to_first_roll(service.table)
    sim = Phone(running.base)
    version = service.table.version
    sim.post("/api/sim/throw", {"values": [3, 5, 1, 6, 2]})
    pending = wait_for(lambda: service.rolls.pending)
    assert pending is not None and pending.expected == 5
    assert service.table.version == version  # nothing entered without a person
    status, state = sim.get("/api/sim/state")
    assert state["pending"]["values"] == list(pending.values)
    # The OLED shows the reading and waits for OK ("Check the dice" when it doubts a die, "Fix
    # the dice" when the count is off).
    titles = "Dice read|Check the dice|Fix the dice"
    assert wait_for(lambda: re.search(titles, service.panel.screen().text))
    status, _ = sim.post("/api/sim/button", {"button": "OK"})
    assert status == 200
    assert wait_for(lambda: service.table.version != version)
    assert service.rolls.last_submitted == pending.values
    assert service.rolls.pending is None


def test_a_roll_entered_by_hand_drops_the_pending_reading(start_service):
    running = start_service(**{"dice.auto_submit": False})
    service = running.service
    to_first_roll(service.table)
    hosting = host(running.base, running.pin)
    Phone(running.base).post("/api/sim/throw", {"values": [2, 3, 4, 5, 6]})
    assert wait_for(lambda: hosting.get("/api/service/status")[1]["pending"])
    status, body = hosting.post("/api/host/command", {"type": "dice", "values": [1, 1, 1, 1, 1]})
    assert status == 200, body
    assert hosting.get("/api/service/status")[1]["pending"] is None
    status, body = hosting.post("/api/service/roll/confirm")
    assert status == 409 and "no dice reading waiting" in body["error"]


def test_dice_left_lying_in_the_tray_are_not_read_as_the_next_roll(start_service):
    running = start_service(**{"dice.auto_submit": False})
    service = running.service
    to_first_roll(service.table)
    Phone(running.base).post("/api/sim/throw", {"values": [4, 4, 2, 2, 1]})
    assert wait_for(lambda: service.rolls.pending)
    assert service.rolls.confirm().ok
    assert service.table.undo().ok  # the table asks for the roll again; the dice still lie there
    assert any(p.kind == "roll" for p in service.table.prompts())
    assert not wait_for(lambda: service.rolls.pending, timeout=2.0)


def test_holding_back_on_the_panel_undoes(start_service):
    running = start_service()
    service = running.service
    to_first_roll(service.table)
    before = service.table.public_view()
    status, body = host(running.base, running.pin).post(
        "/api/host/command", {"type": "dice", "values": [1, 2, 3, 4, 5]}
    )
    assert status == 200, body
    assert service.table.public_view() != before
    Phone(running.base).post("/api/sim/button", {"button": "BACK", "hold": True})

    def game_part(view: dict) -> dict:  # the log also tells of the undo
        return {k: v for k, v in view.items() if k not in ("log", "log_count")}

    assert wait_for(lambda: game_part(service.table.public_view()) == game_part(before), timeout=5)
    assert service.table.public_view()["log"][-1].startswith("Undone by the host: Action dice")


def test_an_unplugged_camera_is_reported_and_manual_entry_carries_on(start_service):
    running = start_service(**{"camera.retry_after": 0.5})
    service = running.service
    to_first_roll(service.table)
    hosting = host(running.base, running.pin)
    sim = Phone(running.base)
    assert wait_for(lambda: hosting.get("/api/service/status")[1]["health"]["camera"] == "ok")
    sim.post("/api/sim/camera", {"plugged": False})
    camera_status = wait_for(
        lambda: (
            "No camera found" in (text := hosting.get("/api/service/status")[1]["health"]["camera"])
            and text
        )
    )
    assert camera_status
    assert wait_for(lambda: "No camera found" in service.panel.screen().text)  # the OLED says so
    status, body = hosting.post("/api/host/command", {"type": "dice", "values": [6, 5, 4, 3, 2]})
    assert status == 200, body
    assert not any(p.kind == "roll" for p in service.table.prompts())
    sim.post("/api/sim/camera", {"plugged": True})
    assert wait_for(lambda: hosting.get("/api/service/status")[1]["health"]["camera"] == "ok")


def test_the_host_pages_camera_picture_says_when_the_camera_is_unplugged(start_service):
    """Not the last frame shown as if live: "No camera attached" until it is back."""
    running = start_service(**{"camera.retry_after": 0.5})
    hosting = host(running.base, running.pin)
    sim = Phone(running.base)
    sim.post("/api/sim/throw", {"count": 3})
    assert wait_for(lambda: hosting.get("/api/host/camera")[1][:2] == b"\xff\xd8")  # a JPEG
    sim.post("/api/sim/camera", {"plugged": False})
    assert wait_for(lambda: b"No camera attached" in hosting.get("/api/host/camera")[1])
    for _ in range(5):  # and it stays so while unplugged
        assert b"No camera attached" in hosting.get("/api/host/camera")[1]
    sim.post("/api/sim/camera", {"plugged": True})
    assert wait_for(lambda: hosting.get("/api/host/camera")[1][:2] == b"\xff\xd8")


def test_a_full_disk_refuses_commands_clearly_and_keeps_the_log_whole(start_service, tmp_path):
    running = start_service()
    service = running.service
    to_first_roll(service.table)
    hosting = host(running.base, running.pin)
    # SQLite's own "database or disk is full" (SQLITE_FULL): the file may not grow past the
    # pages it has now, as on a disk with no room left. Set on the table's own connection.
    db = service.table._store._db
    db.execute(f"PRAGMA max_page_count={db.execute('PRAGMA page_count').fetchone()[0]}")
    for _ in range(50):  # a few commands may still fit into free space on the last pages
        version, view = service.table.version, service.table.public_view()
        status, body = hosting.post(
            "/api/host/command", {"type": "dice", "values": [1, 2, 3, 4, 5]}
        )
        if status != 200:
            break
        version, view = service.table.version, service.table.public_view()
        status, body = hosting.post("/api/host/undo")  # its marker and log line need room too
        if status != 200:
            break
    assert status == 409, "the disk never filled up"
    assert "is full" in body["error"] and "Nothing changed" in body["error"], body
    assert service.table.version == version and service.table.public_view() == view
    db.execute("PRAGMA max_page_count=1073741823")  # room again: the same command goes through
    if not any(p.kind == "roll" for p in service.table.prompts()):  # it was the undo
        assert hosting.post("/api/host/undo")[0] == 200
    status, body = hosting.post("/api/host/command", {"type": "dice", "values": [1, 2, 3, 4, 5]})
    assert status == 200, body
    final_version, final_view = service.table.version, service.table.public_view()
    service.stop()
    running.thread.join(15)
    log = tmp_path / "data" / "events.sqlite"
    with sqlite3.connect(log) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with Table.open(log) as reopened:
        assert reopened.version == final_version
        assert reopened.public_view() == final_view


def test_a_display_that_fails_leaves_the_table_running(start_service, monkeypatch, caplog):
    from hardware.display import DisplayError, FrameSink

    def broken(self, image):
        raise DisplayError("Writing to the display failed ([Errno 121] Remote I/O error)")

    monkeypatch.setattr("companion.runtime.service.DISPLAY_RETRY_S", 0.2)
    running = start_service()
    service = running.service
    hosting = host(running.base, running.pin)
    assert wait_for(lambda: service.health.display == "ok")
    monkeypatch.setattr(FrameSink, "show", broken)
    to_first_roll(service.table)  # table changes make the OLED redraw, which now fails
    assert wait_for(
        lambda: "Remote I/O error" in hosting.get("/api/service/status")[1]["health"]["display"]
    )
    status, body = hosting.post("/api/host/command", {"type": "dice", "values": [1, 2, 3, 4, 5]})
    assert status == 200, body
    assert "Running on without it" in caplog.text
    monkeypatch.undo()  # the display answers again and is used
    assert wait_for(lambda: service.health.display == "ok")


def test_the_simulated_tables_controls_answer_only_on_this_machine(start_service):
    running = start_service()
    client = running.service.web.app.test_client()
    far = {"REMOTE_ADDR": "192.168.1.20"}
    assert client.get("/sim", environ_base=far).status_code == 403
    assert client.get("/api/sim/oled.png", environ_base=far).status_code == 403
    status = client.post("/api/sim/button", json={"button": "OK"}, environ_base=far).status_code
    assert status == 403
    near = {"REMOTE_ADDR": "127.0.0.1"}
    assert client.get("/sim", environ_base=near).status_code == 200
    png = wait_for(lambda: client.get("/api/sim/oled.png", environ_base=near).data)
    assert png.startswith(b"\x89PNG")  # the OLED's picture, once the first frame is drawn
    # The hardware status and the dice reading are the host's, from anywhere.
    assert client.get("/api/service/status", environ_base=near).status_code == 403
    hosting = host(running.base, running.pin)
    assert hosting.get("/api/service/status")[1]["health"]["buttons"] == "ok"


def test_the_simulated_panel_and_tray_refuse_nonsense(start_service):
    running = start_service()
    sim = Phone(running.base)
    status, body = sim.post("/api/sim/button", {"button": "SELECT"})
    assert status == 400 and "no button 'SELECT'" in body["error"]
    status, body = sim.post("/api/sim/throw", {"values": [7, 1]})
    assert status == 400 and "1 to 6" in body["error"]
    status, body = sim.post("/api/sim/throw", {"count": 40})
    assert status == 400 and "between 1 and 12" in body["error"]
    status, body = sim.post("/api/sim/camera", {"plugged": "no"})
    assert status == 400


def test_the_learned_detector_reads_the_camera_when_the_config_chooses_it(
    start_service, monkeypatch
):
    """`dice.reader = "detector"`: a throw on the simulated camera is read by the learned
    detector, and its reading waits for the table."""
    from companion.dice import learned

    frames = []
    detector_read = learned.read

    def read(frame, *args, **kwargs):
        frames.append(frame)
        return detector_read(frame, *args, **kwargs)

    monkeypatch.setattr(learned, "read", read)
    running = start_service(**{"dice.reader": "detector", "dice.auto_submit": False})
    service = running.service
    to_first_roll(service.table)
    thrown = [3, 5, 1, 6, 2]
    Phone(running.base).post("/api/sim/throw", {"values": thrown})
    pending = wait_for(lambda: service.rolls.pending)
    assert pending is not None and pending.expected == 5
    assert sorted(pending.values) == sorted(thrown)
    assert frames, "the learned detector read no frame"
