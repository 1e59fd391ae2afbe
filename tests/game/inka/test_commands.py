"""Inka from the shell: `companion replay` of the examples and rule scenarios, and
`companion simulate --game inka`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.game.inka import simulation

EXAMPLES_DIR = Path(__file__).resolve().parents[3] / "examples" / "inka"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.json")) + sorted(EXAMPLES_DIR.glob("rules/*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_replays_as_it_says(path, capsys):
    """The rule scenarios carry their rule ID in their name: INKA-TURN-1 (a fourth point, the
    blocking counter on a target tile, the free-order option), INKA-STAT-1, INKA-END-1."""
    expect = json.loads(path.read_text())["expect"]
    code = main(["replay", str(path)])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    if expect["rejected"] is None:
        assert code == 0, captured.err
        assert "rejected" not in report
    else:
        assert code == 1
        assert report["rejected"]["index"] == expect["rejected"]["index"]
        assert report["rejected"]["rule"] == expect["rejected"]["rule"]
        assert path.stem.startswith(expect["rejected"]["rule"])
        assert f"command {expect['rejected']['index']} rejected" in captured.err
    assert report["over"] is expect["over"]
    for key, value in expect["public_view"].items():
        assert report["public_view"][key] == value, key


def test_the_complete_example_is_a_three_player_game_won_by_an_exit_inka_end_1(capsys):
    assert main(["replay", str(EXAMPLES_DIR / "complete-game.json")]) == 0
    report = json.loads(capsys.readouterr().out)
    view = report["public_view"]
    assert len(view["seats"]) == 3 and view["result"] == {"winner": 1}
    assert [s["statues"] for s in view["seats"]] == [2, 3, 2]
    assert report["prompts"][0]["text"] == "Game over: Ben wins, out of the temple with 3 statues."


def test_simulate_game_inka_plays_whole_games_and_reports(capsys):
    assert main(["simulate", "--game", "inka", "--games", "30", "--seed", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "inka" and report["games"] == 30
    assert sum(report["players"].values()) == 30 and set(report["players"]) <= {"2", "3", "4"}
    assert sum(report["wins_by_turn_order"].values()) == 30
    assert report["turns"]["min"] >= 1 and report["points_spent"]["statue"] >= 3 * 30
    assert main(["simulate", "--game", "inka", "--games", "3", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 games of Inka in ") and "players: 4: 3 games" in out


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--players", "5"], "Inka takes 2 to 4 players"),
        (["--option", "mode=coop"], "Inka has no option 'mode'"),
    ],
)
def test_simulate_game_inka_refuses_what_inka_does_not_have(extra, message, capsys):
    assert main(["simulate", "--game", "inka", *extra]) == 2
    assert message in capsys.readouterr().err


def test_simulate_names_the_seed_of_a_game_that_breaks_an_invariant(capsys, monkeypatch):
    def strict(state, before=None):
        if state.turn_number >= 2:
            raise AssertionError("invariant 'one turn only' broken")

    monkeypatch.setattr(simulation.invariants, "check", strict)
    assert (
        main(["simulate", "--game", "inka", "--games", "2", "--seed", "7", "--players", "3"]) == 1
    )
    assert "seed 7 (3 players)" in capsys.readouterr().err
