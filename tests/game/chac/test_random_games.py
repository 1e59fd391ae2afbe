"""Random legal play: invariants hold after every command, games end, folds replay exactly."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.chac import ChacGame
from companion.game.chac.invariants import check, snapshot
from companion.game.protocol import Command, RuleError
from companion.game.random_play import play_random_game, random_command

GAME = ChacGame()


def _checker():
    last = [None]

    def run(state):
        check(state, last[0])
        last[0] = snapshot(state)

    return run


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    seats=st.integers(2, 6),
    mode=st.sampled_from(["digital", "physical"]),
    min_face=st.integers(2, 4),
)
def test_random_legal_play_keeps_the_invariants_and_ends_chac_end_1(seed, seats, mode, min_face):
    """Any sequence of legal commands keeps every invariant and reaches the end (CHAC-END-1);
    every command `legal` offers is accepted by `apply`."""
    played = play_random_game(
        GAME,
        [f"P{i}" for i in range(seats)],
        seed,
        options={"treasure_mode": mode, "boulder_min_face": min_face},
        max_commands=5000,
        check=_checker(),
    )
    state = played.state
    assert GAME.is_over(state)
    assert state.result is not None
    assert GAME.prompts(state)[0].kind == "over"
    assert all(GAME.legal(state, s) == [] for s in [None, *range(seats)])


@settings(max_examples=20, deadline=None)
@given(data=st.data(), seats=st.integers(2, 6))
def test_hypothesis_chosen_command_sequences_keep_the_invariants_chac_end_1(data, seats):
    """Hypothesis picks every command among all seats' legal ones (so failures shrink to short
    sequences); every invariant holds after each, and a random finish still ends the game
    (CHAC-END-1)."""
    rng = random.Random(data.draw(st.integers(0, 2**16), label="dice seed"))
    state = GAME.setup({}, [f"P{i}" for i in range(seats)], data.draw(st.integers(0, 2**16)))
    checker = _checker()
    for _ in range(400):
        if GAME.is_over(state):
            break
        options = [c for c in GAME.legal(state, None) if c.type not in GAME.corrections]
        for seat in range(seats):
            options.extend(GAME.legal(state, seat))
        choice = options[data.draw(st.integers(0, len(options) - 1), label="command")]
        command = GAME.random_args(state, choice, rng)
        for event in GAME.apply(state, command):
            GAME.fold(state, event)
        checker(state)
    for _ in range(5000):
        if GAME.is_over(state):
            break
        for event in GAME.apply(state, random_command(GAME, state, rng, seats)):
            GAME.fold(state, event)
        checker(state)
    assert GAME.is_over(state)


def _correction(state, command: Command, rng: random.Random) -> Command:
    seats = len(state.seats)
    if command.type == "set_space":
        args = {"player": rng.randrange(seats), "to": rng.choice(state.board.spaces())}
    elif command.type == "set_boulder":
        args = {"to": rng.choice(state.board.corridor[:22])}
    else:
        args = {"planks": rng.randrange(6)}
    return Command(command.type, None, args)


@pytest.mark.parametrize("seed", range(12))
def test_host_corrections_amid_random_play_never_break_or_stall_the_game(seed):
    """Corrections at any moment (refused ones change nothing) keep the invariants, and the
    table always has a prompt and a legal command until the game ends."""
    rng = random.Random(seed)
    seats = 2 + seed % 5
    state = GAME.setup({}, [f"P{i}" for i in range(seats)], seed)
    checker = _checker()
    corrections = 0
    for _ in range(3000):
        if GAME.is_over(state):
            break
        options = [c for c in GAME.legal(state, None) if c.type != "end_game"]
        for seat in range(seats):
            options.extend(GAME.legal(state, seat))
        assert any(c.type not in GAME.corrections for c in options), GAME.prompts(state)
        assert GAME.prompts(state)
        choice = rng.choice(options)
        if choice.type in GAME.corrections:
            command = _correction(state, choice, rng)
        else:
            command = GAME.random_args(state, choice, rng)
        try:
            events = GAME.apply(state, command)
        except RuleError:
            continue
        corrections += command.type in GAME.corrections
        for event in events:
            GAME.fold(state, event)
        checker(state)
    assert GAME.is_over(state)
    assert corrections > 0


def test_corrections_wait_for_a_pending_roll():
    state = GAME.setup({}, ["a", "b"], 2)
    for s in range(2):
        for event in GAME.apply(state, GAME.legal(state, s)[0]):
            GAME.fold(state, event)
    for event in GAME.apply(state, Command("first_dicekeeper", None, {"keeper": 0})):
        GAME.fold(state, event)
    GAME.fold(state, GAME.apply(state, Command("dice", None, {"values": [6] * 5}))[0])
    for event in GAME.apply(state, Command("set_space", None, {"player": 0, "to": "C17"})):
        GAME.fold(state, event)
    for event in GAME.apply(state, Command("move", 0, {"to": "B"})):
        GAME.fold(state, event)
    try:
        GAME.apply(state, Command("set_planks", None, {"planks": 2}))
    except RuleError as exc:
        assert "Finish the roll for the bridge first" in str(exc)
    else:
        raise AssertionError("a correction in the middle of a roll was accepted")


def test_check_alone_notices_the_boulder_moving_back_chac_boul_2():
    """CHAC-BOUL-2 (the boulder never moves back) is checked across calls of check(state)."""
    state = GAME.setup({}, ["a", "b"], 1)
    state.boulder = 5
    check(state)
    state.boulder = 4
    try:
        check(state)
    except AssertionError as exc:
        assert "boulder never moves back" in str(exc)
    else:
        raise AssertionError("the boulder moved back unnoticed")


def test_invariant_check_names_the_broken_invariant():
    state = GAME.setup({}, ["a", "b"], 1)
    state.planks = 7
    try:
        check(state)
    except AssertionError as exc:
        assert "planks 0-5" in str(exc)
    else:
        raise AssertionError("a broken invariant went unnoticed")
    state = GAME.setup({}, ["a", "b"], 1)
    state.discard.append(state.decks["Z1"][-1])
    try:
        check(state)
    except AssertionError as exc:
        assert "every card in exactly one place" in str(exc)
    else:
        raise AssertionError("a card in two places went unnoticed")


def _fingerprint(state) -> str:
    views = [GAME.public_view(state)] + [GAME.seat_view(state, s) for s in range(len(state.seats))]
    return json.dumps(
        [views, state.decks, state.discard, state.alcove, state.river], sort_keys=True
    )


def test_apply_never_changes_the_state():
    rng = random.Random(4)
    state = GAME.setup({}, ["a", "b", "c"], 4)
    for _ in range(150):
        if GAME.is_over(state):
            break
        command = random_command(GAME, state, rng, 3)
        before = _fingerprint(state)
        events = GAME.apply(state, command)
        assert _fingerprint(state) == before, command
        for event in events:
            GAME.fold(state, event)


def _events_of(seed: int, seats: int = 3) -> tuple[list[Command], list[list[dict]], object]:
    rng = random.Random(seed)
    state = GAME.setup({}, [f"P{i}" for i in range(seats)], seed)
    commands, events = [], []
    while not GAME.is_over(state):
        command = random_command(GAME, state, rng, seats)
        produced = GAME.apply(state, command)
        for event in produced:
            GAME.fold(state, event)
        commands.append(command)
        events.append(json.loads(json.dumps(produced)))
    return commands, events, state


def _replay(seed: int, events: list[list[dict]], seats: int = 3):
    state = GAME.setup({}, [f"P{i}" for i in range(seats)], seed)
    for batch in events:
        for event in batch:
            GAME.fold(state, event)
    return state


def test_replaying_the_events_lands_in_the_same_state():
    _, events, live = _events_of(8)
    replayed = _replay(8, events)  # events went through JSON, as in the event log
    assert _fingerprint(replayed) == _fingerprint(live)
    assert GAME.is_over(replayed)


def test_undo_by_replay_draws_the_same_card_again():
    """The Table undoes by replaying without the last command: a card drawn again after an
    undo is the same card, because deck orders live in the state."""
    commands, events, _ = _events_of(12)
    i = next(k for k, c in enumerate(commands) if c.type == "search")
    before = _replay(12, events[:i])
    assert _fingerprint(before) == _fingerprint(_replay(12, events[:i]))
    again = GAME.apply(before, commands[i])
    assert again == events[i]
    assert again[0]["card"] == events[i][0]["card"]


JUNK = [None, -1, 99, "", "Q7", [], [None], [{"a": 1}], {"x": [1]}, 2.5, True, [7, 7], ["Z1-0"]]


@pytest.mark.parametrize("seed", range(4))
def test_malformed_commands_get_a_rule_error_and_change_nothing(seed):
    """Bad input gets a clear message and changes nothing: every command type with junk in
    every argument, at many moments of random games."""
    from companion.game.chac.rules import VALIDATORS

    rng = random.Random(seed)
    state = GAME.setup({}, ["a", "b", "c"], seed)
    keys = [
        "to",
        "number",
        "cards",
        "count",
        "dice",
        "values",
        "caskets",
        "sun",
        "player",
        "keeper",
        "adventurer",
        "space",
        "planks",
    ]
    while not GAME.is_over(state):
        before = _fingerprint(state)
        for kind in VALIDATORS:
            args = {k: rng.choice(JUNK) for k in rng.sample(keys, 3)}
            seat = rng.choice([None, 0, 1, 2, 5, -1])
            try:
                GAME.apply(state, Command(kind, seat, args))
            except RuleError as exc:
                assert str(exc)
        assert _fingerprint(state) == before
        for event in GAME.apply(state, random_command(GAME, state, rng, 3)):
            GAME.fold(state, event)
