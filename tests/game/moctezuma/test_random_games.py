"""Random legal play: invariants after every command, games end, secrets stay in their views,
and the Table's undo and restart replay exactly."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.moctezuma.invariants import Watcher
from companion.game.protocol import Command, RuleError
from companion.game.random_play import play_random_game, random_command

from .helpers import GAME, NAMES


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    seats=st.integers(2, 6),
    options=st.fixed_dictionaries(
        {
            "carry_points": st.booleans(),
            "temple_ring": st.booleans(),
            "return_order": st.sampled_from(["drawn", "shuffled"]),
            "refund_empty_explore": st.booleans(),
            "record_sheet": st.sampled_from(["auto", "manual"]),
            "curse_rule": st.sampled_from(["majority", "majority_tie_safe", "any"]),
        }
    ),
)
def test_random_legal_play_keeps_the_invariants_and_ends_moct_end_1(seed, seats, options):
    """Any sequence of legal commands keeps every invariant (cards conserved, no name card
    kept, a chit a round) and ends after the 15th chit (MOCT-END-1); every command `legal`
    offers is accepted by `apply`."""
    played = play_random_game(GAME, NAMES[:seats], seed, options, check=Watcher())
    state = played.state
    assert GAME.is_over(state) and state.turned == 15 and state.round == 15
    assert len(state.result["scores"]) == seats
    assert all(GAME.legal(state, s) == [] for s in [None, *range(seats)])


JUNK = [None, -1, 99, "", "x", [], [None], [0, 0], [1, 2, 3, 4, 5, 6], {"a": 1}, 2.5, True]


@pytest.mark.parametrize("seed", range(3))
def test_malformed_commands_get_a_rule_error_and_change_nothing(seed):
    """Bad input gets a clear message and changes nothing, at every moment of random games."""
    rng = random.Random(seed)
    state = GAME.setup({}, NAMES[:3], seed)
    kinds = ["move", "research", "explore", "keep", "end_turn", "note", "place", "end_game", "x"]
    while not GAME.is_over(state):
        before = _fingerprint(state)
        for kind in kinds:
            args = {k: rng.choice(JUNK) for k in ("to", "size", "chits", "card", "text", "at")}
            seat = rng.choice([None, 0, 1, 2, 5, -1, True])
            try:
                GAME.apply(state, Command(kind, seat, args))
            except RuleError as exc:
                assert str(exc)
        assert _fingerprint(state) == before
        for event in GAME.apply(state, random_command(GAME, state, rng, 3)):
            GAME.fold(state, event)


def _fingerprint(state) -> str:
    views = [GAME.public_view(state)] + [GAME.seat_view(state, s) for s in range(len(state.seats))]
    return json.dumps([views, state.decks])


def _twin(seed: int, seats: int):
    """Two deals of one game that differ only in hidden data players have not seen: the
    treasure values within each deck, which king's name card is where, and the faces of the
    last two chits and of the unused one. Name cards stay at the same places, so the same
    commands are legal in both."""
    a = GAME.setup({}, NAMES[:seats], seed)
    b = GAME.setup({}, NAMES[:seats], seed)
    rng = random.Random(seed)
    kings = [
        d for d in b.decks.values() if any(c not in ("Clue",) and isinstance(c, str) for c in d)
    ]
    names = [next(c for c in d if isinstance(c, str)) for d in kings]
    rng.shuffle(names)
    for deck, name in zip(kings, names, strict=True):
        deck[next(i for i, c in enumerate(deck) if isinstance(c, str))] = name
    for deck in b.decks.values():
        slots = [i for i, c in enumerate(deck) if isinstance(c, int)]
        values = [deck[i] for i in slots]
        rng.shuffle(values)
        for i, v in zip(slots, values, strict=True):
            deck[i] = v
    b.hidden = {
        "decks": {str(t): d[::-1] for t, d in b.decks.items()},
        "chits": [
            *b.hidden["chits"][:13],
            *(
                ["Cursed", "Safe"]
                if a.hidden["chits"][13:] != ["Cursed", "Safe"]
                else ["Safe", "Cursed"]
            ),
        ],
        "unused": "Safe" if a.hidden["unused"] == "Cursed" else "Cursed",
    }
    assert a.hidden != b.hidden
    return a, b


def _without_commitment(view: dict) -> dict:
    # The commitment differs with the hidden state by design: it is a hash that tells nothing.
    return {k: v for k, v in view.items() if k != "commitment"}


@pytest.mark.parametrize("seed", range(4))
def test_secrecy_two_deals_differing_only_in_hidden_data_look_alike_moct_fair_1(seed):
    """No secret leaves the engine but through its owner's view: two deals that differ only
    in hidden data give identical public views, and identical views to every seat that has
    not itself drawn or peeked (seat 1 only moves and ends turns; seat 0 plays at random)."""
    a, b = _twin(seed, 3)
    rng = random.Random(seed)
    compared = 0
    while a.turned < 13:
        assert _without_commitment(GAME.public_view(a)) == _without_commitment(GAME.public_view(b))
        for seat in (1, 2):
            assert _without_commitment(GAME.seat_view(a, seat)) == _without_commitment(
                GAME.seat_view(b, seat)
            )
        compared += 1
        if a.turn == 0:
            command = random_command(GAME, a, rng, 3)
        else:
            moves = [c for c in GAME.legal(a, a.turn) if c.type in ("move", "end_turn")]
            command = rng.choice(moves)
        for state in (a, b):
            for event in GAME.apply(state, command):
                GAME.fold(state, event)
    assert compared > 50
    assert GAME.seat_view(a, 0) != GAME.seat_view(b, 0) or not a.seats[0].kept


@pytest.mark.parametrize("seed", [3, 11])
def test_no_view_but_its_owners_shows_a_secret_during_random_games_moct_fair_1(seed):
    """Until the end the public view holds no face-down chit, no salt, no reveal and no card's
    points; a seat's view is the public view plus its own part only; the reveal at the end
    matches the commitment."""
    rng = random.Random(seed)
    state = GAME.setup({}, NAMES[:4], seed)
    while not GAME.is_over(state):
        public = json.dumps(GAME.public_view(state))
        assert state.salt not in public and '"reveal": null' in public
        assert '"points"' not in json.dumps(GAME.public_view(state)["seats"])
        assert all(c["face"] is None for c in GAME.public_view(state)["chits"][state.turned :])
        for seat in range(4):
            view = GAME.seat_view(state, seat)
            you = view.pop("you")
            assert view == GAME.public_view(state), "a seat sees the public view and its own"
            kept = [{"temple": t, "points": p} for t, p in state.seats[seat].kept]
            assert you["hand"] == kept
        for event in GAME.apply(state, random_command(GAME, state, rng, 4)):
            GAME.fold(state, event)
    from companion.game.moctezuma import verify_reveal

    view = GAME.public_view(state)
    assert verify_reveal(view["commitment"], view["reveal"])
    assert view["reveal"]["hidden"] == state.hidden


def test_the_table_undoes_and_replays_exactly(tmp_path):
    """Through the Table and its SQLite log: after each command an undo brings back exactly
    the views before it, the same command draws the same cards again, and a restart from the
    log lands on identical views."""
    from companion.table import Table

    db = tmp_path / "game.db"
    rng = random.Random(5)
    with Table.open(db) as table:
        assert table.new_game("moctezuma", {}, NAMES[:3], 5).ok
        for _ in range(60):
            before = _views(table)
            command = _any_legal(table, rng)
            assert table.submit(command).ok
            after = _views(table)
            assert table.undo().ok
            assert _views(table) == before
            assert table.submit(command).ok
            assert _views(table) == after
        live = [table.public_view()] + [table.seat_view(s) for s in range(3)]
    with Table.open(db) as table:
        assert [table.public_view()] + [table.seat_view(s) for s in range(3)] == live


def _any_legal(table, rng: random.Random) -> Command:
    """A command the player whose turn it is may send, chosen as a player would."""
    view = table.public_view()
    command = rng.choice([c for c in table.legal(view["turn"]) if c.type != "note"])
    if command.type == "research":
        down = [c["space"] for c in view["chits"] if not c["face_up"]]
        chits = rng.sample(down, min(command.args["size"], len(down)))
        return Command("research", command.seat, {**command.args, "chits": chits})
    return command


def _views(table) -> list[dict]:
    return [_strip(table.public_view())] + [_strip(table.seat_view(s)) for s in range(3)]


def _strip(view: dict) -> dict:
    """A view without its log, which after an undo also holds the undo's own line."""
    return {k: v for k, v in view.items() if k not in ("log", "log_count")}
