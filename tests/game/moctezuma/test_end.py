"""The end: the last chit, Cursed and Safe temples, scoring, the winner and the reveal."""

from __future__ import annotations

import pytest

from companion.game.moctezuma import verify_reveal
from companion.game.moctezuma.hidden import KINGS
from companion.game.moctezuma.scoring import score

from .helpers import GAME, Play


def _rig(p: Play, names: list[str], chits: list[str]) -> None:
    """Temple t's name card becomes names[t-1]; the chits become `chits` (space order)."""
    for temple, name in enumerate(names, 1):
        deck = p.state.hidden["decks"][str(temple)]
        deck[next(i for i, c in enumerate(deck) if isinstance(c, str))] = name
    p.state.hidden["chits"][:] = chits


NAMES = [*KINGS, "Clue", "Clue", "Clue"]  # temples 1-7 the kings in chart order, 8-10 Clues
# Itzcoatl C C, Moctezuma I S S, Axayacatl C S, Tizoc S S, Ahuitzotl C C, Moctezuma II C S + S,
# Cuauhtemoc S C: column 1 then column 2 then Moctezuma II's third.
CHITS = ["Cursed", "Safe", "Cursed", "Safe", "Cursed", "Cursed", "Safe"]
CHITS += ["Cursed", "Safe", "Safe", "Safe", "Cursed", "Safe", "Cursed", "Safe"]


def test_the_game_ends_when_moctezumas_third_chit_is_turned_moct_end_1():
    """MOCT-END-1: after 15 rounds the third chit is turned and the game is scored; nothing
    more may be done, every chit and the reveal are shown."""
    p = Play()
    p.end_turns(2 * 15 - 1)
    assert not GAME.is_over(p.state) and p.view()["round"] == 15
    p.end_turns(1)
    view = p.view()
    assert GAME.is_over(p.state) and view["over"] and view["chits_turned"] == 15
    assert GAME.prompts(p.state)[0].kind == "over"
    assert all(GAME.legal(p.state, s) == [] for s in (None, 0, 1))
    p.refused("MOCT-END-1", "move", 0, to=1)
    assert all(c["face_up"] for c in view["chits"])
    assert view["result"]["unused_chit"] == p.state.hidden["unused"]
    assert verify_reveal(view["commitment"], view["reveal"])  # MOCT-FAIR-1


@pytest.mark.parametrize(
    "rule, cursed",
    [
        ("majority", {"Itzcoatl", "Axayacatl", "Ahuitzotl", "Cuauhtemoc"}),
        ("majority_tie_safe", {"Itzcoatl", "Ahuitzotl"}),
        ("any", {"Itzcoatl", "Axayacatl", "Ahuitzotl", "Moctezuma II", "Cuauhtemoc"}),
    ],
)
def test_a_kings_temple_is_cursed_by_his_face_up_chits_moct_end_2(rule, cursed):
    """MOCT-END-2 (chosen, curse_rule): more Cursed than Safe, a tie Cursed (majority); a tie
    Safe; or any Cursed chit."""
    p = Play(options={"curse_rule": rule})
    _rig(p, NAMES, CHITS)
    temples = score(p.state, 15)["temples"]
    got = {t["name"] for t in temples.values() if t["standing"] == "cursed"}
    assert got == cursed
    assert [temples[str(t)]["standing"] for t in (8, 9, 10)] == ["clue"] * 3


def test_scoring_safe_cursed_double_moctezumas_and_the_city_of_gold_moct_end_3():
    """MOCT-END-3: Safe cards score, Cursed cards subtract, the two Moctezumas' temples count
    double either way, Clue temples score 0, and a card of each Clue temple scores 12."""
    p = Play(seats=3)
    _rig(p, NAMES, CHITS)
    ana, ben, cleo = p.state.seats
    ana.kept[:] = [(2, 5), (4, 3), (1, 2)]  # Moctezuma I safe: +10; Tizoc safe +3; Itzcoatl -2
    ben.kept[:] = [(6, 3), (5, 1), (8, 5)]  # Moctezuma II: C S S, majority Safe: +6; -1; clue 0
    cleo.kept[:] = [(8, 1), (9, 1), (10, 1), (3, 2)]  # City of Gold 12; Axayacatl C S tie -2
    result = score(p.state, 15)
    assert result["scores"] == [11, 5, 10]
    assert result["city_of_gold"] == [False, False, True]
    assert result["winners"] == [0]


def test_most_points_wins_then_most_cards_then_shared_moct_end_4():
    """MOCT-END-4: on equal points the tied player with more treasure cards wins; still tied,
    they share the victory."""
    p = Play(seats=3)
    _rig(p, NAMES, CHITS)
    ana, ben, cleo = p.state.seats
    ana.kept[:] = [(4, 3)]
    ben.kept[:] = [(4, 2), (4, 1)]
    cleo.kept[:] = [(7, 1)]  # Cuauhtemoc S C: tie Cursed, -1
    assert score(p.state, 15)["winners"] == [1]
    ben.kept[:] = [(4, 3)]
    assert score(p.state, 15)["winners"] == [0, 1]
    p.end_turns(3 * 15)
    assert GAME.prompts(p.state)[0].text == "Game over: Ana and Ben win."


def test_the_host_ends_the_game_early_and_it_is_scored_on_the_chits_turned():
    """The host may end and score a game early: only face-up chits decide the temples."""
    p = Play()
    p.end_turns(4)  # two chits face up
    p.do("end_game", None)
    assert GAME.is_over(p.state) and p.view()["result"]["scores"] == [0, 0]
    assert verify_reveal(p.view()["commitment"], p.view()["reveal"])
