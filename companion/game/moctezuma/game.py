"""Moctezuma's Revenge! behind the `companion.game.protocol.Game` protocol."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from itertools import accumulate
from typing import Any, ClassVar

from companion.game.fairness import commitment, verify_reveal
from companion.game.moctezuma import fold as folding
from companion.game.moctezuma import rules, views
from companion.game.moctezuma.hidden import chit_spaces, deal_hidden
from companion.game.moctezuma.offered import play_offered
from companion.game.moctezuma.options import OPTIONS, check_options
from companion.game.moctezuma.state import LIBRARY, POINTS, MoctezumaState, Seat
from companion.game.protocol import Command, Event, Option, Prompt, RuleError


def new_state(options: Mapping[str, Any], seats: list[str], seed: int) -> MoctezumaState:
    opts = check_options(options)
    if not isinstance(seats, list) or not 2 <= len(seats) <= 6:
        raise RuleError("Moctezuma's Revenge! is played by 2 to 6 players.", "MOCT-SET-1")
    if not all(isinstance(s, str) and s.strip() for s in seats):
        raise RuleError("Every seat needs a player name.")
    salt, hidden, rng = deal_hidden(seed)
    first = rng.randrange(len(seats))  # MOCT-SET-1
    return MoctezumaState(
        options=opts,
        seats=[Seat(name.strip()) for name in seats],
        salt=salt,
        hidden=hidden,
        commitment=commitment(salt, hidden),
        spaces=chit_spaces(opts["third_chit"]),
        decks={int(t): cards[::-1] for t, cards in hidden["decks"].items()},  # top last
        first=first,
        turn=first,
    )


def random_menu(state: MoctezumaState) -> tuple[tuple[Command, ...], tuple[float, ...]]:
    """The acting seat's commands (what `legal` offers it) and their cumulative weights,
    for random play: made once for each case, as `legal`'s are. Random play spends its
    points rather than ending turns early or moving about."""
    explore = state.explore
    if explore is None and not state.over:
        seat = state.turn
        here = state.seats[seat].at
        points = state.points
        ring = state.options["temple_ring"]
        menus = _TURNS[ring][seat] or _seat_turns(seat, ring)
        # `_can` and min(points, 3) written out: this runs before every command.
        if here == LIBRARY:
            return menus[here][points if points < 3 else 3][state.turned < len(state.spaces)]
        return menus[here][points if points < 3 else 3][len(state.decks[here]) > 0]
    if explore is not None:
        return _choosing(state.turn, tuple(map(type, explore["cards"])))
    return (), ()


class MoctezumaGame:
    """The Moctezuma's Revenge! rules. Stateless: every call takes the state it works on."""

    name: ClassVar[str] = "moctezuma"
    title: ClassVar[str] = "Moctezuma's Revenge!"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    uses_dice: ClassVar[bool] = False
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    # The host's own commands: listed by `legal(state, None)`, never chosen by a random player.
    corrections: ClassVar[frozenset[str]] = rules.HOST_ONLY

    def describe(self, command: Command) -> str:
        return describe(command)

    def setup(self, options: Mapping[str, Any], seats: list[str], seed: int) -> MoctezumaState:
        state = new_state(options, seats, seed)
        state.say(f"A new game for {', '.join(s.name for s in state.seats)}.")
        state.say(f"{state.seats[state.first].name} plays first: {POINTS} action points.")
        return state

    def legal(self, state: MoctezumaState, seat: int | None) -> list[Command]:
        return legal(state, seat)

    # The engine's own functions, called without a layer between: a simulated game calls
    # them hundreds of times.
    apply: ClassVar = staticmethod(rules.validate)
    fold: ClassVar = staticmethod(folding.fold)
    # Random play's commands, offered by `random_menu` for the very state they are played on.
    play_offered: ClassVar = staticmethod(play_offered)

    def public_view(self, state: MoctezumaState) -> dict[str, Any]:
        return views.public_view(state)

    def seat_view(self, state: MoctezumaState, seat: int) -> dict[str, Any]:
        return views.seat_view(state, seat)

    def prompts(self, state: MoctezumaState) -> list[Prompt]:
        return prompts(state)

    def is_over(self, state: MoctezumaState) -> bool:
        return state.over

    def seats_with_commands(self, state: MoctezumaState) -> list[int]:
        """Only the player whose turn it is acts (notes aside), a shortcut for random play."""
        return [] if state.over else [state.turn]

    # Random play's menu, called before every command of a simulated game: a function of the
    # state alone, without a method's layer.
    random_menu: ClassVar = staticmethod(random_menu)

    # The commands whose values `random_args` fills: the rest are played as the menu has them.
    random_fills: ClassVar[frozenset[str]] = frozenset({"research", "note"})

    def random_args(self, state: MoctezumaState, command: Command, rng: random.Random) -> Command:
        """`command` with its open values filled in (used by random play)."""
        if command.type == "research":
            down = range(state.turned, len(state.spaces))  # the face-down chits
            chits = rng.sample(down, min(command.args["size"], len(down)))
            return Command("research", command.seat, {**command.args, "chits": chits})
        if command.type == "note":
            return Command("note", command.seat, {"text": f"round {state.round}: a hunch"})
        return command

    def menu_label(self, command: Command, seats: list[str]) -> str | None:
        """Short words for the OLED's menu; a note (typed) and the host's corrections are left
        to the pages."""
        return menu_label(command)

    def screens(self) -> Any:
        """Its OLED screens: round, chits turned, whose turn and points; the private peek."""
        from companion.game.moctezuma import screens

        return screens

    def simulation(self) -> Any:
        """`companion simulate`'s invariant checks and figures for a run of random games."""
        from companion.game.moctezuma.simulation import MoctezumaSimulation

        return MoctezumaSimulation()

    def hidden_twin(
        self, state: MoctezumaState, seat: int | None, rng: random.Random
    ) -> MoctezumaState:
        """The state with what only `seat` (None: nobody) may know dealt again, for the secrecy
        test every registered game is put through."""
        from companion.game.moctezuma.twin import hidden_twin

        return hidden_twin(state, seat, rng)

    def verify(
        self,
        options: Mapping[str, Any],
        seats: list[str],
        seed: int,
        commands: list[tuple[dict[str, Any], list[Event]]],
        noted: str,
    ) -> Any:
        """`companion verify`: the finished game against the commitment noted at setup
        (MOCT-FAIR-1); raises AuditMismatch or AuditUnfinished."""
        from companion.game.moctezuma.audit import audit_game

        return audit_game(options, seats, seed, commands, noted)

    def reveal_matches(self, commitment_hex: str, reveal: Any) -> bool:
        """Whether the end-of-game reveal hashes to the commitment published at setup."""
        return verify_reveal(commitment_hex, reveal)


_WEIGHTS = {"end_turn": 0.2, "move": 0.5, "note": 0.02}


def legal(state: MoctezumaState, seat: int | None) -> list[Command]:
    """What `seat` may do now; a research's chits are left open (the player picks them)."""
    if state.over:
        return []
    if seat is None:
        return list(_HOST_COMMANDS)
    if seat != state.turn:
        return [_command(seat, "note")]
    if state.explore is not None:
        return list(_choosing(seat, tuple(map(type, state.explore["cards"])))[0])
    here = state.seats[seat].at
    return list(
        _turn(seat, here, min(state.points, 3), _can(state, here), state.options["temple_ring"])[0]
    )


def _can(state: MoctezumaState, here: int) -> bool:
    """Whether there are chits left to research, or cards left to explore."""
    return state.turned < len(state.spaces) if here == rules.LIBRARY else bool(state.decks[here])


# Unbounded caches: at most 6 seats x 11 places x 4 point counts x 2 x 2 turn menus, fewer
# choices; a bounded cache would keep its order of use up to date on every hit.
@cache
def _turn(
    seat: int, here: int, points: int, can: bool, ring: bool
) -> tuple[tuple[Command, ...], tuple[float, ...]]:
    """A turn's commands depend on little: where, how many points (3 buys anything), and
    whether the location has chits or cards left. Made once for each case, with the weights
    random play gives them."""
    out = [_command(seat, "note"), _command(seat, "end_turn")]
    out += [_command(seat, "move", to) for to in rules.adjacent_to(here, ring)]
    if can:
        kind = "research" if here == rules.LIBRARY else "explore"
        out += [_command(seat, kind, size) for size, cost in rules.COSTS.items() if cost <= points]
    return _weighed(tuple(out))


# Random play's turn menus by list index, spared hashing a key before every command:
# temple_ring -> seat -> place -> points (0-3) -> whether there are chits or cards left.
_TURNS: tuple[list, list] = ([None] * 6, [None] * 6)


def _seat_turns(seat: int, ring: bool) -> list:
    """A seat's turn menus (`_turn`'s), made when it first plays."""
    menus = [
        [[_turn(seat, here, points, can, ring) for can in (False, True)] for points in range(4)]
        for here in range(11)
    ]
    _TURNS[ring][seat] = menus
    return menus


@cache
def _choosing(seat: int, kinds: tuple[type, ...]) -> tuple[tuple[Command, ...], tuple[float, ...]]:
    """After an Explore: a note, or keep one of the drawn cards that is a treasure (`kinds`:
    the drawn cards' types, int for a treasure); with the weights random play gives them."""
    return _weighed(
        (
            _command(seat, "note"),
            *(_command(seat, "keep", i) for i, t in enumerate(kinds) if t is int),
        )
    )


def _weighed(commands: tuple[Command, ...]) -> tuple[tuple[Command, ...], tuple[float, ...]]:
    """`commands` with their cumulative random-play weights, as `random.choices` sums them."""
    return commands, tuple(accumulate(_WEIGHTS.get(c.type, 1.0) for c in commands))


_HOST_COMMANDS = (Command("end_game"), Command("place", None, {}))
_ARG = {"move": "to", "keep": "card", "research": "size", "explore": "size"}


def _command(seat: int, kind: str, value: int | None = None) -> Command:
    return Command(kind, seat, {} if value is None else {_ARG[kind]: value})


def prompts(state: MoctezumaState) -> list[Prompt]:
    if state.over:
        winners = state.result["winners"]
        names = " and ".join(state.seats[i].name for i in winners)
        return [Prompt(f"Game over: {names} win{'s' if len(winners) == 1 else ''}.", "over")]
    seat = state.seats[state.turn]
    if state.explore is not None:
        return [Prompt(f"{seat.name}: keep one of the cards you drew", "choose", state.turn)]
    points = f"{state.points} action point{'s' if state.points != 1 else ''} left"
    return [Prompt(f"{seat.name} at {rules.place_name(seat.at)}: {points}", "act", state.turn)]


def menu_label(command: Command) -> str | None:
    args = command.args
    match command.type:
        case "move":
            place = rules.place_name(args["to"])
            return f"{place[0].upper()}{place[1:]} (1 pt)"
        case "research" | "explore":
            things = "chits" if command.type == "research" else "cards"
            return (
                f"{command.type.capitalize()} {args['size']} {things} ({rules.COSTS[args['size']]})"
            )
        case "keep":
            return f"Keep card {args['card'] + 1}"
        case "end_turn":
            return "End the turn"
    return None


def describe(command: Command) -> str:
    """The command as a button or the log reads it: "Move to temple 3 (1 point)"."""
    args = command.args
    match command.type:
        case "move":
            to = args.get("to")
            return f"Move to {rules.place_name(to)} (1 point)" if isinstance(to, int) else "Move"
        case "research":
            size = args.get("size", 2)
            return f"Research: peek at {size} chits ({rules.COSTS.get(size, '?')} points)"
        case "explore":
            size = args.get("size", 2)
            return f"Explore: draw {size} cards ({rules.COSTS.get(size, '?')} points)"
        case "keep":
            card = args.get("card")
            return f"Keep card {card + 1}" if isinstance(card, int) else "Keep a card"
        case "end_turn":
            return "End the turn"
        case "note":
            return "Write a note on the record sheet"
        case "place":
            return "Put a researcher where it really stands"
        case "end_game":
            return "End the game and score it"
    return command.type.replace("_", " ").capitalize()
