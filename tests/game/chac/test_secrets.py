"""No secret leaves the engine except through the view of the seat allowed to see it."""

from __future__ import annotations

import json
import random
import re

import pytest

from companion.game.chac import ChacGame
from companion.game.random_play import random_command

GAME = ChacGame()
CARD_ID = re.compile(r'"((?:Z[1-4]|L|R)-\d+|A-C\d+)"')


def _scan(state, seats: int) -> int:
    """Check every view of this state; return how many own cards the seat views showed."""
    hidden = state.hidden
    over = GAME.is_over(state)
    public = json.dumps(GAME.public_view(state))
    remaining_walls = hidden["walls"][state.wall_pos :]
    secrets = []
    if not over:
        secrets.append(json.dumps(hidden["caskets"]))
        secrets.append(state.salt)
        secrets.append(json.dumps(hidden["walls"]))
        if len(remaining_walls) > 3:
            secrets.append(json.dumps(remaining_walls))
        for name, order in hidden["decks"].items():
            left = [state.values[c] for c in reversed(state.decks[name])]
            secrets.append(json.dumps(order))
            if len(left) > 3:
                secrets.append(json.dumps(left))
    shown = 0
    for text in [public] + [json.dumps(GAME.seat_view(state, s)) for s in range(seats)]:
        for secret in secrets:
            assert secret not in text
        if not over:
            assert '"reveal": null' in text and '"hidden"' not in text
    if not over:
        assert not CARD_ID.findall(public), "the public view names no card"
    for s in range(seats):
        view = GAME.seat_view(state, s)
        text = json.dumps(view)
        own = set(state.seats[s].adv.cards) if state.seats[s].adv else set()
        named = set(CARD_ID.findall(text))
        if not over:
            assert named <= own, f"seat {s} sees cards it does not hold: {named - own}"
        shown += len(named & own)
        for other in range(seats):
            adv = state.seats[other].adv
            if other != s and adv is not None and adv.cards and not over:
                values = [{"id": c, "value": state.values[c]} for c in adv.cards]
                assert json.dumps(values) not in text
        if not state.seats[s].advs:
            for other in range(seats):
                if other != s:
                    assert json.dumps(state.seats[other].dealt) not in text
    return shown


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_views_hold_no_hidden_values_during_random_games(seed):
    seats = 2 + seed
    rng = random.Random(seed)
    state = GAME.setup({}, [f"P{i}" for i in range(seats)], seed)
    shown = 0
    while not GAME.is_over(state):
        shown += _scan(state, seats)
        for event in GAME.apply(state, random_command(GAME, state, rng, seats)):
            GAME.fold(state, event)
    _scan(state, seats)
    assert shown > 0, "the scan saw players' own cards, so it looks in the right places"
    assert json.loads(json.dumps(GAME.public_view(state)))["reveal"]["hidden"] == state.hidden


def test_physical_mode_seat_views_hold_no_card_values():
    rng = random.Random(5)
    state = GAME.setup({"treasure_mode": "physical"}, ["a", "b"], 5)
    while not GAME.is_over(state):
        for s in range(2):
            assert not CARD_ID.findall(json.dumps(GAME.seat_view(state, s)))
        for event in GAME.apply(state, random_command(GAME, state, rng, 2)):
            GAME.fold(state, event)


def test_replacement_name_is_private_until_it_comes_in():
    state = GAME.setup({}, ["a", "b"], 3)
    for s in range(2):
        for event in GAME.apply(state, GAME.legal(state, s)[0]):
            GAME.fold(state, event)
    spare0 = state.seats[0].advs[1].name
    assert spare0 not in json.dumps(GAME.public_view(state))
    assert spare0 not in json.dumps(GAME.seat_view(state, 1))
    assert spare0 in json.dumps(GAME.seat_view(state, 0))
