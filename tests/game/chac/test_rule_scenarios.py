"""The rule scenarios in examples/rules/, each named after the rule it shows, replayed with
`companion replay` as a player would: each ends as its file says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

SCENARIOS = sorted((Path(__file__).resolve().parents[3] / "examples" / "rules").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_rule_scenario_replays_as_the_rulebook_says(path, capsys):
    """One scenario per corrected rule: CHAC-END-1, CHAC-BOUL-5, CHAC-ABIL-SPRINT (refused and
    with its option), CHAC-WALL-2, CHAC-MOVE-2; the file name carries the rule ID."""
    expect = json.loads(path.read_text())["expect"]
    code = main(["replay", str(path)])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    if expect["rejected"] is None:
        assert code == 0, captured.err
        assert "rejected" not in report
    else:
        assert code == 1
        assert (
            report["rejected"]["rule"]
            == expect["rejected"]["rule"]
            == path.stem[: len(expect["rejected"]["rule"])]
        )
        assert report["rejected"]["index"] == expect["rejected"]["index"]
    assert report["over"] is expect["over"]
    for key, value in expect["public_view"].items():
        assert report["public_view"][key] == value, key


def test_every_corrected_rule_has_a_scenario():
    """CHAC-END-1, CHAC-BOUL-5, CHAC-ABIL-SPRINT, CHAC-WALL-2 and CHAC-MOVE-2 each have one."""
    names = " ".join(p.stem for p in SCENARIOS)
    for rule in ("CHAC-END-1", "CHAC-BOUL-5", "CHAC-ABIL-SPRINT", "CHAC-WALL-2", "CHAC-MOVE-2"):
        assert rule in names, rule
