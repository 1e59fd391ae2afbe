"""The `companion` command given bad input: one line saying what is wrong, a non-zero exit,
no traceback, and nothing written or started."""

from __future__ import annotations

import socket
import subprocess
import sys

import cv2
import numpy as np
import pytest

from companion.cli import main


@pytest.fixture
def picture(tmp_path):
    """A small rendered-looking picture of the tray, as a PNG and a JPEG."""
    image = np.full((120, 160, 3), (40, 110, 40), np.uint8)
    cv2.circle(image, (80, 60), 20, (250, 250, 250), -1)
    png, jpg = tmp_path / "tray.png", tmp_path / "tray.jpg"
    cv2.imwrite(str(png), image)
    cv2.imwrite(str(jpg), image)
    return png, jpg


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


def test_annotating_into_a_text_file_is_refused_before_reading(tmp_path, picture, capsys):
    png, _ = picture
    out = tmp_path / "out.txt"
    assert main(["dice", "read", str(png), "--annotate", str(out)]) == 2
    captured = capsys.readouterr()
    assert ".txt" in one_line(captured.err) and captured.out == ""
    assert not out.exists()


def test_annotating_into_a_missing_folder_is_refused(picture, capsys):
    png, _ = picture
    assert main(["dice", "read", str(png), "--annotate", "/nonexistent/dir/x.png"]) == 2
    captured = capsys.readouterr()
    assert "no folder /nonexistent/dir" in one_line(captured.err) and captured.out == ""


@pytest.mark.parametrize("kind", ["missing", "truncated png", "truncated jpeg", "not a picture"])
def test_an_unreadable_image_gets_one_line_and_no_opencv_warnings(tmp_path, picture, capfd, kind):
    png, jpg = picture
    bad = tmp_path / "bad.png"
    if kind == "truncated png":
        bad.write_bytes(png.read_bytes()[:-40])
    elif kind == "truncated jpeg":
        bad = tmp_path / "bad.jpg"
        bad.write_bytes(jpg.read_bytes()[: jpg.stat().st_size // 2])
    elif kind == "not a picture":
        bad.write_text("not an image")
    assert main(["dice", "read", str(bad)]) == 1
    captured = capfd.readouterr()  # the file descriptors: OpenCV and libjpeg write there
    assert one_line(captured.err).startswith(f"companion dice read: cannot read image {bad}")
    assert captured.out == ""


@pytest.mark.parametrize("count", ["0", "-3"])
def test_expecting_no_dice_or_fewer_is_refused(picture, capsys, count):
    png, _ = picture
    with pytest.raises(SystemExit) as stop:
        main(["dice", "read", str(png), "--expect", count])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"companion dice read: error: argument --expect: must be at least 1, not {count}" in err


def test_benching_a_missing_folder_fails(tmp_path, capsys):
    assert main(["dice", "bench", str(tmp_path / "missing_dir")]) == 2
    captured = capsys.readouterr()
    assert "no such folder" in one_line(captured.err) and captured.out == ""


def test_a_stray_argument_is_reported_by_the_command_it_follows(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["replay", "a.json", "b.json"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: companion replay")
    assert err.strip().endswith("companion replay: error: unrecognized arguments: b.json")


def test_a_settings_file_that_is_not_utf8_is_named(tmp_path, capsys):
    settings = tmp_path / "companion.toml"
    settings.write_bytes(b'[web]\nhost = "caf\xe9"\n')
    assert main(["run", "--config", str(settings), "--data-dir", str(tmp_path / "d")]) == 2
    line = one_line(capsys.readouterr().err)
    assert f"{settings}: not UTF-8 text" in line
    assert not (tmp_path / "d").exists()


def test_a_folder_camera_without_a_folder_is_refused(tmp_path, capsys):
    settings = tmp_path / "companion.toml"
    settings.write_text('[camera]\nkind = "folder"\n')
    assert main(["run", "--config", str(settings), "--data-dir", str(tmp_path / "d")]) == 2
    assert "camera.folder:" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "d").exists()


def run_simulated(tmp_path, *args: str) -> int:
    return main(["run", "--simulate", "--host", "127.0.0.1", *args])


def test_a_data_dir_that_is_a_file_is_named_as_the_setting(tmp_path, caplog):
    data = tmp_path / "data"
    data.write_text("")
    assert run_simulated(tmp_path, "--data-dir", str(data)) == 1
    assert f"Cannot start: data_dir: {data} is a file, not a folder" in caplog.text


def test_a_missing_dice_profile_stops_the_start(tmp_path, caplog):
    settings = tmp_path / "companion.toml"
    settings.write_text(f'[dice]\nprofile = "{tmp_path / "mine.toml"}"\n')
    data = tmp_path / "data"
    assert run_simulated(tmp_path, "--config", str(settings), "--data-dir", str(data)) == 1
    assert f"Cannot start: dice.profile: no file {tmp_path / 'mine.toml'}" in caplog.text
    assert not data.exists()


def test_a_taken_port_is_named(tmp_path, caplog):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = run_simulated(tmp_path, "--port", str(port), "--data-dir", str(tmp_path / "d"))
    assert code == 1
    assert f"Cannot start: port {port} is in use already" in caplog.text


def test_output_closed_early_is_one_line_not_a_traceback():
    """`companion simulate | head -1`: the reader is gone before the report is written."""
    child = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "simulate", "--games", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    child.stdout.close()
    err = child.stderr.read()
    assert child.wait(60) == 1
    assert one_line(err) == "companion simulate: write error: Broken pipe"
