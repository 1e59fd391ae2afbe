"""A random player for any game behind the protocol: simulation, soak tests, secret scans.

A game may offer: `seats_with_commands(state)` to spare asking every seat;
`random_args(state, command, rng)` to fill the values `legal` leaves open (dice are filled
here from the roll prompt when it does not); `random_weights(state, commands)` to make some
choices likelier; a `corrections` set of host commands a random player must never choose.
A game whose choices repeat may instead offer `random_menu(state)`: the commands a random
player picks among (no corrections) and their cumulative weights, made once and reused, so
that nothing is rebuilt for every command, and empty once the game is over; `random_args` is
then asked only for the command types in its `random_fills`. The pick is the one
`rng.choices` would make. Such a game may also offer `play_offered(state, command)`: a
command its menu offered for this very state (values filled), played without validating it
again and folded at once, giving the events `apply` gives; the every-game tests prove both on
random games. Commands from people always take `apply`.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.game.protocol import Command, Game


def random_command(game: Game, state: Any, rng: random.Random, seats: int | None = None) -> Command:
    """One command chosen among every seat's (and the table's) legal commands, values filled.

    `seats` is the number of seats: when not given, read from the state's `seats` if it has
    one (cheap), else from the public view.
    """
    if getattr(game, "random_menu", None) is not None:
        return _menu_picker(game)(state, rng)
    skip = getattr(game, "corrections", frozenset())
    options = [c for c in game.legal(state, None) if c.type not in skip]
    shortcut = getattr(game, "seats_with_commands", None)
    if shortcut is not None:
        asked = shortcut(state)
    else:
        if seats is None:
            held = getattr(state, "seats", None)
            seats = len(held) if held is not None else len(game.public_view(state)["seats"])
        asked = range(seats)
    for seat in asked:
        options.extend(game.legal(state, seat))
    if not options:
        raise RuntimeError(f"No legal command; prompts: {game.prompts(state)}")
    weigh = getattr(game, "random_weights", None)
    weights = weigh(state, options) if weigh is not None else None
    command = rng.choices(options, weights)[0]
    fill = getattr(game, "random_args", None)
    if fill is not None:
        return fill(state, command, rng)
    if command.type == "dice":
        n = next((p.dice for p in game.prompts(state) if p.kind == "roll"), 0)
        return Command("dice", command.seat, {"values": [rng.randint(1, 6) for _ in range(n)]})
    return command


def _menu_picker(game: Game) -> Callable[[Any, random.Random], Command]:
    """`random_command` for a game with a `random_menu`, its methods looked up once."""
    menu, fill, fills, prompts = game.random_menu, game.random_args, game.random_fills, game.prompts

    def pick(state: Any, rng: random.Random) -> Command:
        options, cumulative = menu(state)
        if not options:
            raise RuntimeError(f"No legal command; prompts: {prompts(state)}")
        # What `rng.choices(options, cum_weights=cumulative)[0]` does, without its checks.
        command = options[bisect(cumulative, rng.random() * cumulative[-1], 0, len(options) - 1)]
        return fill(state, command, rng) if command.type in fills else command

    return pick


@dataclass
class PlayedGame:
    state: Any
    commands: list[Command]
    events: int


def play_random_game(
    game: Game,
    seats: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    rng: random.Random | None = None,
    max_commands: int = 20_000,
    check: Any = None,
    watch: Any = None,
) -> PlayedGame:
    """Play one whole game with random legal commands; `check(state)` runs after each command,
    and `watch(state, events)`, told the events the command made."""
    rng = rng or random.Random(seed)
    state = game.setup(options or {}, seats, seed)
    if getattr(game, "random_menu", None) is not None and hasattr(game, "play_offered"):
        return _play_offered(game, state, rng, max_commands, check, watch)
    commands: list[Command] = []
    events = 0
    apply, fold, is_over, count = game.apply, game.fold, game.is_over, len(seats)
    if getattr(game, "random_menu", None) is not None:
        pick = _menu_picker(game)
    else:

        def pick(state: Any, rng: random.Random) -> Command:
            return random_command(game, state, rng, count)

    played = commands.append
    for _ in range(max_commands):
        if is_over(state):
            break
        command = pick(state, rng)
        produced = apply(state, command)
        for event in produced:
            state = fold(state, event)
        events += len(produced)
        played(command)
        if check is not None:
            check(state)
        if watch is not None:
            watch(state, produced)
    else:
        if not is_over(state):
            raise RuntimeError(f"Game did not end within {max_commands} commands.")
    return PlayedGame(state, commands, events)


def _play_offered(
    game: Game, state: Any, rng: random.Random, max_commands: int, check: Any, watch: Any
) -> PlayedGame:
    """`play_random_game`'s loop for a game with a `random_menu` and `play_offered`: the pick
    of `_menu_picker` written out, and the end seen in an empty menu, `is_over` asked only
    then (this loop runs for every command of every simulated game)."""
    menu, fill, fills, play, is_over = (
        game.random_menu,
        game.random_args,
        game.random_fills,
        game.play_offered,
        game.is_over,
    )
    commands: list[Command] = []
    events = 0
    played, draw = commands.append, rng.random
    for _ in range(max_commands):
        options, cumulative = menu(state)
        if not options:
            if is_over(state):
                break
            raise RuntimeError(f"No legal command; prompts: {game.prompts(state)}")
        command = options[bisect(cumulative, draw() * cumulative[-1], 0, len(options) - 1)]
        if command.type in fills:
            command = fill(state, command, rng)
        produced = play(state, command)
        events += len(produced)
        played(command)
        if check is not None:
            check(state)
        if watch is not None:
            watch(state, produced)
    else:
        if not is_over(state):
            raise RuntimeError(f"Game did not end within {max_commands} commands.")
    return PlayedGame(state, commands, events)


class InvariantWatcher:
    """A `check` for `play_random_game`: a game's `invariants` module run after every command,
    the one-way ones against the previous state. Its `check(state, before)` may return the
    snapshot it counted on the way (spared counting again); else `snapshot(state)` is taken."""

    def __init__(self, invariants: Any):
        self.invariants = invariants
        self.snapshot: Any = None

    def __call__(self, state: Any) -> None:
        counted = self.invariants.check(state, self.snapshot)
        self.snapshot = counted if counted is not None else self.invariants.snapshot(state)
