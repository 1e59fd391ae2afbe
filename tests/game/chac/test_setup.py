"""Setup, components, hidden state, the commitment and options."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from companion.game import load_game
from companion.game.chac import ChacGame, verify_reveal
from companion.game.protocol import RuleError

from .helpers import Play

GAME = ChacGame()


def test_the_registry_loads_chac():
    assert load_game("chac").name == "chac"


@pytest.mark.parametrize("n", [2, 3, 6])
def test_each_player_is_dealt_two_of_the_twelve_adventurers_chac_set_1(n):
    """CHAC-SET-1: 12 adventurers, 2 per ability; 2 distinct ones dealt to each player."""
    state = GAME.setup({}, [f"P{i}" for i in range(n)], 42)
    dealt = [name for seat in state.seats for name in seat.dealt]
    assert all(len(seat.dealt) == 2 for seat in state.seats)
    assert len(set(dealt)) == 2 * n
    everyone = state.hidden["adventurers"]
    assert sorted(everyone) == sorted(set(everyone)) and len(everyone) == 12
    from companion.game.chac.hidden import ADVENTURERS

    assert Counter(ADVENTURERS.values()) == {a: 2 for a in set(ADVENTURERS.values())}


@pytest.mark.parametrize("names", [["solo"], [f"P{i}" for i in range(7)], [], ["a", " "]])
def test_two_to_six_named_players_chac_set_1(names):
    """CHAC-SET-1: two to six named players."""
    with pytest.raises(RuleError):
        GAME.setup({}, names, 1)


def test_players_choose_which_dealt_adventurer_goes_in_first_chac_set_1():
    """CHAC-SET-1: players choose which dealt adventurer goes in first."""
    p = Play(start=False)
    dealt = p.state.seats[0].dealt
    assert p.seat_view(0)["you"]["dealt"] == dealt
    assert "dealt" not in p.seat_view(1)["you"] or p.seat_view(1)["you"]["dealt"] != dealt
    p.refuse("choose_adventurer", 0, "CHAC-SET-1", adventurer=p.state.seats[1].dealt[0])
    p.do("choose_adventurer", 0, adventurer=dealt[1])
    seat = p.view()["seats"][0]
    assert seat["adventurer"]["name"] == dealt[1] and seat["adventurer"]["space"] == "E"
    assert seat["replacement"] == "waiting"
    assert p.seat_view(0)["you"]["replacement"]["name"] == dealt[0]
    assert dealt[0] not in str(p.view()), "the replacement stays private"
    p.refuse("choose_adventurer", 0, "CHAC-SET-1", adventurer=dealt[0])


def test_the_host_picks_the_first_dicekeeper_who_acts_first_chac_set_2():
    """CHAC-SET-2 with CHAC-ACT-2: the chosen dicekeeper acts first."""
    p = Play(seats=3, start=False)
    for i in range(3):
        p.do("choose_adventurer", i, adventurer=p.state.seats[i].dealt[0])
    assert p.state.phase == "setup"
    p.refuse("first_dicekeeper", 1, "CHAC-SET-2", keeper=1)
    p.do("first_dicekeeper", None, keeper=2)
    assert p.view()["dicekeeper"] == 2 and p.state.round == 1
    p.refuse("first_dicekeeper", None, "CHAC-SET-2", keeper=0)
    p.to_actions()
    assert p.state.actor() == 2
    p.do("pass", 2)
    assert p.state.actor() == 0


def test_wall_deck_has_13_blank_2_left_2_right_1_double_chac_wall_1():
    """CHAC-WALL-1: wall deck has 13 blank 2 left 2 right 1 double."""
    for seed in range(5):
        walls = GAME.setup({}, ["a", "b"], seed).hidden["walls"]
        assert Counter(walls) == {"blank": 13, "left": 2, "right": 2, "both": 1}
    orders = {tuple(GAME.setup({}, ["a", "b"], s).hidden["walls"]) for s in range(5)}
    assert len(orders) > 1, "the wall deck is shuffled"


def test_four_distinct_public_trap_numbers_one_per_zone_chac_glyph_1():
    """CHAC-GLYPH-1: four distinct public trap numbers one per zone."""
    for seed in range(20):
        state = GAME.setup({}, ["a", "b"], seed)
        traps = state.hidden["traps"]
        assert sorted(traps) == ["1", "2", "3", "4"]
        assert len(set(traps.values())) == 4
        assert all(1 <= n <= 14 for n in traps.values())
        assert GAME.public_view(state)["traps"] == traps


def test_treasure_decks_and_alcoves_chac_treas_1():
    """CHAC-TREAS-1: treasure decks and alcoves."""
    state = GAME.setup({}, ["a", "b"], 3)
    room = Counter([1, 2, 2, 3, 3, 3, 4, 4, 5, "casket"])
    for deck in ("Z1", "Z2", "Z3", "Z4", "L"):
        assert Counter(state.hidden["decks"][deck]) == room
        assert Counter(state.values[c] for c in state.decks[deck]) == room
    assert Counter(state.hidden["decks"]["R"]) == Counter([2, 2, 2, 3, 3, 3, 4, 4, 4, "casket"])
    alcoves = GAME.public_view(state)["alcoves"]
    assert sorted((a["space"], a["value"]) for a in alcoves) == [
        ("C10", 4),
        ("C11", 4),
        ("C12", 4),
        ("C13", 4),
        ("C28", 6),
    ]
    assert all(a["card"] for a in alcoves)


def test_casket_values_are_fixed_at_setup_and_hidden_until_the_end_chac_treas_2():
    """CHAC-TREAS-2: casket values are fixed at setup and hidden until the end."""
    a = GAME.setup({}, ["a", "b"], 9)
    b = GAME.setup({}, ["a", "b"], 9)
    assert a.hidden["caskets"] == b.hidden["caskets"]
    assert all(1 <= v <= 6 for v in a.hidden["caskets"].values())
    assert set(a.hidden["caskets"]) == {"Z1", "Z2", "Z3", "Z4", "L", "R"}
    view = GAME.public_view(a)
    assert view["result"] is None and view["reveal"] is None
    assert "caskets" not in str(view)


def test_commitment_published_at_setup_verifies_the_reveal_at_the_end_chac_fair_1():
    """CHAC-FAIR-1: commitment published at setup verifies the reveal at the end."""
    from companion.game.random_play import play_random_game

    played = play_random_game(GAME, ["a", "b", "c"], seed=5)
    view = GAME.public_view(played.state)
    start = GAME.public_view(GAME.setup({}, ["a", "b", "c"], 5))
    assert view["commitment"] == start["commitment"]
    assert start["reveal"] is None
    reveal = view["reveal"]
    assert reveal["hidden"]["caskets"] == view["result"]["caskets"]
    assert verify_reveal(view["commitment"], reveal)
    tampered = copy.deepcopy(reveal)
    tampered["hidden"]["caskets"]["R"] = tampered["hidden"]["caskets"]["R"] % 6 + 1
    assert not verify_reveal(view["commitment"], tampered)
    assert not verify_reveal(view["commitment"], {**reveal, "salt": "0" * 32})
    assert not verify_reveal(view["commitment"], None)


def test_the_same_seed_gives_the_same_secrets_and_another_seed_others_chac_fair_1():
    """CHAC-FAIR-1: the same seed gives the same secrets and another seed others."""
    a, b, c = (GAME.setup({}, ["a", "b"], s) for s in (1, 1, 2))
    assert a.commitment == b.commitment and a.hidden == b.hidden
    assert a.commitment != c.commitment


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"boulder_min_face": 7}, "boulder_min_face"),
        ({"boulder_min_face": "3"}, "boulder_min_face"),
        ({"alcove_faces": {"lava": [1, 1, 2]}}, "alcove_faces"),
        ({"alcove_faces": {"lava": [0, 2]}}, "alcove_faces"),
        ({"alcove_faces": {"pit": [1]}}, "alcove_faces"),
        ({"treasure_mode": "paper"}, "treasure_mode"),
        ({"colour": "red"}, "Unknown option 'colour'"),
        ({"board": "/nonexistent/board.toml"}, "does not exist"),
    ],
)
def test_bad_options_are_rejected_with_a_clear_message(options, words):
    with pytest.raises(RuleError) as info:
        GAME.setup(options, ["a", "b"], 1)
    assert words in str(info.value)


def test_options_change_the_rules_they_name():
    p = Play(options={"boulder_min_face": 5, "alcove_faces": {"lava": [6]}})
    assert p.view()["options"]["alcove_faces"] == {"lava": [6], "chasm": [1, 2, 3, 4, 5]}
    p.to_actions(1, 1, 1, 1, 1)
    p.finish_actions()
    p.do("walls", None)
    p.dice(4)  # below 5: the boulder stays (CHAC-BOUL-1 option)
    assert p.view()["boulder"]["index"] == 0


def test_commitment_follows_the_documented_canonical_form_chac_fair_1():
    """CHAC-FAIR-1: anyone can recompute the commitment from the reveal with the recipe in
    docs/chac-commands.md, without the companion's code."""
    import hashlib
    import json

    state = GAME.setup({}, ["a", "b"], 77)
    hidden = state.hidden
    assert set(hidden) == {"adventurers", "walls", "traps", "decks", "caskets"}
    canonical = json.dumps(hidden, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    digest = hashlib.sha256(f"{state.salt}:{canonical}".encode()).hexdigest()
    assert GAME.public_view(state)["commitment"] == digest
    assert len(state.salt) == 32 and int(state.salt, 16) >= 0
