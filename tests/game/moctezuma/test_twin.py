"""The hidden twin the secrecy test deals: it changes what the viewer may not know, and only
that, so the test comparing views would see a leak."""

from __future__ import annotations

import json
import random

from .helpers import GAME, Play


def hidden(state):
    return json.dumps([state.hidden["chits"], state.hidden["unused"], state.decks])


def test_the_twin_deals_the_unseen_chits_and_the_decks_again_and_leaves_the_state_alone():
    """MOCT-SET-2, MOCT-SET-4: face-down chits and deck orders are what nobody may know."""
    play = Play(seats=3)
    before = hidden(play.state)
    twins = [GAME.hidden_twin(play.state, None, random.Random(i)) for i in range(5)]
    assert hidden(play.state) == before
    assert all(hidden(t) != before for t in twins)
    assert all(
        sorted(t.hidden["chits"] + [t.hidden["unused"]])
        == sorted(play.state.hidden["chits"] + [play.state.hidden["unused"]])
        for t in twins
    )


def test_chits_a_seat_peeked_at_change_only_in_that_seats_own_twin():
    """MOCT-RES-1: the chits Ana researched are known to her; another viewer's twin keeps
    them, hers deals them again and her record follows."""
    play = Play(seats=3)
    play.do("research", 0, size=5, chits=[0, 1, 2, 3, 4])
    seen = play.state.hidden["chits"][:5]
    for i in range(10):
        for viewer in (None, 1, 2):
            assert (
                GAME.hidden_twin(play.state, viewer, random.Random(i)).hidden["chits"][:5] == seen
            )
    twins = [GAME.hidden_twin(play.state, 0, random.Random(i)) for i in range(10)]
    assert any(t.hidden["chits"][:5] != seen for t in twins)
    for twin in twins:
        research = GAME.seat_view(twin, 0)["you"]["research"]
        assert [r["face"] for r in research] == twin.hidden["chits"][:5]
