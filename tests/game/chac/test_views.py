"""The views match their documentation (docs/chac-views.md), which screens and pages rely on."""

from __future__ import annotations

import re
from pathlib import Path

from companion.game.chac import ChacGame
from companion.game.chac.state import FATES

from .helpers import Play

DOC = (Path(__file__).parents[3] / "docs" / "chac-views.md").read_text(encoding="utf-8")
GAME = ChacGame()


def _documented(section: str) -> set[str]:
    text = DOC.split(section, 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    keys: set[str] = set()
    for line in text.splitlines():
        m = re.match(r"\| `([a-z_]+)`(?:, `([a-z_]+)`)? \|", line)
        if m:
            keys.update(k for k in m.groups() if k)
    return keys


def test_public_view_keys_are_the_documented_ones():
    p = Play()
    p.to_actions()
    assert set(p.view()) == _documented("## Public view")


def test_seat_entry_and_you_keys_are_documented():
    p = Play(start=False)
    assert set(p.seat_view(0)["you"]) <= _documented("## Seat view")
    p = Play()
    p.to_actions()
    seat_keys = _documented("### A seat entry")
    for entry in p.view()["seats"]:
        assert set(entry) <= seat_keys
    assert set(p.seat_view(1)["you"]) <= _documented("## Seat view")


def test_adventurer_keys_and_fates_are_documented():
    row = next(line for line in DOC.splitlines() if line.startswith("| `adventurer` |"))
    p = Play()
    p.to_actions()
    adventurer = p.view()["seats"][0]["adventurer"]
    assert {k for k in adventurer if f"`{k}`" not in row} == set()
    assert _documented("### An adventurer's fate") == set(FATES)


def test_prompts_speak_in_player_words():
    p = Play({0: "Lea Rice", 1: "Bill Baker"}, start=False)
    texts = p.prompt_texts()
    assert texts[0] == "Anna: choose your first adventurer"  # the dealt pair stays private
    assert texts[-1] == "Host: choose the first dicekeeper (the oldest player)"
    p.do("choose_adventurer", 0, adventurer="Lea Rice")
    p.do("choose_adventurer", 1, adventurer="Bill Baker")
    p.do("first_dicekeeper", None, keeper=0)
    assert p.prompt_texts() == ["Roll 5 dice for actions"]
    prompt = GAME.prompts(p.state)[0]
    assert (prompt.kind, prompt.dice, prompt.purpose) == ("roll", 5, "actions")
    p.dice(1, 2, 3, 4, 5)
    assert p.prompt_texts() == ["Lea: 4 actions left"]
    assert GAME.prompts(p.state)[0].seat == 0
    p.do("pass", 0)
    p.do("pass", 1)
    assert p.prompt_texts() == ["Reveal the next 3 wall cards"]
    p.do("walls", None)
    assert p.prompt_texts() == ["Roll 1 die for the boulder"]


def test_the_log_tells_what_happened_in_plain_words():
    p = Play({0: "Lea Rice"})
    p.to_actions(6, 6, 6, 6, 6)
    p.do("move", 0, to="Z1")
    p.do("search", 0)
    log = p.view()["log"]
    assert log[-2:] == ["Lea moves to Z1.", "Lea searches zone 1 and draws a card."]
    assert p.view()["log_count"] >= len(log)


def test_a_number_is_only_typed_for_a_slab_chac_lava_3():
    """CHAC-LAVA-3: sun spaces have no slab, so no number goes with a move onto them."""
    p = Play()
    p.to_actions()
    p.place(0, "C8")
    p.refuse("move", 0, "", to="L(3,0)", number=5)
    p.place(0, "C7")
    p.do("move", 0, to="L(3,1)", number=p.safe())
    assert p.adv(0).space == "L(3,1)"


def test_load_level_during_setup_is_two_for_an_empty_hand_chac_ll_1():
    """CHAC-LL-1: 0-3 cards give load level 2, before the first round too."""
    p = Play(start=False)
    p.do("choose_adventurer", 0, adventurer=p.state.seats[0].dealt[0])
    assert p.view()["round"] == 0
    assert p.view()["seats"][0]["adventurer"]["load_level"] == 2


def test_the_dealt_pair_comes_with_its_abilities_chac_set_1():
    """CHAC-SET-1: a player choosing sees what each dealt adventurer can do."""
    p = Play({0: "Lea Rice"}, start=False)
    you = GAME.seat_view(p.state, 0)["you"]
    assert you["dealt_abilities"]["Lea Rice"] == "sprint"
    assert set(you["dealt_abilities"]) == set(you["dealt"])
    assert "dealt_abilities" not in GAME.public_view(p.state)


def test_the_load_prompt_counts_one_card_as_one_card_chac_ll_1():
    """CHAC-LL-1: a player with cards may discard before the roll; "1 card", not "1 cards"."""
    p = Play({0: "Lea Rice", 1: "Bill Baker"}, start=False)
    p.do("choose_adventurer", 0, adventurer="Lea Rice")
    p.do("choose_adventurer", 1, adventurer="Bill Baker")
    p.give(0, 1)
    p.do("first_dicekeeper", None, keeper=0)
    assert p.prompt_texts() == ["Lea: discard cards or say ready (1 card)"]
    p.give(0, 1)
    assert p.prompt_texts() == ["Lea: discard cards or say ready (2 cards)"]
