"""Every registered game, through the protocol and the Table alone (as OpenSpiel's games test):
random complete games checked after every command, undo exactness, a restart replaying to the
same views, and secrecy (what a viewer may not know never changes what that viewer sees)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from companion.game import GAMES, load_game
from companion.game.random_play import play_random_game, random_command
from companion.panel import Panel
from companion.screens import generic
from companion.table import Table

NAMES = ["Ana", "Ben", "Cy", "Di", "Eve", "Fay"]


def seat_counts(game) -> list[int]:
    simulation = game.simulation() if hasattr(game, "simulation") else None
    fewest, most = simulation.seats if simulation else (game.min_seats, game.max_seats)
    return sorted({fewest, most})


def games():
    return [pytest.param(load_game(name), id=name) for name in GAMES]


@pytest.mark.parametrize("game", games())
def test_declares_what_a_host_needs(game):
    assert game.title and 1 <= game.min_seats <= game.max_seats
    assert isinstance(game.uses_dice, bool)
    state = game.setup({}, NAMES[: seat_counts(game)[0]], 1)
    for option in game.options:
        assert option.kind in ("bool", "int", "choice") and option.help, option.name
        json.dumps(option.to_json())
    for seat in [None, *range(seat_counts(game)[0])]:
        for command in game.legal(state, seat):
            assert game.describe(command).strip(), command


@pytest.mark.parametrize("game", games())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_complete_games_keep_the_invariants(game, seed):
    """Views are JSON and the table is always asked for something until the game is over."""
    simulation = game.simulation() if hasattr(game, "simulation") else None
    for seats in seat_counts(game):
        invariants = simulation.checker() if simulation else (lambda state: None)

        def check(state, invariants=invariants):
            invariants(state)
            json.dumps(game.public_view(state))
            assert game.prompts(state), "nothing is expected of anyone, yet the game goes on"

        played = play_random_game(game, NAMES[:seats], seed, check=check)
        assert game.is_over(played.state) and played.commands
        for seat in range(seats):
            json.dumps(game.seat_view(played.state, seat))


def views(table: Table) -> tuple:
    """Every view, without the log (which also tells of undos)."""

    def strip(view):
        return {k: v for k, v in view.items() if k not in ("log", "log_count")}

    seats = range(len(table.seats))
    return strip(table.public_view()), [strip(table.seat_view(s)) for s in seats]


def play(table: Table, game, state, rng: random.Random, count: int):
    """`count` random commands through the table, chosen on a shadow state kept in step."""
    for _ in range(count):
        if game.is_over(state):
            break
        command = random_command(game, state, rng)
        assert table.submit(command).ok, command
        for event in game.apply(state, command):
            state = game.fold(state, event)
    return state


def _views(game, state, seats: int) -> list:
    return [game.public_view(state), *(game.seat_view(state, s) for s in range(seats))]


def _offered(game, state, seats: int, rng: random.Random) -> list:
    """Every command random play may pick now, its open values filled."""
    if getattr(game, "random_menu", None) is not None:
        menu, _ = game.random_menu(state)
        return [game.random_args(state, c, rng) if c.type in game.random_fills else c for c in menu]
    skip = getattr(game, "corrections", frozenset())
    offered = [c for c in game.legal(state, None) if c.type not in skip]
    for seat in range(seats):
        offered += game.legal(state, seat)
    fill = getattr(game, "random_args", None)
    # Dice are left out: random play rolls them from the roll prompt.
    return [fill(state, c, rng) if fill else c for c in offered if c.type != "dice"]


@pytest.mark.parametrize("game", games())
@pytest.mark.parametrize("seed", [1, 2])
def test_every_command_random_play_is_offered_passes_the_validating_path(game, seed):
    """At every moment of random games, every command a random player may pick is accepted by
    `apply`, the path people's commands take; a game that plays its menu's commands without
    validating them again (`play_offered`) gives the very events and views that `apply` and
    `fold` give, so a wrong menu or a wrong shortcut fails here."""
    play = getattr(game, "play_offered", None)
    for seats in seat_counts(game):
        state = game.setup({}, NAMES[:seats], seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            for command in _offered(game, state, seats, random.Random(rng.random())):
                game.apply(state, command)  # raises RuleError when it is not legal
            command = random_command(game, state, rng, seats)
            if play is None:
                for event in game.apply(state, command):
                    state = game.fold(state, event)
                continue
            validated = copy.deepcopy(state)
            events = game.apply(validated, command)
            for event in events:
                validated = game.fold(validated, event)
            assert play(state, command) == events, command
            assert _views(game, state, seats) == _views(game, validated, seats), command


@pytest.mark.parametrize("game", games())
def test_undo_gives_back_exactly_the_views_before(game, tmp_path):
    rng = random.Random(4)
    seats = NAMES[: seat_counts(game)[-1]]
    with Table.open(tmp_path / "log.db") as table:
        assert table.new_game(game.name, {}, seats, seed=4).ok
        state = game.setup({}, seats, 4)
        undone = 0
        while not game.is_over(state) and undone < 40:
            before = views(table)
            command = random_command(game, state, rng)
            assert table.submit(command).ok
            assert table.undo().ok
            assert views(table) == before, f"undoing {command} changed the views"
            undone += 1
            state = play(table, game, state, random.Random(rng.random()), 3)
        assert undone == 40 or game.is_over(state)


@pytest.mark.parametrize("game", games())
def test_a_restart_replays_the_log_to_the_same_views(game, tmp_path):
    seats = NAMES[: seat_counts(game)[0]]
    with Table.open(tmp_path / "log.db") as table:
        assert table.new_game(game.name, {}, seats, seed=9).ok
        play(table, game, game.setup({}, seats, 9), random.Random(9), 80)
        seen = (table.public_view(), [table.seat_view(s) for s in range(len(seats))])
    with Table.open(tmp_path / "log.db") as table:
        again = (table.public_view(), [table.seat_view(s) for s in range(len(seats))])
        assert again == seen


class _Twin:
    """A table that shows one engine state, as the panel reads tables."""

    def __init__(self, game, state, seats):
        self.game, self.state, self.seats = game, state, seats
        self.has_game, self.version = True, 1

    def public_view(self):
        return self.game.public_view(self.state)

    def seat_view(self, seat):
        return self.game.seat_view(self.state, seat)

    def prompts(self):
        return self.game.prompts(self.state)

    def legal(self, seat):
        return self.game.legal(self.state, seat)


def oled(game, state, seats) -> bytes:
    return Panel(_Twin(game, state, seats)).render().tobytes()


@pytest.mark.parametrize("game", games())
@pytest.mark.parametrize("seed", [5, 6])
def test_hidden_data_never_changes_what_others_see(game, seed):
    """Two states differing only in what a viewer may not know give that viewer byte-identical
    views: the public view, the OLED, and every other seat's view."""
    if not hasattr(game, "hidden_twin"):
        pytest.skip(f"{game.title} has no hidden state to deal again")
    rng = random.Random(seed)
    seats = NAMES[: seat_counts(game)[-1]]
    state = game.setup({}, seats, seed)
    checked = 0
    while not game.is_over(state) and checked < 60:
        for holder in [None, *range(len(seats))]:
            twin = game.hidden_twin(state, holder, rng)
            assert json.dumps(game.public_view(twin)) == json.dumps(game.public_view(state))
            for other in range(len(seats)):
                if other != holder:
                    mine = json.dumps(game.seat_view(state, other))
                    assert json.dumps(game.seat_view(twin, other)) == mine, (holder, other)
            assert oled(game, twin, seats) == oled(game, state, seats)
        checked += 1
        for event in game.apply(state, random_command(game, state, rng)):
            state = game.fold(state, event)


def test_the_generic_screens_name_seats_from_any_view():
    assert generic.seat_name({"seats": [{"name": "Ana"}]}, 0) == "Ana"
    assert generic.seat_name({}, 1) == "Seat 2"
