"""The companion's secrets, fixed from one seed at setup, and the commitment that proves it
did not change them afterwards (CHAC-FAIR-1).

Canonical form: the hidden state is a JSON object

    {"adventurers": [names in deal order], "walls": [18 of "blank"/"left"/"right"/"both",
     top first], "traps": {"1": n, "2": n, "3": n, "4": n}, "decks": {"Z1": [...], "Z2": [...],
     "Z3": [...], "Z4": [...], "L": [...], "R": [...]} (values top first, "casket" for a casket),
     "caskets": {"Z1": v, ..., "R": v}}

serialised with `json.dumps(hidden, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`.
The commitment is the lowercase hex SHA-256 of the UTF-8 bytes of `salt + ":" + canonical`,
where `salt` is 32 lowercase hex digits. The reveal is `{"salt": salt, "hidden": hidden}`.
"""

from __future__ import annotations

import random
from typing import Any

# CHAC-SET-1: 12 adventurers, 2 of each ability.
ADVENTURERS: dict[str, str] = {
    "Lea Rice": "sprint",
    "Martin Fletcher": "sprint",
    "Bill Baker": "stamina",
    "Mustafa Ibrahin": "stamina",
    "Trevor Griffith": "linguistics",
    "Arely Tamay": "linguistics",
    "Puccio Cortese": "swimming",
    "Tatiana Bregovic": "swimming",
    "Markus Bassler": "lock_picking",
    "Len Tso Yau": "lock_picking",
    "Vincent Gerondeau": "leap",
    "Nicole Lagger": "leap",
}

# CHAC-WALL-1: 13 blank, 2 orange (left), 2 grey (right), 1 double.
WALL_CARDS = ["blank"] * 13 + ["left"] * 2 + ["right"] * 2 + ["both"]

# CHAC-TREAS-1
ROOM_DECK: list[int | str] = [1, 2, 2, 3, 3, 3, 4, 4, 5, "casket"]
RIVER_DECK: list[int | str] = [2, 2, 2, 3, 3, 3, 4, 4, 4, "casket"]
DECKS = ("Z1", "Z2", "Z3", "Z4", "L", "R")
GLYPHS = range(1, 15)  # CHAC-GLYPH-1: Mayan numbers 1-14


def deal_hidden(seed: int) -> tuple[str, dict[str, Any]]:
    """(salt, hidden state) drawn from `seed`; the same seed always gives the same secrets."""
    rng = random.Random(seed)
    salt = f"{rng.getrandbits(128):032x}"
    adventurers = list(ADVENTURERS)
    rng.shuffle(adventurers)
    walls = list(WALL_CARDS)
    rng.shuffle(walls)
    traps = rng.sample(list(GLYPHS), 4)
    decks: dict[str, list[int | str]] = {}
    for name in DECKS:
        deck = list(RIVER_DECK if name == "R" else ROOM_DECK)
        rng.shuffle(deck)
        decks[name] = deck
    caskets = {name: rng.randint(1, 6) for name in DECKS}  # CHAC-TREAS-2
    hidden = {
        "adventurers": adventurers,
        "walls": walls,
        "traps": {str(z): n for z, n in zip((1, 2, 3, 4), traps, strict=True)},
        "decks": decks,
        "caskets": caskets,
    }
    return salt, hidden
