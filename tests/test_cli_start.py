"""`companion COMMAND` loads what that command needs, not every command's dependencies: the
calibration tool lists every game's own steps, which means loading the games' engines."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from companion.cli import build_parser
build_parser({command!r}).parse_args({argv!r})
print(" ".join(sorted(m for m in sys.modules if m.startswith("companion.game."))))
"""


def _games_loaded(command: str | None, argv: list[str]) -> set[str]:
    code = PROBE.format(command=command, argv=argv)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_a_log_command_starts_without_loading_any_game():
    assert not _games_loaded("log", ["log", "check"])


def test_calibrate_offers_the_games_own_steps():
    assert "companion.game.chac.game" in _games_loaded("calibrate", ["calibrate", "glyphs"])


def test_an_unknown_command_is_refused_with_every_command_listed():
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "bogus"], capture_output=True, text=True
    )
    assert done.returncode == 2
    for command in ("replay", "simulate", "dice", "run", "log", "calibrate"):
        assert f"'{command}'" in done.stderr
