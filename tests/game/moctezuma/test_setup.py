"""Setting up: seats, the temple decks, the name cards, the curse chits and the commitment."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.game.moctezuma.hidden import KINGS, TREASURES

from .helpers import GAME, NAMES, Play


@pytest.mark.parametrize("seats", [0, 1, 7])
def test_two_to_six_players_moct_set_1(seats):
    """MOCT-SET-1: 2-6 players; other counts are refused naming the rule."""
    from companion.game.protocol import RuleError

    with pytest.raises(RuleError) as caught:
        GAME.setup({}, (NAMES * 2)[:seats], 1)
    assert caught.value.rule == "MOCT-SET-1"


def test_everyone_starts_on_the_library_and_the_first_player_is_drawn_moct_set_1():
    """MOCT-SET-1: every researcher on the Library; the first player comes from the seed and
    is not always the same seat; play goes clockwise."""
    firsts = set()
    for seed in range(30):
        state = GAME.setup({}, NAMES[:4], seed)
        view = GAME.public_view(state)
        assert [s["at"] for s in view["seats"]] == [0, 0, 0, 0]
        assert view["locations"][0]["researchers"] == [0, 1, 2, 3]
        assert view["turn"] == view["first"] == state.first
        firsts.add(state.first)
    assert firsts == {0, 1, 2, 3}
    p = Play(seats=3)
    p.do("end_turn", 0)
    assert p.view()["turn"] == 1


def test_ten_temple_decks_of_eleven_treasures_and_a_name_card_moct_set_2_set_3():
    """MOCT-SET-2, MOCT-SET-3: 10 decks of 11 treasure cards (5/3/3/2/2/2/1/1/1/1/1) plus one
    name card each; the 10 name cards are the 7 kings (both Moctezumas among them) and 3 Clues."""
    state = GAME.setup({}, NAMES[:2], 7)
    decks = state.hidden["decks"]
    assert sorted(decks) == sorted(str(t) for t in range(1, 11))
    names = []
    for deck in decks.values():
        assert Counter(c for c in deck if isinstance(c, int)) == Counter(TREASURES)
        names += [c for c in deck if isinstance(c, str)]
    assert len(names) == 10
    assert Counter(names) == Counter([*KINGS, "Clue", "Clue", "Clue"])
    assert {"Moctezuma I", "Moctezuma II"} <= set(names)
    assert all(c["cards_left"] == 12 for c in GAME.public_view(state)["locations"][1:])


def test_name_cards_land_in_different_temples_and_places_by_seed_moct_set_3():
    """MOCT-SET-3: the name cards are shuffled into the decks, and each deck shuffled."""
    places = set()
    for seed in range(20):
        decks = GAME.setup({}, NAMES[:2], seed).hidden["decks"]
        places.add(
            tuple(next(i for i, c in enumerate(d) if isinstance(c, str)) for d in decks.values())
        )
    assert len(places) == 20


@pytest.mark.parametrize("third", ["Moctezuma II", "Moctezuma I"])
def test_fifteen_chits_on_the_chart_and_one_out_moct_set_4(third):
    """MOCT-SET-4: 7 Cursed and 9 Safe; 15 on the spaces (two columns of one a king, a third
    for the chosen Moctezuma), the 16th out of play and shown to nobody."""
    state = GAME.setup({"third_chit": third}, NAMES[:3], 4)
    hidden = state.hidden
    assert Counter([*hidden["chits"], hidden["unused"]]) == Counter(Cursed=7, Safe=9)
    chits = GAME.public_view(state)["chits"]
    assert len(chits) == 15
    assert [c["column"] for c in chits] == [1] * 7 + [2] * 7 + [3]
    assert [c["king"] for c in chits[:7]] == list(KINGS) == [c["king"] for c in chits[7:14]]
    assert chits[14]["king"] == third
    assert all(c["face"] is None and not c["face_up"] for c in chits)


def test_bad_options_are_refused_naming_the_rule():
    from companion.game.protocol import RuleError

    for options, rule in [
        ({"curse_rule": "dice"}, "MOCT-END-2"),
        ({"third_chit": "Tizoc"}, "MOCT-SET-4"),
        ({"record_sheet": "paper"}, "MOCT-REC-1"),
        ({"carry_points": 1}, "MOCT-TURN-1"),
    ]:
        with pytest.raises(RuleError) as caught:
            GAME.setup(options, NAMES[:2], 1)
        assert caught.value.rule == rule
    with pytest.raises(RuleError, match="Unknown option"):
        GAME.setup({"board": "x"}, NAMES[:2], 1)


def test_the_game_declares_what_a_host_needs():
    """Title, seats, no dice, and every option with a default that passes its own check and a
    sentence to show beside it."""
    from companion.game import load_game
    from companion.game.moctezuma.options import check_options

    game = load_game("moctezuma")
    assert (game.title, game.min_seats, game.max_seats, game.uses_dice) == (
        "Moctezuma's Revenge!",
        2,
        6,
        False,
    )
    defaults = {o.name: o.default for o in game.options}
    assert check_options({}) == defaults
    assert defaults["curse_rule"] == "majority" and defaults["record_sheet"] == "auto"
    assert all(o.help.endswith(".") and len(o.help) > 30 for o in game.options)


def test_the_deal_shuffles_as_random_shuffle_does_moct_fair_1():
    """The deal's own shuffle puts a list in the order `random.Random.shuffle` does and leaves
    the generator where it would, so that a seed deals the same game as ever."""
    import random

    from companion.game.moctezuma.hidden import shuffle

    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        cards, expected = list(range(seed % 20)), list(range(seed % 20))
        shuffle(cards, ours.getrandbits)
        theirs.shuffle(expected)
        assert cards == expected and ours.random() == theirs.random()
