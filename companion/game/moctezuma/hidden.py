"""The companion's secrets for Moctezuma's Revenge!, fixed from one seed at setup, and the
commitment that proves they did not change afterwards (MOCT-FAIR-1).

Canonical form: the hidden state is a JSON object

    {"decks": {"1": [...], ..., "10": [...]} (each temple's 12 cards, top first: a number is a
     treasure card's points, a string the name card: a king's name or "Clue"),
     "chits": [15 of "Cursed"/"Safe", in chit-space order (see `CHIT_SPACES`)],
     "unused": the 16th chit, "Cursed" or "Safe"}

serialised with `json.dumps(hidden, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`.
The commitment is the lowercase hex SHA-256 of the UTF-8 bytes of `salt + ":" + canonical`,
where `salt` is 32 lowercase hex digits; the reveal is `{"salt": salt, "hidden": hidden}`
(the same scheme as Temple of Chac's, so one checker serves both).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

# MOCT-SET-3 (chosen): the seven kings on the chart, top to bottom.
KINGS = (
    "Itzcoatl",
    "Moctezuma I",
    "Axayacatl",
    "Tizoc",
    "Ahuitzotl",
    "Moctezuma II",
    "Cuauhtemoc",
)
MOCTEZUMAS = ("Moctezuma I", "Moctezuma II")
CLUE = "Clue"
NAME_CARDS = (*KINGS, CLUE, CLUE, CLUE)
TEMPLES = range(1, 11)  # MOCT-SET-2
TREASURES = (5, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1)  # MOCT-SET-2
CHITS = ("Cursed",) * 7 + ("Safe",) * 9  # MOCT-SET-4


def chit_spaces(third: str) -> tuple[tuple[int, str], ...]:
    """The 15 chit spaces as (column, king), in the order they are turned (MOCT-ROUND-1):
    column 1 top to bottom, column 2 top to bottom, then the third chit of `third`."""
    return (*((1, k) for k in KINGS), *((2, k) for k in KINGS), (3, third))


def deal_hidden(seed: int) -> tuple[str, dict[str, Any], random.Random]:
    """(salt, hidden state, the generator it was drawn from) for `seed`; the same seed always
    gives the same secrets. The generator goes on to draw the first player."""
    rng = random.Random(seed)
    bits = rng.getrandbits
    salt = f"{bits(128):032x}"
    names = list(NAME_CARDS)
    shuffle(names, bits)  # MOCT-SET-3: one name card into each temple deck, then shuffle it
    decks: dict[str, list[int | str]] = {}
    for temple, name in zip(TEMPLES, names, strict=True):
        deck: list[int | str] = [*TREASURES, name]
        shuffle(deck, bits)
        decks[str(temple)] = deck
    chits = list(CHITS)
    shuffle(chits, bits)  # MOCT-SET-4: 15 on the board, the 16th out of play
    return salt, {"decks": decks, "chits": chits[:15], "unused": chits[15]}, rng


def shuffle(cards: list[Any], bits: Callable[[int], int]) -> None:
    """`random.Random.shuffle` as CPython writes it, with `bits` the generator's getrandbits:
    each place from the last down swapped with one drawn below it (getrandbits of the
    bound's bit length, drawn again until under the bound), spared a call a card; a game
    deals 134 of them. A test holds it to `random.Random.shuffle`, so a seed deals as ever."""
    for i in range(len(cards) - 1, 0, -1):
        size = (i + 1).bit_length()
        j = bits(size)
        while j > i:
            j = bits(size)
        cards[i], cards[j] = cards[j], cards[i]
