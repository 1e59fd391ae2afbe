"""`companion verify LOG --commitment C` (CHAC-FAIR-1): a finished game is checked against the
commitment the table showed at setup, never against what the log says of itself."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from companion.cli import main
from companion.game.chac.game import new_state

EXAMPLES_DIR = Path(__file__).resolve().parents[3] / "examples"
COMPLETE_GAME = EXAMPLES_DIR / "complete-game.json"
FIRST_ROUND = EXAMPLES_DIR / "first-round.json"


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    """A finished game's log and the commitment the table showed at its setup."""
    db = tmp_path_factory.mktemp("verify") / "game.db"
    assert main(["replay", str(COMPLETE_GAME), "--db", str(db)]) == 0
    scenario = json.loads(COMPLETE_GAME.read_text())
    shown = new_state({}, scenario["seats"], scenario["seed"]).commitment
    return db, shown


@pytest.fixture
def log_copy(honest, tmp_path):
    db, shown = honest
    copy = tmp_path / "copy.db"
    shutil.copy(db, copy)
    return copy, shown


def sql(db: Path, statement: str, *params) -> list:
    with closing(sqlite3.connect(db)) as raw, raw:
        return raw.execute(statement, params).fetchall()


def verify(db: Path, commitment: str, capsys) -> tuple[int, str]:
    code = main(["verify", str(db), "--commitment", commitment])
    out = capsys.readouterr()
    return code, (out.out + out.err).strip()


def test_an_honest_game_passes_whole_or_first_16_digits_chac_fair_1(honest, capsys):
    """CHAC-FAIR-1: the reveal hashes to the commitment and every card drawn, wall card turned
    and casket scored replays from it."""
    db, shown = honest
    for noted in (shown, shown[:16], shown.upper()):
        code, said = verify(db, noted, capsys)
        assert code == 0, said
        assert said.startswith("ok: game 1 (chac, Ana, Ben): the reveal hashes to the commitment")
        assert "all from the revealed state" in said and "1 caskets scored" in said


def test_the_commitment_is_required_chac_fair_1(honest, capsys):
    """CHAC-FAIR-1: a log cannot vouch for itself: without the commitment nothing is checked."""
    db, _ = honest
    with pytest.raises(SystemExit) as exit_:
        main(["verify", str(db)])
    assert exit_.value.code == 2
    assert "--commitment" in capsys.readouterr().err


def test_a_wrong_commitment_fails_chac_fair_1(honest, capsys):
    """CHAC-FAIR-1: a commitment other than the one the table showed fails in one line."""
    db, shown = honest
    other = ("0" if shown[0] != "0" else "1") + shown[1:]
    code, said = verify(db, other, capsys)
    assert code == 1 and said.startswith("MISMATCH:") and "\n" not in said
    assert "commitment" in said


@pytest.mark.parametrize("seed", ["209", "1", "999999"])
def test_a_changed_seed_fails_without_a_traceback_chac_fair_1(log_copy, capsys, seed):
    """CHAC-FAIR-1: a log whose seed was changed no longer hashes to the commitment."""
    db, shown = log_copy
    sql(db, "UPDATE games SET seed = ?", seed)
    code, said = verify(db, shown, capsys)
    assert code == 1 and said.startswith("MISMATCH:") and "\n" not in said
    assert "seed" in said and "Traceback" not in said


def _draw_events(db: Path) -> list[tuple[int, int, dict]]:
    rows = sql(db, "SELECT log_id, idx, event FROM events ORDER BY log_id, idx")
    return [
        (log_id, idx, e)
        for log_id, idx, text in rows
        if (e := json.loads(text))["type"] in ("searched", "took_treasure")
    ]


def _rewrite(db: Path, log_id: int, idx: int, event: dict) -> None:
    sql(
        db,
        "UPDATE events SET event = ? WHERE log_id = ? AND idx = ?",
        json.dumps(event),
        log_id,
        idx,
    )


def test_a_changed_drawn_card_fails_chac_fair_1(log_copy, capsys):
    """CHAC-FAIR-1: a drawn card the revealed deck order does not give is caught."""
    db, shown = log_copy
    log_id, idx, event = _draw_events(db)[0]
    deck = event["card"].split("-")[0]
    _rewrite(db, log_id, idx, {**event, "card": f"{deck}-7"})
    code, said = verify(db, shown, capsys)
    assert code == 1 and "\n" not in said
    assert f"the log records {event['type']} with card '{deck}-7'" in said
    assert repr(event["card"]) in said


def test_a_changed_casket_fails_chac_fair_1(log_copy, capsys):
    """CHAC-FAIR-1: the casket that was scored, swapped in the log for another card (or another
    card swapped for a casket), is caught: its value comes from the revealed state only."""
    db, shown = log_copy
    scenario = json.loads(COMPLETE_GAME.read_text())
    values = new_state({}, scenario["seats"], scenario["seed"]).values
    log_id, idx, event = next(d for d in _draw_events(db) if values[d[2]["card"]] == "casket")
    deck = event["deck"]
    drawn = {d[2]["card"] for d in _draw_events(db)}
    other = next(
        c
        for c, v in values.items()
        if c.startswith(f"{deck}-") and v != "casket" and c not in drawn
    )
    _rewrite(db, log_id, idx, {**event, "card": other})
    code, said = verify(db, shown, capsys)
    assert code == 1 and said.startswith("MISMATCH:") and repr(other) in said


def test_an_unfinished_game_and_a_non_log_are_told_apart_chac_fair_1(tmp_path, capsys):
    """CHAC-FAIR-1: nothing is revealed before the end; a file that is not a log is said so."""
    db = tmp_path / "game.db"
    assert main(["replay", str(FIRST_ROUND), "--db", str(db)]) == 0
    capsys.readouterr()
    scenario = json.loads(FIRST_ROUND.read_text())
    shown = new_state({}, scenario["seats"], scenario["seed"]).commitment
    code, said = verify(db, shown, capsys)
    assert code == 3 and "not finished" in said
    code, said = verify(FIRST_ROUND, shown, capsys)
    assert code == 4 and "not a log file" in said


def test_the_receipt_file_serves_as_the_commitment_chac_fair_1(honest, tmp_path, capsys):
    """CHAC-FAIR-1: the receipt the host page offers at setup is accepted as the commitment."""
    db, shown = honest
    receipt = tmp_path / "receipt.txt"
    receipt.write_text(f"Temple of Chac\nCommitment (SHA-256):\n{shown}\n")
    code, said = verify(db, str(receipt), capsys)
    assert code == 0, said
    code, said = verify(db, str(tmp_path / "absent.txt"), capsys)
    assert code == 2 and "neither a commitment" in said
