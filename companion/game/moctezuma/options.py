"""The setup choices of Moctezuma's Revenge!: the rules' (chosen) readings, each switchable."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.game.protocol import Option, RuleError

OPTIONS: tuple[Option, ...] = (
    Option(
        "third_chit",
        "choice",
        "Moctezuma II",
        "Which Moctezuma has the third curse chit, turned last (MOCT-SET-4).",
        choices=("Moctezuma II", "Moctezuma I"),
    ),
    Option(
        "carry_points",
        "bool",
        False,
        "Action points left at the end of a turn, up to 5, carry over to the player's next "
        "turn instead of being lost (MOCT-TURN-1).",
    ),
    Option(
        "temple_ring",
        "bool",
        True,
        "Each temple touches the temples numbered next to it (10 touches 1) as well as the "
        "Library; off: temples touch only the Library (MOCT-MOVE-1).",
    ),
    Option(
        "return_order",
        "choice",
        "drawn",
        "The cards not kept go to the bottom of the deck in the order they were drawn, or "
        "shuffled by the companion (MOCT-EXPL-1).",
        choices=("drawn", "shuffled"),
    ),
    Option(
        "refund_empty_explore",
        "bool",
        False,
        "An Explore that draws no treasure card gives its action points back (MOCT-EXPL-3).",
    ),
    Option(
        "record_sheet",
        "choice",
        "auto",
        "The record sheet fills itself in with what the player sees, or holds only the "
        "player's own notes, as the paper pad does (MOCT-REC-1).",
        choices=("auto", "manual"),
    ),
    Option(
        "curse_rule",
        "choice",
        "majority",
        "A king's temple is Cursed with more Cursed than Safe chits, a tie Cursed "
        "(majority); a tie Safe (majority_tie_safe); or with any Cursed chit (any) "
        "(MOCT-END-2).",
        choices=("majority", "majority_tie_safe", "any"),
    ),
    Option(
        "show_card_temples",
        "bool",
        True,
        "Everyone sees which temples each player's cards come from (the card backs); off: "
        "only how many cards each holds.",
    ),
)
RULES = {
    "third_chit": "MOCT-SET-4",
    "carry_points": "MOCT-TURN-1",
    "temple_ring": "MOCT-MOVE-1",
    "return_order": "MOCT-EXPL-1",
    "refund_empty_explore": "MOCT-EXPL-3",
    "record_sheet": "MOCT-REC-1",
    "curse_rule": "MOCT-END-2",
    "show_card_temples": "",
}
DEFAULTS = {o.name: o.default for o in OPTIONS}


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with defaults filled in; RuleError naming the first bad one."""
    if not isinstance(options, Mapping):
        raise RuleError("Options must be a JSON object.")
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise RuleError(
            f"Unknown option {unknown[0]!r}; known options: {', '.join(sorted(DEFAULTS))}."
        )
    out = {**DEFAULTS, **options}
    for option in OPTIONS:
        value = out[option.name]
        if option.kind == "bool" and not isinstance(value, bool):
            raise RuleError(f"{option.name} must be true or false.", RULES[option.name])
        if option.kind == "choice" and value not in option.choices:
            allowed = ", ".join(repr(c) for c in option.choices)
            raise RuleError(
                f"{option.name} must be one of {allowed}, not {value!r}.", RULES[option.name]
            )
    return out
