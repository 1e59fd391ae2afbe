"""The scenarios in examples/moctezuma/ through `companion replay`, a finished game through
`companion verify` (MOCT-FAIR-1), and `companion simulate --game moctezuma`."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from companion.cli import main
from companion.game.moctezuma.game import new_state

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "moctezuma"
SCENARIOS = sorted(EXAMPLES.rglob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_replays_as_its_file_says(path, capsys):
    """Each rule scenario (file named after its rule: MOCT-TURN-1, MOCT-MOVE-1, MOCT-RES-1,
    MOCT-EXPL-1, MOCT-EXPL-2) is refused naming that rule, nothing changed; the round and the
    complete game end as they say."""
    expect = json.loads(path.read_text())["expect"]
    code = main(["replay", str(path), "--seat-views"])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    if expect["rejected"] is None:
        assert code == 0, captured.err
    else:
        assert code == 1
        assert report["rejected"]["rule"] == expect["rejected"]["rule"]
        assert path.stem.startswith(expect["rejected"]["rule"])
        assert report["rejected"]["index"] == expect["rejected"]["index"]
    assert report["over"] is expect["over"]
    for key, value in expect["public_view"].items():
        assert report["public_view"][key] == value, key


def test_the_name_card_drawn_is_on_the_drawers_record_sheet_only_moct_expl_2(capsys):
    main(["replay", str(EXAMPLES / "rules" / "MOCT-EXPL-2-name-card.json"), "--seat-views"])
    report = json.loads(capsys.readouterr().out)
    ana, ben = report["seat_views"]
    assert ben["you"]["record"]["names"] == [{"temple": 4, "name": "Axayacatl"}]
    assert ana["you"]["record"]["names"] == [] and ana["you"]["drawn"] is None


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    db = tmp_path_factory.mktemp("verify") / "game.db"
    path = EXAMPLES / "complete-game.json"
    assert main(["replay", str(path), "--db", str(db)]) == 0
    scenario = json.loads(path.read_text())
    return db, new_state({}, scenario["seats"], scenario["seed"]).commitment


def test_verify_passes_an_honest_game_moct_fair_1(finished, capsys):
    """MOCT-FAIR-1: the reveal hashes to the commitment shown at setup and every card drawn,
    chit peeked at and chit turned replays from it."""
    db, shown = finished
    for noted in (shown, shown[:16]):
        assert main(["verify", str(db), "--commitment", noted]) == 0
        said = capsys.readouterr().out
        assert said.startswith("ok: game 1 (moctezuma, Ana, Ben): the reveal hashes")
        assert "15 chits turned, all from the revealed state" in said


def test_verify_catches_a_rewritten_draw_moct_fair_1(finished, tmp_path, capsys):
    """MOCT-FAIR-1: a log whose drawn cards were changed afterwards fails, naming the command."""
    db, shown = finished
    copy = tmp_path / "copy.db"
    copy.write_bytes(db.read_bytes())
    with closing(sqlite3.connect(copy)) as raw, raw:
        rows = raw.execute("SELECT log_id, idx, event FROM events ORDER BY log_id, idx")
        entry, idx, text = next(r for r in rows if '"explored"' in r[2])
        forged = json.loads(text)
        forged["cards"] = [5] * len(forged["cards"])
        raw.execute(
            "UPDATE events SET event = ? WHERE log_id = ? AND idx = ?",
            (json.dumps(forged), entry, idx),
        )
    assert main(["verify", str(copy), "--commitment", shown]) == 1
    said = capsys.readouterr().err
    assert said.startswith("MISMATCH:") and "explored with cards" in said
    assert main(["verify", str(db), "--commitment", "0" * 16]) == 1


def test_simulate_plays_random_moctezuma_games(capsys):
    """`companion simulate --game moctezuma` plays whole games with the invariants checked and
    reports games per second."""
    assert main(["simulate", "--game", "moctezuma", "--games", "5", "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "moctezuma" and report["games"] == 5
    assert report["games_per_second"] > 0 and sum(report["players"].values()) == 5
    assert main(["simulate", "--game", "moctezuma", "--players", "7"]) == 2
    assert "2 to 6 players" in capsys.readouterr().err
