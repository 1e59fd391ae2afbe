"""The Table: restart, rejection, undo and subscribers, on the tiny test game."""

import random
import sqlite3
import threading

import pytest
from tinygame import TinyGame, random_command

from companion.game.protocol import Command
from companion.store import Store
from companion.table import Table


def views(table: Table) -> tuple:
    seats = range(len(table.seats))
    return (
        table.version,
        table.public_view(),
        [table.seat_view(s) for s in seats],
        [p.to_json() for p in table.prompts()],
    )


def log_rows(path) -> list:
    db = sqlite3.connect(path)
    rows = db.execute("SELECT * FROM log ORDER BY id").fetchall()
    rows += db.execute("SELECT * FROM events ORDER BY log_id, idx").fetchall()
    db.close()
    return rows


def play_randomly(table: Table, count: int, rng: random.Random) -> list[Command]:
    game = TinyGame()
    played = []
    for _ in range(count):
        if table.is_over():
            break
        command = random_command(game, table._live.state, rng)
        assert table.submit(command).ok
        played.append(command)
    return played


@pytest.fixture
def table(tmp_path):
    table = Table.open(tmp_path / "log.db")
    table.new_game("tiny", {"cards": 12}, ["Ana", "Ben", "Cy"], seed=42)
    yield table
    table.close()


def test_a_table_without_a_game_says_so(tmp_path):
    with Table.open(tmp_path / "log.db") as table:
        assert not table.has_game and table.game_name is None
        assert table.public_view() == {"game": None}
        assert table.prompts() == [] and table.legal(0) == []
        outcome = table.submit(Command("pass", 0))
        assert not outcome.ok and "No game" in outcome.reason
        assert not table.undo().ok


def test_restart_replays_the_log_to_the_same_views(table, tmp_path):
    play_randomly(table, 40, random.Random(1))
    table.undo()
    play_randomly(table, 5, random.Random(2))
    before = views(table)
    table.close()
    with Table.open(tmp_path / "log.db") as again:
        assert again.has_game and again.game_name == "tiny"
        assert views(again) == before


def test_the_log_replays_the_same_from_the_commands_alone(table, tmp_path):
    """Folding the stored events and re-applying the stored commands agree."""
    play_randomly(table, 30, random.Random(3))
    store = Store(tmp_path / "log.db", readonly=True)
    record = store.current_game()
    game = TinyGame()
    state = game.setup(record.options, record.seats, record.seed)
    for entry in store.active_commands(record.id):
        events = game.apply(state, Command.from_json(entry.command))
        assert events == entry.events
        for event in events:
            state = game.fold(state, event)
    store.close()
    assert game.public_view(state) == table.public_view()


def test_a_rejected_command_names_the_rule_and_changes_nothing(table, tmp_path):
    """TINY-TURN-1: a seat out of turn is refused; views and log stay as they were."""
    table.submit(Command("draw", 0))
    before, rows = views(table), log_rows(tmp_path / "log.db")
    outcome = table.submit(Command("draw", 0))
    assert not outcome.ok
    assert outcome.rule == "TINY-TURN-1"
    assert outcome.reason == "It is not your turn. (TINY-TURN-1)"
    assert outcome.version == before[0]
    assert views(table) == before
    assert log_rows(tmp_path / "log.db") == rows


def test_malformed_commands_are_refused_and_change_nothing(table, tmp_path):
    """TINY-ROLL-1: dice outside 1-6 are refused; an unknown command names no rule."""
    before, rows = views(table), log_rows(tmp_path / "log.db")
    outcome = table.submit(Command("dance", 0))
    assert not outcome.ok and outcome.rule == "" and "Unknown command" in outcome.reason
    table.submit(Command("roll", 0))
    before, rows = views(table), log_rows(tmp_path / "log.db")
    outcome = table.submit(Command("dice", None, {"values": [7, 1]}))
    assert not outcome.ok and outcome.rule == "TINY-ROLL-1"
    assert views(table) == before and log_rows(tmp_path / "log.db") == rows


def test_an_engine_fault_is_refused_and_changes_nothing(table, tmp_path, monkeypatch):
    before, rows = views(table), log_rows(tmp_path / "log.db")

    def broken_apply(self, state, command):
        raise KeyError("hand")

    monkeypatch.setattr(TinyGame, "apply", broken_apply)
    outcome = table.submit(Command("draw", 0))
    assert not outcome.ok and "could not handle" in outcome.reason
    assert views(table) == before and log_rows(tmp_path / "log.db") == rows


def test_a_fold_fault_leaves_state_and_log_untouched(table, tmp_path, monkeypatch):
    table.submit(Command("draw", 0))
    before, rows = views(table), log_rows(tmp_path / "log.db")
    real_fold = TinyGame.fold

    def fold_then_fail(self, state, event):
        real_fold(self, state, event)  # the in-place change happens, then the fault
        if event["type"] == "drew" and event["seat"] == 1:
            raise RuntimeError("fold failed")
        return state

    monkeypatch.setattr(TinyGame, "fold", fold_then_fail)
    with pytest.raises(RuntimeError):
        table.submit(Command("draw", 1))
    monkeypatch.setattr(TinyGame, "fold", real_fold)
    assert views(table) == before and log_rows(tmp_path / "log.db") == rows


def test_undo_reverts_the_last_command_exactly(table):
    table.submit(Command("draw", 0))
    before = views(table)
    drawn = table.submit(Command("draw", 1))
    assert drawn.ok
    card = table.seat_view(1)["hand"][-1]
    undone = table.undo()
    assert undone.ok and undone.version > drawn.version
    assert views(table)[1:] == before[1:]
    assert table.seat_view(1)["hand"] == []
    table.submit(Command("draw", 1))
    assert table.seat_view(1)["hand"] == [card], "a card drawn again is the same card"


def test_repeated_undos_walk_back_to_the_setup(table):
    start = views(table)[1:]
    rng = random.Random(5)
    snapshots = []
    for _ in range(10):
        play_randomly(table, 1, rng)
        snapshots.append(views(table)[1:])
    for _ in range(len(snapshots)):
        snapshots.pop()
        assert table.undo().ok
        assert views(table)[1:] == (snapshots[-1] if snapshots else start)
    outcome = table.undo()
    assert not outcome.ok and "nothing to undo" in outcome.reason.lower()


def test_undo_survives_a_restart(table, tmp_path):
    play_randomly(table, 8, random.Random(6))
    table.undo()
    table.undo()
    before = views(table)
    table.close()
    with Table.open(tmp_path / "log.db") as again:
        assert views(again) == before


def test_a_bad_setup_is_refused_with_its_rule(tmp_path):
    with Table.open(tmp_path / "log.db") as table:
        outcome = table.new_game("tiny", {}, [], seed=1)
        assert not outcome.ok and outcome.rule == "TINY-SET-1"
        outcome = table.new_game("snakes", {}, ["Ana"], seed=1)
        assert not outcome.ok and "Unknown game" in outcome.reason
        assert not table.has_game
        assert log_rows(tmp_path / "log.db") == []


def test_without_a_seed_each_game_deals_differently(tmp_path):
    with Table.open(tmp_path / "log.db") as table:
        hands = set()
        for _ in range(5):
            table.new_game("tiny", {"cards": 50}, ["Ana"])
            table.submit(Command("draw", 0))
            hands.add(table.seat_view(0)["hand"][0])
        assert len(hands) > 1


def test_the_seed_never_reaches_a_view(tmp_path):
    seed = 987654321987
    with Table.open(tmp_path / "log.db") as table:
        table.new_game("tiny", {}, ["Ana", "Ben"], seed=seed)
        shown = repr((table.public_view(), table.seat_view(0), table.seat_view(1)))
        assert str(seed) not in shown
        assert "seed" not in shown


def test_seat_views_keep_hands_private(table):
    table.submit(Command("draw", 0))
    card = table.seat_view(0)["hand"]
    assert card and "hand" not in table.public_view()
    assert table.seat_view(1)["hand"] == []
    with pytest.raises(ValueError):
        table.seat_view(3)


def test_subscribers_hear_of_a_change_only_once_it_is_on_disk(table, tmp_path):
    heard = []

    def listener(version):
        # A second connection sees only committed data: the entry must already be there.
        db = sqlite3.connect(tmp_path / "log.db")
        stored = db.execute("SELECT kind FROM log WHERE id = ?", (version,)).fetchone()
        db.close()
        heard.append((version, stored[0] if stored else None, table.public_view()["turn"]))

    unsubscribe = table.subscribe(listener)
    accepted = table.submit(Command("pass", 0))
    table.submit(Command("pass", 0))  # refused: not heard
    undone = table.undo()
    unsubscribe()
    table.submit(Command("pass", 0))
    assert heard == [(accepted.version, "command", 1), (undone.version, "undo", 0)]


def test_a_failing_subscriber_does_not_stop_the_others(table):
    heard = []

    def broken(version):
        raise RuntimeError("screen unplugged")

    table.subscribe(broken)
    table.subscribe(heard.append)
    assert table.submit(Command("pass", 0)).ok
    assert heard == [table.version]


def test_a_new_game_is_announced(tmp_path):
    with Table.open(tmp_path / "log.db") as table:
        heard = []
        table.subscribe(heard.append)
        outcome = table.new_game("tiny", {}, ["Ana"], seed=1)
        assert heard == [outcome.version]


def test_concurrent_submissions_are_serialised(tmp_path):
    """Four threads press buttons at once: each command is applied whole, none is lost."""
    with Table.open(tmp_path / "log.db") as table:
        table.new_game("tiny", {"cards": 500}, ["Ana", "Ben", "Cy", "Di"], seed=3)
        accepted: list[int] = []
        lock = threading.Lock()

        def press(seat):
            for _ in range(60):
                outcome = table.submit(Command("draw", seat))
                if outcome.ok:
                    with lock:
                        accepted.append(outcome.version)

        threads = [threading.Thread(target=press, args=(s,)) for s in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        hands = [table.seat_view(s)["hand"] for s in range(4)]
        assert accepted and sum(len(h) for h in hands) == len(accepted) == len(set(accepted))
        assert len({card for hand in hands for card in hand}) == len(accepted)
        before = views(table)
    with Table.open(tmp_path / "log.db") as again:
        assert views(again) == before
