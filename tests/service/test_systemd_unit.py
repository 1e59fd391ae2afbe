"""The unit file: systemd accepts every line, and the sandbox is tight."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).parents[2] / "systemd" / "chac-companion.service"

pytestmark = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (.ci/run installs the systemd package)",
)


@pytest.fixture
def unit_copy(tmp_path):
    """The unit with ExecStart pointing at a binary that exists here (verify insists on it)."""
    text = UNIT.read_text()
    text, count = re.subn(r"^ExecStart=\S+", "ExecStart=/usr/bin/env", text, flags=re.MULTILINE)
    assert count == 1
    path = tmp_path / UNIT.name
    path.write_text(text)
    return path


def test_systemd_analyze_verify_has_nothing_to_say(unit_copy):
    # verify exits 0 even on misspelled keys; any output at all is a problem.
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit_copy)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0
    assert result.stdout + result.stderr == ""


def test_exposure_score_is_low(unit_copy):
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(unit_copy)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for \S+: ([\d.]+)", result.stdout)
    assert match, result.stdout + result.stderr
    score = float(match.group(1))
    print(f"systemd exposure score: {score}")
    assert score < 5.0


def test_unit_keeps_the_settings_the_hardware_needs():
    text = UNIT.read_text()
    lines = set(text.splitlines())
    for needed in (
        "Type=notify",
        "Restart=on-failure",
        "ProtectSystem=strict",
        "ReadWritePaths=%S/chac-companion",
        "StateDirectory=chac-companion",
        "RuntimeDirectory=chac-companion",
        "PrivateTmp=yes",
        "NoNewPrivileges=yes",
        "SupplementaryGroups=gpio i2c video",
        "Environment=LG_WD=%t/chac-companion",
    ):
        assert needed in lines, needed
    assert re.search(r"^WatchdogSec=\d+$", text, flags=re.MULTILINE)
    assert re.search(r"^User=(?!root)\w+", text, flags=re.MULTILINE)
    # /dev must stay visible: GPIO, I2C and the camera live there.
    assert not re.search(r"^PrivateDevices=", text, flags=re.MULTILINE)
