"""`companion replay` on the tiny test game: output, rejection, bad files, a kept log."""

import json

from companion.cli import main
from companion.table import Table


def scenario(tmp_path, commands, **extra):
    data = {"game": "tiny", "options": {"cards": 6}, "seats": ["Ana", "Ben"], "seed": 7}
    data.update(extra, commands=commands)
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data))
    return path


def test_replay_prints_the_final_public_view_and_prompts(tmp_path, capsys):
    path = scenario(
        tmp_path,
        [
            {"type": "draw", "seat": 0},
            {"type": "roll", "seat": 1},
            {"type": "dice", "seat": None, "values": [6, 5]},
        ],
    )
    assert main(["replay", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["applied"] == 3 and report["over"] is False
    assert report["public_view"]["scores"] == [0, 11]
    assert report["public_view"]["hand_sizes"] == [1, 0]
    assert report["prompts"] == [
        {"text": "Draw, roll or pass.", "kind": "act", "seat": 0, "dice": 0, "purpose": ""}
    ]
    assert "seat_views" not in report and "rejected" not in report


def test_replay_of_a_rejected_command_names_its_index_and_reason(tmp_path, capsys):
    """TINY-TURN-1: the second draw by seat 0 is out of turn."""
    path = scenario(tmp_path, [{"type": "draw", "seat": 0}, {"type": "draw", "seat": 0}])
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert "command 1 rejected: It is not your turn. (TINY-TURN-1)" in captured.err
    report = json.loads(captured.out)
    assert report["rejected"]["index"] == 1 and report["rejected"]["rule"] == "TINY-TURN-1"
    assert report["applied"] == 1 and report["public_view"]["hand_sizes"] == [1, 0]


def test_replay_undo_in_a_scenario_reverts_the_command_before_it(tmp_path, capsys):
    path = scenario(
        tmp_path, [{"type": "draw", "seat": 0}, {"type": "undo"}, {"type": "pass", "seat": 0}]
    )
    assert main(["replay", str(path), "--seat-views"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["public_view"]["hand_sizes"] == [0, 0]
    assert report["public_view"]["turn"] == 1
    assert [v["hand"] for v in report["seat_views"]] == [[], []]


def test_replay_refuses_a_file_that_is_not_a_scenario(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"game": "tiny", "seats": "Ana"')
    assert main(["replay", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    path.write_text('{"game": "tiny", "seats": "Ana", "seed": 1}')
    assert main(["replay", str(path)]) == 2
    assert '"seats" must be a list' in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "absent.json")]) == 2
    assert "Cannot read" in capsys.readouterr().err


def test_replay_with_a_bad_setup_says_so(tmp_path, capsys):
    """TINY-SET-1: five players are too many."""
    path = scenario(tmp_path, [], seats=["A", "B", "C", "D", "E"])
    assert main(["replay", str(path)]) == 1
    assert "setup rejected: The tiny game takes 1 to 4 players. (TINY-SET-1)" in (
        capsys.readouterr().err
    )


def test_replay_into_a_log_file_restarts_to_the_same_view(tmp_path, capsys):
    path = scenario(tmp_path, [{"type": "draw", "seat": 0}, {"type": "pass", "seat": 1}])
    db = tmp_path / "game.db"
    assert main(["replay", str(path), "--db", str(db)]) == 0
    report = json.loads(capsys.readouterr().out)
    with Table.open(db) as table:
        assert table.public_view() == report["public_view"]
        assert table.version == report["version"]
