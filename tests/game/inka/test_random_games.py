"""Random legal play: invariants hold after every command, games end with a winner, folds
replay exactly, and junk commands change nothing."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.inka import InkaGame
from companion.game.inka.invariants import check, snapshot
from companion.game.inka.rules import VALIDATORS
from companion.game.protocol import Command, RuleError
from companion.game.random_play import play_random_game, random_command

GAME = InkaGame()


def _checker():
    last = [None]

    def run(state):
        check(state, last[0])
        last[0] = snapshot(state)

    return run


def _fingerprint(state) -> str:
    views = [GAME.public_view(state)] + [GAME.seat_view(state, s) for s in range(len(state.seats))]
    return json.dumps(views, sort_keys=True)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4), strict=st.booleans())
def test_random_legal_play_keeps_the_invariants_and_ends_with_a_winner_inka_end_1(
    seed, seats, strict
):
    """Any sequence of legal commands keeps every invariant and ends when a player with three
    statues leaves by an exit (INKA-END-1)."""
    played = play_random_game(
        GAME,
        [f"P{i}" for i in range(seats)],
        seed,
        options={"strict_phases": strict},
        max_commands=5000,
        check=_checker(),
    )
    state = played.state
    assert GAME.is_over(state)
    assert state.seats[state.winner].statues == 3
    assert GAME.prompts(state)[0].kind == "over"
    assert all(GAME.legal(state, s) == [] for s in [None, *range(seats)])


@settings(max_examples=25, deadline=None)
@given(data=st.data(), seats=st.integers(2, 4))
def test_hypothesis_chosen_command_sequences_keep_the_invariants_inka_turn_1(data, seats):
    """Hypothesis picks each command among every seat's legal ones (failures shrink to short
    sequences): each is accepted, the invariants hold after each (INKA-TURN-1: points left and
    spent always make 3) and a prompt always says what is next."""
    state = GAME.setup({}, [f"P{i}" for i in range(seats)], 0)
    checker = _checker()
    for _ in range(300):
        if GAME.is_over(state):
            break
        assert GAME.prompts(state)
        options = list(GAME.legal(state, None))
        for seat in range(seats):
            options.extend(GAME.legal(state, seat))
        command = options[data.draw(st.integers(0, len(options) - 1), label="command")]
        for event in GAME.apply(state, command):
            GAME.fold(state, event)
        checker(state)


def test_apply_never_changes_the_state():
    rng = random.Random(4)
    state = GAME.setup({}, ["a", "b", "c"], 4)
    while not GAME.is_over(state):
        command = random_command(GAME, state, rng, 3)
        before = _fingerprint(state)
        events = GAME.apply(state, command)
        assert _fingerprint(state) == before, command
        for event in events:
            GAME.fold(state, event)


def test_replaying_the_events_lands_in_the_same_state_inka_undo_1():
    """The state is a fold of its events (through JSON, as in the log): replay is exact."""
    rng = random.Random(8)
    live = GAME.setup({}, ["a", "b", "c", "d"], 8)
    events = []
    while not GAME.is_over(live):
        produced = GAME.apply(live, random_command(GAME, live, rng, 4))
        for event in produced:
            GAME.fold(live, event)
        events.extend(json.loads(json.dumps(produced)))
    replayed = GAME.setup({}, ["a", "b", "c", "d"], 8)
    for event in events:
        GAME.fold(replayed, event)
    assert _fingerprint(replayed) == _fingerprint(live)
    assert GAME.is_over(replayed)


JUNK = [None, -1, 99, "", "target", "red", [], {"x": 1}, 2.5, True, 0, 3, "space"]


@pytest.mark.parametrize("seed", range(4))
def test_malformed_commands_get_a_rule_error_and_change_nothing(seed):
    """Bad input gets a clear message and changes nothing: every command type with junk in
    every argument, at every moment of random games."""
    rng = random.Random(seed)
    state = GAME.setup({}, ["a", "b", "c"], seed)
    keys = ["colour", "player", "count", "tile", "on"]
    while not GAME.is_over(state):
        before = _fingerprint(state)
        for kind in [*VALIDATORS, "fly"]:
            args = {k: rng.choice(JUNK) for k in rng.sample(keys, 2)}
            seat = rng.choice([None, 0, 1, 2, 5, -1, True])
            try:
                events = GAME.apply(state, Command(kind, seat, args))
            except RuleError as exc:
                assert str(exc)
            else:
                json.dumps(events)  # accepted junk is a real command, e.g. "on": "space"
        assert _fingerprint(state) == before
        for event in GAME.apply(state, random_command(GAME, state, rng, 3)):
            GAME.fold(state, event)


def test_invariant_check_names_the_broken_invariant():
    state = GAME.setup({}, ["a", "b"], 1)
    state.seats[0].statues = 4
    with pytest.raises(AssertionError, match="0-3 statues each"):
        check(state)
    state = GAME.setup({}, ["a", "b"], 1)
    check(state)
    state.tiles_left = 12
    check(state)
    state.tiles_left = 13
    with pytest.raises(AssertionError, match="placed tiles stay placed"):
        check(state)
