"""Temple of Chac behind the `companion.game.protocol.Game` protocol."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from companion.game.chac import fold as folding
from companion.game.chac import legal as listing
from companion.game.chac import prompts as prompting
from companion.game.chac import rules, views, words
from companion.game.chac.board import DEFAULT_BOARD, Board, load_board
from companion.game.chac.hidden import DECKS, GLYPHS, deal_hidden
from companion.game.chac.state import ChacState, Seat
from companion.game.fairness import commitment, verify_reveal
from companion.game.protocol import Command, Event, Option, Prompt, RuleError

DEFAULT_OPTIONS: dict[str, Any] = {
    "boulder_min_face": 3,  # CHAC-BOUL-1 (chosen)
    "alcove_faces": {"lava": [1, 2, 3], "chasm": [1, 2, 3, 4, 5]},  # CHAC-ALC-1 (chosen)
    "treasure_mode": "digital",
    "sprint_into_river": False,  # CHAC-ABIL-SPRINT: seed 000 forbids the dive; 001 is unclear
    "board": None,  # path of a board file; None = the default board
    # Co-operative play and the variants of seed 002 (CHAC-COOP-1..5). None = the mode's own
    # default: on in co-op, off (the publisher's rule) otherwise.
    "mode": "standard",
    "level": 1,
    "show_cards": None,
    "pass_dice": None,
    "first_dicekeeper": None,
    "exchange_treasures": None,
    "swimming_helps_adjacent": None,
}
# (off, on) for each variant; co-op turns them on unless the host says otherwise.
VARIANTS: dict[str, tuple[Any, Any]] = {
    "show_cards": (False, True),
    "pass_dice": ("left", "closest_to_exit"),
    "first_dicekeeper": ("oldest", "triplets"),
    "exchange_treasures": (False, True),
    "swimming_helps_adjacent": (False, True),
}

# The setup choices a form can offer, each with its sentence; `check_options` also takes
# `alcove_faces` (CHAC-ALC-1, faces typed as digits) and `board` (a board file), which are
# not one value from a list. None: the mode's own default (co-op on, standard off).
OPTIONS: tuple[Option, ...] = (
    Option(
        "treasure_mode",
        "choice",
        "digital",
        "Treasure cards: digital (the companion deals the values) or physical (players draw "
        "the real cards).",
        ("digital", "physical"),
    ),
    Option(
        "boulder_min_face",
        "int",
        3,
        "The boulder moves for each die showing at least this face (CHAC-BOUL-1).",
        low=1,
        high=6,
    ),
    Option(
        "sprint_into_river",
        "bool",
        False,
        "Whether a Sprint may dive into the river (seed 000 forbids it).",
    ),
    Option(
        "mode",
        "choice",
        "standard",
        "Standard (highest treasure wins) or co-op (the team against the temple).",
        ("standard", "coop"),
    ),
    Option("level", "int", 1, "The co-op level: the team's target grows with it.", low=1, high=4),
    Option(
        "show_cards",
        "choice",
        None,
        "Card values shown to the whole team (co-op only).",
        (None, True, False),
    ),
    Option(
        "pass_dice",
        "choice",
        None,
        "The dice pass to the left, or to the adventurer nearest the exit.",
        (None, "left", "closest_to_exit"),
    ),
    Option(
        "first_dicekeeper",
        "choice",
        None,
        "The first dicekeeper: the oldest player, or the highest triplet roll.",
        (None, "oldest", "triplets"),
    ),
    Option(
        "exchange_treasures",
        "choice",
        None,
        "Whether adventurers on one space may exchange treasure cards.",
        (None, True, False),
    ),
    Option(
        "swimming_helps_adjacent",
        "choice",
        None,
        "Whether Swimming also helps a neighbour leaving the river.",
        (None, True, False),
    ),
)


@lru_cache(maxsize=8)
def _board(path: str, mtime: float) -> Board:
    return load_board(path)


def board_for(path: str | None) -> Board:
    p = Path(path) if path else DEFAULT_BOARD
    try:
        mtime = p.stat().st_mtime
    except OSError:
        raise RuleError(f"Board file {str(p)!r} does not exist.") from None
    return _board(str(p), mtime)


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with defaults filled in; RuleError naming the first bad one."""
    if not isinstance(options, Mapping):
        raise RuleError("Options must be a JSON object.")
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise RuleError(
            f"Unknown option {unknown[0]!r}; known options: {', '.join(sorted(DEFAULT_OPTIONS))}."
        )
    out = {**DEFAULT_OPTIONS, **options}
    face = out["boulder_min_face"]
    if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
        raise RuleError(f"boulder_min_face must be a die face 1-6, not {face!r}.", "CHAC-BOUL-1")
    faces = out["alcove_faces"]
    if not isinstance(faces, Mapping) or set(faces) - {"lava", "chasm"}:
        raise RuleError(
            "alcove_faces must be an object with keys 'lava' and/or 'chasm'.", "CHAC-ALC-1"
        )
    merged = {**DEFAULT_OPTIONS["alcove_faces"], **faces}
    for kind, need in merged.items():
        if (
            not isinstance(need, list)
            or not 1 <= len(need) <= 5
            or len(set(need)) != len(need)
            or not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in need)
        ):
            raise RuleError(
                f"alcove_faces[{kind!r}] must list 1 to 5 different die faces 1-6, not {need!r}.",
                "CHAC-ALC-1",
            )
    out["alcove_faces"] = {k: sorted(v) for k, v in merged.items()}
    if out["treasure_mode"] not in ("digital", "physical"):
        raise RuleError(
            f"treasure_mode must be 'digital' or 'physical', not {out['treasure_mode']!r}."
        )
    _check_coop(out)
    if not isinstance(out["sprint_into_river"], bool):
        raise RuleError("sprint_into_river must be true or false.", "CHAC-ABIL-SPRINT")
    if out["board"] is not None and not isinstance(out["board"], str):
        raise RuleError("board must be the path of a board file.")
    return out


def _check_coop(out: dict[str, Any]) -> None:
    """Fills in the variants' defaults for the mode; RuleError naming a bad one."""
    if out["mode"] not in ("standard", "coop"):
        raise RuleError(f"mode must be 'standard' or 'coop', not {out['mode']!r}.", "CHAC-COOP-1")
    level = out["level"]
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 4:
        raise RuleError(f"level must be 1 to 4, not {level!r}.", "CHAC-COOP-1")
    coop = out["mode"] == "coop"
    rules = {
        "show_cards": "CHAC-COOP-1",
        "pass_dice": "CHAC-COOP-2",
        "first_dicekeeper": "CHAC-COOP-3",
        "exchange_treasures": "CHAC-COOP-4",
        "swimming_helps_adjacent": "CHAC-COOP-5",
    }
    for key, (off, on) in VARIANTS.items():
        if out[key] is None:
            out[key] = on if coop else off
        elif out[key] not in (off, on) or type(out[key]) is not type(off):
            raise RuleError(f"{key} must be {off!r} or {on!r}, not {out[key]!r}.", rules[key])
    if out["show_cards"] and not coop:
        raise RuleError("Card values are shown to all only in co-op mode.", "CHAC-COOP-1")


def new_state(options: Mapping[str, Any], seats: list[str], seed: int) -> ChacState:
    opts = check_options(options)
    fewest = 1 if opts["mode"] == "coop" else 2  # CHAC-COOP-1: one player only in co-op
    if not isinstance(seats, list) or not fewest <= len(seats) <= 6:
        raise RuleError(
            "Temple of Chac is played by 2 to 6 players (1 to 6 in co-op).",
            "CHAC-COOP-1" if isinstance(seats, list) and len(seats) == 1 else "CHAC-SET-1",
        )
    if not all(isinstance(s, str) and s.strip() for s in seats):
        raise RuleError("Every seat needs a player name.")
    board = board_for(opts["board"])
    salt, hidden = deal_hidden(seed)
    values: dict[str, int | str] = {}
    decks: dict[str, list[str]] = {}
    for name in DECKS:
        ids = [f"{name}-{i}" for i in range(len(hidden["decks"][name]))]
        values.update(zip(ids, hidden["decks"][name], strict=True))
        decks[name] = ids[::-1]  # top of the deck last, so drawing is a pop
    alcoves: dict[str, str | None] = {}
    for space, alcove in board.alcoves.items():
        card = f"A-{space}"
        values[card] = alcove.value
        alcoves[space] = card
    dealt = hidden["adventurers"]
    state = ChacState(
        board=board,
        options=opts,
        seats=[Seat(name.strip(), dealt[2 * i : 2 * i + 2]) for i, name in enumerate(seats)],
        salt=salt,
        hidden=hidden,
        commitment=commitment(salt, hidden),
        values=values,
        decks=decks,
        alcoves=alcoves,
    )
    if opts["first_dicekeeper"] == "triplets":
        folding.start_triplets(state, list(range(len(seats))))  # CHAC-COOP-3
    return state


class ChacGame:
    """The Temple of Chac rules. Stateless: every call takes the state it works on."""

    name: ClassVar[str] = "chac"
    title: ClassVar[str] = "Temple of Chac"
    min_seats: ClassVar[int] = 1  # co-op only; standard games take 2 (CHAC-SET-1)
    max_seats: ClassVar[int] = 6
    uses_dice: ClassVar[bool] = True
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    # The host's own commands (corrections, ending the game): listed by `legal(state, None)`,
    # never chosen by a random player.
    corrections: ClassVar[frozenset[str]] = rules.HOST_ONLY

    def describe(self, command: Command) -> str:
        return words.describe(command)

    def menu_label(self, command: Command, seats: list[str]) -> str | None:
        """The OLED menu's shorter label, or None when the panel leaves it to a phone."""
        return words.menu_label(command, seats)

    def setup(self, options: Mapping[str, Any], seats: list[str], seed: int) -> ChacState:
        state = new_state(options, seats, seed)
        state.say(f"A new game for {', '.join(s.name for s in state.seats)}.")
        state.say(f"Commitment to the hidden state: {state.commitment[:16]}...")
        return state

    def legal(self, state: ChacState, seat: int | None) -> list[Command]:
        return listing.legal(state, seat)

    def apply(self, state: ChacState, command: Command) -> list[Event]:
        return rules.validate(state, command)

    def fold(self, state: ChacState, event: Event) -> ChacState:
        return folding.fold(state, event)

    def public_view(self, state: ChacState) -> dict[str, Any]:
        return views.public_view(state)

    def seat_view(self, state: ChacState, seat: int) -> dict[str, Any]:
        return views.seat_view(state, seat)

    def prompts(self, state: ChacState) -> list[Prompt]:
        return prompting.prompts(state)

    def is_over(self, state: ChacState) -> bool:
        return state.phase == "over"

    # --- what the generic parts ask a game bundle for (companion.game.protocol.Game) -------

    def screens(self) -> Any:
        """The OLED screens, notices and the panel's facts (imported when first drawn)."""
        from companion.game.chac import screens

        return screens

    def simulation(self) -> Any:
        """`companion simulate`'s invariant checks and figures for a run of random games."""
        from companion.game.chac.simulation import ChacSimulation

        return ChacSimulation()

    def verify(
        self,
        options: Mapping[str, Any],
        seats: list[str],
        seed: int,
        commands: list[tuple[dict[str, Any], list[Event]]],
        noted: str,
    ) -> Any:
        """`companion verify` (CHAC-FAIR-1): the finished game against the noted commitment."""
        from companion.game.chac.audit import audit_game

        return audit_game(options, seats, seed, commands, noted)

    def private_reveal(
        self, name: str, seat_view: Mapping[str, Any], seat: int, data_dir: str | Path
    ) -> Any:
        """The seat page's private reveals: "glyph", the glyph viewer (CHAC-GLYPH-2)."""
        from companion.game.chac.glyphs import glyph_reveal
        from companion.game.reveals import NothingToReveal

        if name != "glyph":
            raise NothingToReveal(f"Temple of Chac has no private {name!r} to show.")
        return glyph_reveal(seat_view, seat, data_dir)

    def private_pictures(self, data_dir: str | Path) -> Any:
        """The pictures the panel's private peek shows by glyph number (bytes, or None)."""
        from companion.game.chac.glyphs import GlyphCatalog

        return GlyphCatalog(data_dir).picture

    def calibration_steps(self) -> tuple[Any, ...]:
        """Calibration after the tray and the dice: the glyph catalog (CHAC-GLYPH-2)."""
        from companion.game.chac.calibration import GLYPH_STEP

        return (GLYPH_STEP,)

    def stock_media(self, data_dir: str | Path) -> list[int]:
        """On a simulated table: stand-in glyph pictures for those calibration has not stored."""
        from companion.game.chac.glyphs import stock_pictures

        return stock_pictures(data_dir)

    def reveal_matches(self, commitment: str, reveal: Any) -> bool:
        """Whether the end-of-game reveal hashes to the commitment published at setup."""
        return verify_reveal(commitment, reveal)

    def board_layout(self, public_view: Mapping[str, Any] | None) -> dict[str, Any]:
        """Where the pages draw each space of the game's board file (the default board when
        there is no game yet). Raises RuleError when that file cannot be read any more."""
        from companion.game.chac.layout import layout_for

        board = (public_view or {}).get("board")
        return layout_for(board.get("file") if isinstance(board, dict) else None)

    def hidden_twin(self, state: ChacState, seat: int | None, rng: random.Random) -> ChacState:
        """`state` with what only `seat` (None: nobody) may know dealt again (secrecy tests)."""
        from companion.game.chac.twin import hidden_twin

        return hidden_twin(state, seat, rng)

    def seats_with_commands(self, state: ChacState) -> list[int]:
        """The seats that may have legal commands now (a shortcut for random play)."""
        return listing.seats_with_commands(state)

    def random_weights(self, state: ChacState, commands: list[Command]) -> list[float]:
        """Random play heads for the exit more often than not, so games see escapes."""
        return random_weights(state, commands)

    def random_args(self, state: ChacState, command: Command, rng: random.Random) -> Command:
        """`command` with its open values filled in plausibly (used by random play)."""
        return random_args(state, command, rng)


def random_args(state: ChacState, command: Command, rng: random.Random) -> Command:
    kind, seat, args = command.type, command.seat, dict(command.args)
    adv = state.seats[seat].adv if seat is not None else None
    physical = state.options["treasure_mode"] == "physical"
    if kind == "dice":
        n = state.roll["dice"] if state.roll else 0
        args["values"] = [rng.randint(1, 6) for _ in range(n)]
    elif kind == "slab":
        used = {n for n in state.slabs.values() if n is not None}
        args["number"] = rng.choice([n for n in GLYPHS if n not in used])
    elif kind in ("discard", "river_reroll") and adv is not None:
        if kind == "river_reroll" and state.river:
            count = 3 * state.river["rerollable"]
        else:
            least = max(1, len(adv.cards) - 12)
            count = rng.randint(least, min(len(adv.cards), least + 2))
        if physical:
            args["count"] = count
        else:
            args["cards"] = rng.sample(adv.cards, count)
    elif kind == "reroll" and state.alcove:
        dice = state.alcove["dice"]
        need = state.options["alcove_faces"][state.board.alcoves[state.alcove["space"]].kind]
        # Keep one die of each needed face already showing; reroll the others.
        keep: set[int] = set()
        for face in need:
            if face in dice:
                keep.add(next(i for i, v in enumerate(dice) if v == face and i not in keep))
        args["dice"] = [i for i in range(5) if i not in keep] or [0]
    elif kind == "exchange" and adv is not None:
        other = state.seats[args["with"]].adv
        held = len(other.cards) if other else 0
        give = rng.randint(0, min(2, len(adv.cards)))
        args["ask"] = rng.randint(0 if give else 1, min(2, held)) if held else 0
        if not give and not args["ask"]:
            give = 1 if adv.cards else 0
        args.update(_cards_or_count(state, adv.cards, give, rng))
    elif kind == "accept_exchange" and adv is not None and state.offer:
        args.update(_cards_or_count(state, adv.cards, state.offer["ask"], rng))
    elif kind == "score" and adv is not None:
        caskets = [c.split("-")[0] for c in adv.cards if state.values[c] == "casket"]
        args["values"] = [rng.randint(1, 6) for _ in range(len(adv.cards) - len(caskets))]
        args["caskets"] = caskets
    return Command(kind, seat, args)


def _cards_or_count(state: ChacState, cards: list[str], n: int, rng: random.Random) -> dict:
    if state.options["treasure_mode"] == "physical":
        return {"count": n}
    return {"cards": rng.sample(cards, n)}


_WEIGHTS = {
    "exchange": 0.1,
    "decline_exchange": 0.3,
    "pass": 0.3,
    "river_give_up": 0.2,
    "decline_replacement": 0.2,
    "discard": 0.2,
}


def random_weights(state: ChacState, commands: list[Command]) -> list[float]:
    dist = state.board.exit_distance
    weights = []
    for c in commands:
        w = _WEIGHTS.get(c.type, 1.0)
        if c.type in ("move", "sprint", "leap") and c.seat is not None:
            here = state.seats[c.seat].advs[state.seats[c.seat].current].space or ""
            to = c.args["to"]
            if to == "exit" or dist.get(to, 99) < dist.get(here, 99):
                w = 4.0
        weights.append(w)
    return weights
