"""Temple of Chac through the Table and the `companion` game commands: examples, verify,
simulate, restart and undo on the real engine."""

import json
import random
import sqlite3
from collections import Counter
from contextlib import closing
from pathlib import Path

import pytest

from companion.cli import main
from companion.game.chac import ChacGame
from companion.game.chac.state import FATES
from companion.game.protocol import Command
from companion.game.random_play import play_random_game, random_command
from companion.game_cli import simulate
from companion.table import Table

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.json"))
COMPLETE_GAME = str(EXAMPLES_DIR / "complete-game.json")
FIRST_ROUND = str(EXAMPLES_DIR / "first-round.json")


def play_through(table: Table, shadow, count: int, rng: random.Random) -> None:
    """Random legal commands, chosen on a shadow state kept in step with the table."""
    game = ChacGame()
    for _ in range(count):
        if game.is_over(shadow[0]):
            return
        command = random_command(game, shadow[0], rng)
        assert table.submit(command).ok
        for event in game.apply(shadow[0], command):
            shadow[0] = game.fold(shadow[0], event)


def all_views(table: Table) -> tuple:
    return table.public_view(), [table.seat_view(s) for s in range(len(table.seats))]


def game_views_of(views: tuple) -> tuple:
    """Views without their log, which also tells of undos."""

    def strip(view: dict) -> dict:
        return {k: v for k, v in view.items() if k not in ("log", "log_count")}

    public, seats = views
    return strip(public), [strip(v) for v in seats]


def game_views(table: Table) -> tuple:
    return game_views_of(all_views(table))


def log_entries(db: Path) -> int:
    with closing(sqlite3.connect(db)) as raw:
        return raw.execute("SELECT count(*) FROM log").fetchone()[0]


def test_there_are_clean_and_rejected_examples():
    results = [json.loads(p.read_text())["expect"]["rejected"] for p in EXAMPLES]
    assert sum(r is None for r in results) >= 2 and any(results)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_replays_as_it_says(path, capsys):
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
        assert f"command {expect['rejected']['index']} rejected" in captured.err
    assert report["over"] is expect["over"]
    for key, value in expect["public_view"].items():
        assert report["public_view"][key] == value, key


def test_simulate_plays_whole_games_and_reports(capsys):
    assert main(["simulate", "--games", "4", "--seed", "100", "--players", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 4 and report["players"] == {"3": 4}
    assert report["rounds"]["min"] >= 1 and report["commands_per_game"] > 10
    # Every adventurer in play ends eliminated or escaped: at least one of each player's.
    assert sum(report["eliminations"].values()) + report["escapes"] >= 4 * 3
    assert report["games_per_second"] > 0
    assert set(report["eliminations"]) <= set(FATES) - {"escaped"}


def test_simulate_counts_eliminations_by_the_adventurers_fates():
    """Each game's eliminations are tallied by how the adventurers left play."""
    expected: Counter[str] = Counter()
    escapes = 0
    for seed in range(30, 36):
        played = play_random_game(ChacGame(), ["A", "B", "C", "D"], seed)
        for seat in played.state.seats:
            for adv in seat.advs:
                if adv.status == "eliminated":
                    expected[adv.fate] += 1
                escapes += adv.status == "escaped"
    report = simulate(6, 30, players=4)
    assert report.stats.eliminations == expected and report.stats.escapes == escapes
    assert sum(expected.values()) >= 6


def test_simulate_names_the_seed_of_a_game_that_breaks_an_invariant(capsys, monkeypatch):
    from companion.game.chac import invariants

    def strict(state, before=None):
        if state.round >= 2:
            raise AssertionError("invariant 'round one only' broken")

    monkeypatch.setattr(invariants, "check", strict)
    assert main(["simulate", "--games", "2", "--seed", "7", "--players", "2"]) == 1
    assert "seed 7 (2 players)" in capsys.readouterr().err


def test_a_chac_table_restarts_to_the_same_views(tmp_path):
    rng = random.Random(11)
    with Table.open(tmp_path / "log.db") as table:
        table.new_game("chac", {}, ["Ana", "Ben", "Cy"], seed=11)
        shadow = [ChacGame().setup({}, ["Ana", "Ben", "Cy"], 11)]
        play_through(table, shadow, 60, rng)
        assert table.public_view() == ChacGame().public_view(shadow[0])
        before = all_views(table)
    with Table.open(tmp_path / "log.db") as again:
        assert all_views(again) == before


def test_a_card_searched_again_after_undo_is_the_same_card(tmp_path):
    """CHAC-WALLS-1: search draws the top card of the zone deck; undo puts it back on top."""
    path = Path(FIRST_ROUND)
    scenario = json.loads(path.read_text())
    with Table.open(tmp_path / "log.db") as table:
        table.new_game("chac", {}, scenario["seats"], scenario["seed"])
        for raw in scenario["commands"][:5]:  # up to Lea standing in zone 1
            assert table.submit(Command.from_json(raw)).ok
        before = all_views(table)
        assert table.submit(Command("search", 0)).ok
        card = table.seat_view(0)["you"]["cards"]
        assert len(card) == 1
        assert table.undo().ok
        assert game_views(table) == game_views_of(before)  # all but the log's undo line
        assert (
            table.public_view()["log"][-1]
            == "Undone by the host: Lea searches zone 1 and draws a card."
        )
        assert table.submit(Command("search", 0)).ok
        assert table.seat_view(0)["you"]["cards"] == card


def test_a_move_out_of_turn_changes_nothing_at_the_table(tmp_path):
    """CHAC-ACT-2: Ben may not move during Lea's turn; views and log stay as they were."""
    scenario = json.loads(Path(FIRST_ROUND).read_text())
    db = tmp_path / "log.db"
    with Table.open(db) as table:
        table.new_game("chac", {}, scenario["seats"], scenario["seed"])
        for raw in scenario["commands"][:6]:
            assert table.submit(Command.from_json(raw)).ok
        before, version = all_views(table), table.version
        rows = log_entries(db)
        outcome = table.submit(Command("move", 1, {"to": "Z1"}))
        assert not outcome.ok and outcome.rule == "CHAC-ACT-2"
        assert outcome.reason.endswith("(CHAC-ACT-2)") and outcome.version == version
        assert all_views(table) == before and table.version == version
        assert log_entries(db) == rows
