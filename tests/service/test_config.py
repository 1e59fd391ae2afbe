"""Settings: defaults in one place, a file says what differs, mistakes name their key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import config
from companion.config import Config, ConfigError

EXAMPLE = Path(__file__).parents[2] / "systemd" / "companion.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return path


def test_no_file_gives_the_documented_defaults():
    cfg = config.load()
    assert cfg == Config()
    assert cfg.web.port == 8080
    assert cfg.display.address == 0x3C
    assert cfg.hardware == "auto"


def test_default_web_threads_serve_twelve_phones_the_host_and_the_table_at_once():
    # The web server admits threads - 16 event streams (16 workers stay free for requests).
    streams = 12 + 2
    assert config.load().web.threads - 16 >= streams
    assert "one thread writes them all" in config.documented_keys()["web.threads"].lower()


def test_a_display_turned_upside_down_is_accepted(tmp_path):
    assert config.load(write(tmp_path, "[display]\nrotation = 2\n")).display.rotation == 2


def test_a_file_changes_only_what_it_names(tmp_path):
    cfg = config.load(
        write(
            tmp_path,
            'hardware = "sim"\n[display]\naddress = 0x3d\n[camera]\nresolution = [640, 480]\n',
        )
    )
    assert cfg.hardware == "sim"
    assert cfg.display.address == 0x3D
    assert cfg.camera.resolution == (640, 480)
    assert cfg.display.driver == "ssd1306"  # untouched default
    assert cfg.web == Config().web


def test_a_misspelled_key_stops_the_start_and_suggests_the_right_one(tmp_path):
    with pytest.raises(
        ConfigError, match=re.escape("display.adress: unknown key (did you mean address?)")
    ):
        config.load(write(tmp_path, "[display]\nadress = 0x3c\n"))


def test_an_unknown_section_is_named(tmp_path):
    with pytest.raises(ConfigError, match=re.escape("camra: unknown key (did you mean camera?)")):
        config.load(write(tmp_path, "[camra]\nkind = 'usb'\n"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[web]\nport = 70000\n", "web.port: must be between 1 and 65535, not 70000"),
        ("[web]\nport = '8080'\n", "web.port: must be a whole number"),
        ("hardware = 'raspberry'\n", "hardware: must be one of 'auto', 'pi', 'sim'"),
        ("[display]\ndriver = 'ssd1309'\n", "display.driver: must be one of"),
        ("[dice]\nreader = 'guess'\n", "dice.reader: must be one of 'pip-search', 'detector'"),
        ("[display]\nrotation = 1\n", "display.rotation: must be one of 0, 2"),
        ("[display]\nrotation = 3\n", "display.rotation: must be one of 0, 2"),
        ("[display]\nrotation = false\n", "display.rotation: must be one of 0, 2"),
        ("[mdns]\nenabled = 'yes'\n", "mdns.enabled: must be true or false"),
        ("[camera]\nresolution = [640]\n", "camera.resolution: must be a list of 2 numbers"),
        ("[buttons]\nhold_time = -1\n", "buttons.hold_time: must be between 0.1 and 10"),
        ("display = 3\n", "display: must be a table of settings"),
        ("[buttons]\nup = 6\n", "buttons.down: pin 6 is already buttons.up"),
        ("[buttons]\nok = 3\n", "buttons.ok: pin 3 carries the display's I2C bus"),
        ("[web\nport = 1\n", "not valid TOML"),
    ],
)
def test_a_bad_value_names_its_key(tmp_path, text, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        config.load(write(tmp_path, text))


def test_a_missing_file_is_reported(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the settings file"):
        config.load(tmp_path / "nope.toml")


def test_command_line_overrides_win_over_the_file_and_are_checked(tmp_path):
    path = write(tmp_path, "[web]\nport = 9000\n")
    assert config.load(path, {"web.port": 9100, "hardware": "sim"}).web.port == 9100
    with pytest.raises(ConfigError, match=re.escape("web.port")):
        config.load(path, {"web.port": 0})


def test_data_dir_comes_from_systemd_state_directory_when_not_set(monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/chac-companion")
    assert config.load().resolved_data_dir() == Path("/var/lib/chac-companion")
    assert config.load(overrides={"data_dir": "/srv/x"}).resolved_data_dir() == Path("/srv/x")
    monkeypatch.delenv("STATE_DIRECTORY")
    assert config.load().resolved_data_dir() == Path("var")


def test_the_example_file_documents_every_key_with_its_default(tmp_path):
    text = EXAMPLE.read_text()
    uncommented = re.sub(r"^# (\w+ = )", r"\1", text, flags=re.MULTILINE)
    assert config.load(write(tmp_path, uncommented)) == Config()
    sections = re.split(r"^\[(\w+)\]$", uncommented, flags=re.MULTILINE)
    shown = {m for m in re.findall(r"^(\w+) = ", sections[0], flags=re.MULTILINE)}
    for name, body in zip(sections[1::2], sections[2::2], strict=True):
        shown |= {f"{name}.{m}" for m in re.findall(r"^(\w+) = ", body, flags=re.MULTILINE)}
    assert shown == set(config.documented_keys())


def test_raspberry_pi_detection_reads_the_device_tree_model(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert config.is_raspberry_pi(str(model))
    model.write_bytes(b"Generic x86 board\0")
    assert not config.is_raspberry_pi(str(model))
    assert not config.is_raspberry_pi(str(tmp_path / "missing"))
